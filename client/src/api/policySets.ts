import { HttpClient, type CallOptions, type HttpClientOptions, type HttpResponse } from './http';
import { InvalidRequestError, ServiceError } from './errors';
import { POLICY_API_VERSION, type ServiceSettings } from './settings';

/** E1's name rule (spec E1, `policySetDefinitionName`). */
export const POLICY_SET_NAME_PATTERN = /^[^<>*%&:?.+/]*[^<>*%&:?.+/ ]+$/;
/** A1's version rule (`^\d+\.\d+\.\d+$`). */
export const VERSION_PATTERN = /^\d+\.\d+\.\d+$/;
/** Subscription ids are GUIDs. */
export const SUBSCRIPTION_ID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Management group ids as the real service takes them: up to 90 letters, digits, '-', '_', '.', '(' and ')', not ending in '.' (so never '.' or '..'). */
export const MANAGEMENT_GROUP_ID_PATTERN = /^[A-Za-z0-9\-_.()]{0,89}[A-Za-z0-9\-_()]$/;

export const EXPAND_VALUES = ['LatestDefinitionVersion', 'EffectiveDefinitionVersion'] as const;
export type ExpandValue = (typeof EXPAND_VALUES)[number];

export type DeploymentScope = { kind: 'subscription'; subscriptionId: string } | { kind: 'managementGroup'; managementGroupId: string };

export interface PolicyDefinitionReference {
  policyDefinitionId?: string;
  policyDefinitionReferenceId?: string;
  definitionVersion?: string;
  latestDefinitionVersion?: string;
  effectiveDefinitionVersion?: string;
  groupNames?: string[];
  parameters?: Record<string, { value?: unknown }>;
  [key: string]: unknown;
}

export interface PolicySetDefinitionProperties {
  displayName?: string;
  description?: string;
  metadata?: unknown;
  parameters?: Record<string, unknown>;
  policyDefinitionGroups?: unknown[];
  policyDefinitions: PolicyDefinitionReference[];
  policyType?: string;
  version?: string;
  versions?: string[];
  [key: string]: unknown;
}

/** A3: what E1 answers. */
export interface PolicySetDefinition {
  id?: string;
  name?: string;
  type?: string;
  properties: PolicySetDefinitionProperties;
  systemData?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A1 as the service answers a PUT. */
export interface PolicySetDefinitionVersion {
  id?: string;
  name?: string;
  type?: string;
  properties?: PolicySetDefinitionProperties;
  [key: string]: unknown;
}

export function checkSetName(name: string): string | undefined {
  if (!name) return 'A policy set definition name is required';
  if (!POLICY_SET_NAME_PATTERN.test(name))
    return `'${name}' is not a valid policy set definition name: it may not contain < > * % & : ? . + / and may not end with a space`;
  return undefined;
}

export function checkVersion(version: string): string | undefined {
  return VERSION_PATTERN.test(version) ? undefined : `'${version}' is not a version: use #.#.# (digits, like 1.0.0)`;
}

export function checkScope(scope: DeploymentScope): string | undefined {
  if (scope.kind === 'subscription')
    return SUBSCRIPTION_ID_PATTERN.test(scope.subscriptionId)
      ? undefined
      : `'${scope.subscriptionId}' is not a subscription id (a GUID like 00000000-0000-0000-0000-000000000000)`;
  return MANAGEMENT_GROUP_ID_PATTERN.test(scope.managementGroupId)
    ? undefined
    : `'${scope.managementGroupId}' is not a management group id (up to 90 letters, digits, '-', '_', '.', '(' or ')', not ending in '.')`;
}

export function parseExpand(list: string): ExpandValue[] {
  const values: ExpandValue[] = [];
  for (const part of list
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const known = EXPAND_VALUES.find((v) => v.toLowerCase() === part.toLowerCase());
    if (!known) throw new InvalidRequestError(`'${part}' is not an $expand value: use ${EXPAND_VALUES.join(' or ')}`);
    if (!values.includes(known)) values.push(known);
  }
  return values;
}

/** The E1 and E2 operations over one HttpClient. */
export class PolicySetClient {
  readonly http: HttpClient;
  constructor(
    readonly settings: ServiceSettings,
    options: Omit<HttpClientOptions, 'baseUrl'>,
  ) {
    this.http = new HttpClient({ ...options, baseUrl: settings.baseUrl });
  }

  private get authorization(): string {
    return `${this.settings.providerNamespace}.Authorization`;
  }

  /** The path E1 reads, without the base URL. */
  builtInPath(name: string): string {
    const problem = checkSetName(name);
    if (problem) throw new InvalidRequestError(problem);
    return `/providers/${this.authorization}/policySetDefinitions/${encodeURIComponent(name)}`;
  }

  /**
   * The path E2 writes. The spec shows none; this follows the real service's convention for child
   * resources at subscription and management-group scope.
   */
  versionPath(scope: DeploymentScope, name: string, version: string): string {
    const problem = checkScope(scope) ?? checkSetName(name) ?? checkVersion(version);
    if (problem) throw new InvalidRequestError(problem);
    const prefix =
      scope.kind === 'subscription'
        ? `/subscriptions/${encodeURIComponent(scope.subscriptionId)}`
        : `/providers/${this.settings.providerNamespace}.Management/managementGroups/${encodeURIComponent(scope.managementGroupId)}`;
    return `${prefix}/providers/${this.authorization}/policySetDefinitions/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
  }

  /** The address E2's PUT goes to, exactly as sent (for the confirmation). */
  versionUrl(scope: DeploymentScope, name: string, version: string): string {
    return this.http.urlOf({ path: this.versionPath(scope, name, version), apiVersion: POLICY_API_VERSION });
  }

  /** E1: a built-in policy set definition by name; `expand` fills latest/effective definition versions. */
  async getBuiltInPolicySetDefinition(
    name: string,
    options: CallOptions & { expand?: readonly ExpandValue[] } = {},
  ): Promise<HttpResponse<PolicySetDefinition>> {
    const path = this.builtInPath(name);
    const expand = options.expand?.length ? options.expand.join(',') : undefined;
    const response = await this.http.send<PolicySetDefinition>(
      { method: 'GET', path, apiVersion: POLICY_API_VERSION, query: { $expand: expand }, area: 'policy' },
      options,
    );
    const body = response.body as unknown;
    if (!isObject(body) || !isObject(body.properties) || !Array.isArray(body.properties.policyDefinitions)) {
      throw new ServiceError(
        `The service answered ${response.status} to GET ${path} with JSON that is not a policy set definition (no properties.policyDefinitions)`,
        response.status,
        'InvalidResponse',
        '',
        'unexpected',
        undefined,
        [],
        response.requestId,
      );
    }
    return response;
  }

  /** E2: creates or updates a version of a policy set definition; the body is `{ properties }`. */
  async createPolicySetDefinitionVersion(
    scope: DeploymentScope,
    name: string,
    version: string,
    properties: PolicySetDefinitionProperties,
    options: CallOptions = {},
  ): Promise<HttpResponse<PolicySetDefinitionVersion>> {
    const path = this.versionPath(scope, name, version);
    if (!isObject(properties)) throw new InvalidRequestError('The version has no properties object to send');
    return this.http.send<PolicySetDefinitionVersion>(
      { method: 'PUT', path, apiVersion: POLICY_API_VERSION, body: { properties }, area: 'policy' },
      options,
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describeScope(scope: DeploymentScope): string {
  return scope.kind === 'subscription' ? `subscription ${scope.subscriptionId}` : `management group ${scope.managementGroupId}`;
}

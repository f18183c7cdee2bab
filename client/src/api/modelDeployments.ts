import { HttpClient, formatMegabytes, type CallOptions, type HttpClientOptions, type HttpResponse } from './http';
import { AuthenticationRequiredError, InvalidRequestError, NetworkError, ProvisioningFailedError, ServiceError, safeText } from './errors';
import { SUBSCRIPTION_ID_PATTERN } from './policySets';
import type { ServiceSettings } from './settings';

// E6 (create or update a model deployment), the GET on the same path that reads a deployment's current sku
// (the real service has it; the spec does not show it), and E7 (read quota usage in a region).

/** api-version of the deployment and usage operations (spec "Versioning"). */
export const DEPLOYMENT_API_VERSION = '2023-05-01';

/** Resource group names as the real service takes them: 1-90 of letters, digits, '-', '_', '.', '(' and ')', not ending in '.'. */
export const RESOURCE_GROUP_PATTERN = /^[-\w.()]{0,89}[-\w()]$/u;
/** Model-service resource (account) names: 2-64 letters, digits and '-', starting and ending with a letter or digit. */
export const ACCOUNT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}[A-Za-z0-9]$/;
/** Deployment names: 2-64 letters, digits, '-', '_' and '.', starting with a letter or digit, not ending in '.'. */
export const DEPLOYMENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}[A-Za-z0-9_-]$/;
/** Regions in the lowercase-joined form the spec asks for (`eastus`, `swedencentral`). */
export const LOCATION_PATTERN = /^[a-z][a-z0-9]{1,49}$/;
/** The model format the real service takes for its own models, sent when none is given. */
export const DEFAULT_MODEL_FORMAT = 'OpenAI';
/** The deployment type (sku name) when none is given. */
export const DEFAULT_SKU_NAME = 'Standard';
/** The largest sku.capacity sent (units of 1,000 TPM): the CLI, the extension and the plan rules (PS9101) take the same bound. */
export const MAX_DEPLOYMENT_CAPACITY = 1_000_000;
/** Pages of a usages list read at most: a list that never ends is a fault, not a region. */
const MAX_PAGES = 50;
/** Bounds of one usages listing across its pages (a region has some hundreds of entries). */
export const MAX_USAGES_BYTES = 8 * 1024 * 1024;
export const MAX_USAGES_ENTRIES = 50_000;

export interface DeploymentTarget {
  subscriptionId: string;
  resourceGroupName: string;
  accountName: string;
  deploymentName: string;
}

export interface DeploymentModel {
  format: string;
  name: string;
  version?: string;
}

/** The E6 request body (spec D: a subset of the real one). */
export interface DeploymentBody {
  sku: { name: string; capacity: number };
  properties: { model: DeploymentModel };
}

/** A deployment as the service answers E6 or the GET. */
export interface ModelDeployment {
  id?: string;
  name?: string;
  type?: string;
  sku?: { name?: string; capacity?: number; [key: string]: unknown };
  properties?: {
    model?: Partial<DeploymentModel>;
    /** `Accepted` / `Creating` before `Succeeded`, or `Failed`. */
    provisioningState?: string;
    /** What the service enforces: `{ key: 'request' | 'token', renewalPeriod: seconds, count }`. */
    rateLimits?: Array<{ key?: string; renewalPeriod?: number; count?: number }>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** One E7 entry (see the quota model's `Usage`). */
export interface UsageEntry {
  name?: { value?: string; localizedValue?: string };
  currentValue?: number;
  limit?: number;
  unit?: string;
  [key: string]: unknown;
}

export function checkDeploymentTarget(target: DeploymentTarget): string | undefined {
  if (!SUBSCRIPTION_ID_PATTERN.test(target.subscriptionId))
    return `'${target.subscriptionId}' is not a subscription id (a GUID like 00000000-0000-0000-0000-000000000000)`;
  if (!RESOURCE_GROUP_PATTERN.test(target.resourceGroupName))
    return `'${target.resourceGroupName}' is not a resource group name (1-90 letters, digits, '-', '_', '.', '(' or ')', not ending in '.')`;
  if (!ACCOUNT_NAME_PATTERN.test(target.accountName))
    return `'${target.accountName}' is not a model-service resource name (2-64 letters, digits or '-', starting and ending with a letter or digit)`;
  if (!DEPLOYMENT_NAME_PATTERN.test(target.deploymentName))
    return `'${target.deploymentName}' is not a deployment name (2-64 letters, digits, '-', '_' or '.', starting with a letter or digit, not ending in '.')`;
  return undefined;
}

export function checkLocation(location: string): string | undefined {
  return LOCATION_PATTERN.test(location)
    ? undefined
    : `'${location}' is not a region name in lowercase-joined form (like eastus or swedencentral)`;
}

export function checkDeploymentBody(body: DeploymentBody): string | undefined {
  if (typeof body.sku?.name !== 'string' || !body.sku.name) return 'the deployment needs a sku name (the deployment type, like Standard)';
  if (!Number.isInteger(body.sku.capacity) || body.sku.capacity < 1)
    return `sku.capacity must be a positive whole number (1 = 1,000 TPM), not ${String(body.sku.capacity)}`;
  if (body.sku.capacity > MAX_DEPLOYMENT_CAPACITY)
    return `sku.capacity must be at most ${MAX_DEPLOYMENT_CAPACITY.toLocaleString('en-US')} (1,000,000,000 TPM), not ${String(body.sku.capacity)}`;
  const model = body.properties?.model;
  if (!model || typeof model.name !== 'string' || !model.name) return 'the deployment needs properties.model.name';
  if (typeof model.format !== 'string' || !model.format) return 'the deployment needs properties.model.format';
  if (model.version !== undefined && (typeof model.version !== 'string' || !model.version))
    return 'properties.model.version, when given, is a non-empty string';
  return undefined;
}

/** Reads `name[:version[:format]]`, the CLI's and the palette's way to name a model. */
export function parseModelSpec(text: string): DeploymentModel {
  const [name, version, format, ...rest] = text.split(':');
  if (!name || rest.length || version === '' || format === '')
    throw new InvalidRequestError(`'${text}' is not a model: use <name>[:<version>[:<format>]], like gpt-4o:2024-08-06`);
  return { format: format ?? DEFAULT_MODEL_FORMAT, name, ...(version ? { version } : {}) };
}

/** E6, the deployment GET and E7 over one HttpClient. */
export class ModelDeploymentClient {
  readonly http: HttpClient;
  constructor(
    readonly settings: ServiceSettings,
    options: Omit<HttpClientOptions, 'baseUrl'>,
  ) {
    this.http = new HttpClient({ ...options, baseUrl: settings.baseUrl });
  }

  private get provider(): string {
    return `${this.settings.providerNamespace}.CognitiveServices`;
  }

  /** The path E6 writes (and the GET reads), without the base URL. */
  deploymentPath(target: DeploymentTarget): string {
    const problem = checkDeploymentTarget(target);
    if (problem) throw new InvalidRequestError(problem);
    const e = encodeURIComponent;
    return `/subscriptions/${e(target.subscriptionId)}/resourceGroups/${e(target.resourceGroupName)}/providers/${this.provider}/accounts/${e(target.accountName)}/deployments/${e(target.deploymentName)}`;
  }

  /** The address E6's PUT goes to, exactly as sent (for the confirmation). */
  deploymentUrl(target: DeploymentTarget): string {
    return this.http.urlOf({ path: this.deploymentPath(target), apiVersion: DEPLOYMENT_API_VERSION });
  }

  /** The path E7 reads. */
  usagesPath(subscriptionId: string, location: string): string {
    const problem = SUBSCRIPTION_ID_PATTERN.test(subscriptionId)
      ? checkLocation(location)
      : `'${subscriptionId}' is not a subscription id (a GUID like 00000000-0000-0000-0000-000000000000)`;
    if (problem) throw new InvalidRequestError(problem);
    return `/subscriptions/${encodeURIComponent(subscriptionId)}/providers/${this.provider}/locations/${encodeURIComponent(location)}/usages`;
  }

  /** The deployment as it is now, or undefined when there is none (404: the PUT would create it). */
  async getDeployment(target: DeploymentTarget, options: CallOptions = {}): Promise<ModelDeployment | undefined> {
    const path = this.deploymentPath(target);
    try {
      const response = await this.http.send<ModelDeployment>(
        { method: 'GET', path, apiVersion: DEPLOYMENT_API_VERSION, area: 'policy' },
        options,
      );
      return isObject(response.body) ? response.body : {};
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) return undefined;
      throw error;
    }
  }

  /**
   * E6: one PUT of `sku` and `properties.model`. The HttpClient sends it again only when it certainly did not
   * arrive (or the service said 429/503: not processed). The real service answers 200 (updated) or 201
   * (created) with the deployment; its provisioningState may still be `Accepted` or `Creating`.
   */
  async createOrUpdateDeployment(
    target: DeploymentTarget,
    body: DeploymentBody,
    options: CallOptions = {},
  ): Promise<HttpResponse<ModelDeployment>> {
    const path = this.deploymentPath(target);
    const problem = checkDeploymentBody(body);
    if (problem) throw new InvalidRequestError(problem);
    const sent: DeploymentBody = {
      sku: { name: body.sku.name, capacity: body.sku.capacity },
      properties: { model: { ...body.properties.model } },
    };
    return this.http.send<ModelDeployment>(
      { method: 'PUT', path, apiVersion: DEPLOYMENT_API_VERSION, body: sent, area: 'policy' },
      options,
    );
  }

  /**
   * E7: every usage entry of the region, following `nextLink` (the real list is paged like any other). A
   * nextLink is followed only on the service's own address: the token is never sent anywhere else.
   */
  async listUsages(subscriptionId: string, location: string, options: CallOptions = {}): Promise<{ value: UsageEntry[]; pages: number }> {
    const first = this.usagesPath(subscriptionId, location);
    const base = new URL(this.settings.baseUrl);
    const basePath = base.pathname.replace(/\/+$/, '');
    const value: UsageEntry[] = [];
    const seen = new Set<string>();
    let next: { path: string; apiVersion: string; query: Record<string, string> } | undefined = {
      path: first,
      apiVersion: DEPLOYMENT_API_VERSION,
      query: {},
    };
    let pages = 0;
    let bytes = 0;
    const tooMuch = () =>
      new ServiceError(
        `The service sent more than ${formatMegabytes(MAX_USAGES_BYTES)} or ${MAX_USAGES_ENTRIES.toLocaleString('en-US')} entries of usage for ${location}; not read further`,
        200,
        'TooLarge',
        '',
        'unexpected',
      );
    while (next) {
      if (++pages > MAX_PAGES)
        throw new ServiceError(
          `The usages list of ${location} did not end after ${MAX_PAGES} pages; not read further`,
          200,
          'InvalidResponse',
          '',
          'unexpected',
        );
      let response: HttpResponse<unknown>;
      try {
        response = await this.http.send(
          { method: 'GET', path: next.path, apiVersion: next.apiVersion, query: next.query, area: 'policy' },
          { ...options, maxResponseBytes: Math.max(1, MAX_USAGES_BYTES - bytes) },
        );
      } catch (error) {
        if (error instanceof NetworkError && error.code === 'ETOOLARGE') throw tooMuch();
        throw error;
      }
      const body = response.body;
      if (!isObject(body) || !Array.isArray(body.value)) {
        throw new ServiceError(
          `The service answered ${response.status} to GET ${next.path} with JSON that is not a usages list (no "value" array)`,
          response.status,
          'InvalidResponse',
          '',
          'unexpected',
          undefined,
          [],
          response.requestId,
        );
      }
      bytes += response.bytes ?? 0;
      if (value.length + body.value.length > MAX_USAGES_ENTRIES) throw tooMuch();
      // One at a time: a spread of a large page overflows the call stack.
      for (const entry of body.value) {
        if (!isObject(entry)) continue;
        const impossible = impossibleUsageNumber(entry);
        if (impossible) {
          const name = isObject(entry.name) && typeof entry.name.value === 'string' ? entry.name.value : '(no name)';
          throw new ServiceError(
            `The service's usage of ${location} has an impossible ${impossible} for '${safeText(name, { max: 100 })}': nothing is decided on it (no quota is believed, nothing is sent)`,
            response.status,
            'InvalidResponse',
            '',
            'unexpected',
            undefined,
            [],
            response.requestId,
          );
        }
        value.push(entry as UsageEntry);
      }
      if (body.nextLink !== undefined && body.nextLink !== null && typeof body.nextLink !== 'string') {
        throw new ServiceError(
          `The usages list's nextLink is not a string (${Array.isArray(body.nextLink) ? 'an array' : typeof body.nextLink}); the list may be incomplete, so it is not used`,
          response.status,
          'InvalidNextLink',
          '',
          'unexpected',
        );
      }
      const link = typeof body.nextLink === 'string' && body.nextLink ? body.nextLink : undefined;
      next = undefined;
      if (link) {
        let url: URL;
        try {
          url = new URL(link, base);
        } catch {
          throw new ServiceError(
            `The usages list gave a nextLink that is not a URL: '${link.slice(0, 200)}'`,
            response.status,
            'InvalidResponse',
            '',
            'unexpected',
          );
        }
        if (url.origin !== base.origin || !url.pathname.startsWith(basePath)) {
          throw new ServiceError(
            `The usages list's nextLink points away from the service (${url.origin}); not followed, so the token is not sent there`,
            response.status,
            'InvalidResponse',
            '',
            'unexpected',
          );
        }
        if (seen.has(url.href))
          throw new ServiceError(
            'The usages list gave the same nextLink twice; not read further',
            response.status,
            'InvalidResponse',
            '',
            'unexpected',
          );
        seen.add(url.href);
        const query = Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'api-version'));
        next = {
          path: url.pathname.slice(basePath.length),
          apiVersion: url.searchParams.get('api-version') ?? DEPLOYMENT_API_VERSION,
          query,
        };
      }
    }
    return { value, pages };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the service said it enforces (its `rateLimits`), in one line: "600 requests per 60 s, 100,000 tokens per 60 s". */
export function describeRateLimits(deployment: ModelDeployment | undefined): string | undefined {
  const limits = deployment?.properties?.rateLimits;
  if (!Array.isArray(limits) || !limits.length) return undefined;
  return limits
    .filter((l) => typeof l?.count === 'number')
    .map(
      (l) =>
        `${(l.count as number).toLocaleString('en-US')} ${l.key === 'token' ? 'tokens' : l.key === 'request' ? 'requests' : (l.key ?? '?')} per ${l.renewalPeriod ?? '?'} s`,
    )
    .join(', ');
}

/** What a user can do about the real service's over-quota answer (400 `InsufficientQuota`, spec Limits rule 2). */
export const INSUFFICIENT_QUOTA_ADVICE =
  'lower the TPM of another deployment of this model in the region, or request a quota increase; quota of a resource deleted in the last 48 hours stays held until it is purged';

/** The largest usage count believed (units of 1,000 TPM, or resources): far above any real quota. */
export const MAX_USAGE_COUNT = 1e9;

/**
 * Whether a usage entry's numbers are impossible: `currentValue` or `limit` present but not a finite number
 * from 0 to MAX_USAGE_COUNT (1e308, a negative count, NaN written as a string). Says which, or undefined.
 */
export function impossibleUsageNumber(entry: Record<string, unknown>): string | undefined {
  for (const key of ['currentValue', 'limit'] as const) {
    const n = entry[key];
    if (n === undefined || n === null) continue;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_USAGE_COUNT) return `${key} (${safeText(String(n), { max: 40 })})`;
  }
  return undefined;
}

/** True for the real service's over-quota answer. */
export function isInsufficientQuota(error: unknown): boolean {
  return error instanceof ServiceError && /^InsufficientQuota$/i.test(error.code);
}

/**
 * The deployment as it is, for a plan: `deployment` (undefined on 404) and whether the 404 said that the
 * account itself is missing (the real service's `ParentResourceNotFound`/`ResourceNotFound`), so that the
 * first PUT under it would make a new model-service resource in the region.
 */
export async function readDeploymentState(
  client: ModelDeploymentClient,
  target: DeploymentTarget,
  options: CallOptions = {},
): Promise<{ deployment?: ModelDeployment; accountMissing: boolean }> {
  const path = client.deploymentPath(target);
  try {
    const response = await client.http.send<ModelDeployment>(
      { method: 'GET', path, apiVersion: DEPLOYMENT_API_VERSION, area: 'policy' },
      options,
    );
    return { deployment: isObject(response.body) ? response.body : {}, accountMissing: false };
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404)
      return { accountMissing: /^(ParentResourceNotFound|ResourceNotFound)$/i.test(error.code) };
    throw error;
  }
}

/**
 * What became of a PUT that threw: `refused` when the service certainly did not apply it (a 4xx answer, 429
 * or 503 "not processed", a connection that failed before the body was sent, nothing sent at all),
 * `unknown` when it may have been applied (another 5xx, a dropped connection after the body was sent, no
 * answer in time, a 2xx whose body could not be read, a 101). A 2xx whose provisioningState is Failed is
 * `refused` (ProvisioningFailedError). An `unknown` PUT is never sent again by itself.
 */
export function putOutcome(error: unknown): 'refused' | 'unknown' {
  // Answered, and the resource says it failed: certainly not applied as asked.
  if (error instanceof ProvisioningFailedError) return 'refused';
  if (error instanceof ServiceError) {
    if (error.status >= 200 && error.status < 300) return 'unknown';
    if (error.status === 429 || error.status === 503 || (error.status >= 400 && error.status < 500 && error.status !== 408))
      return 'refused';
    return 'unknown';
  }
  if (error instanceof NetworkError) return error.maybeDelivered ? 'unknown' : 'refused';
  if (error instanceof InvalidRequestError || error instanceof AuthenticationRequiredError) return 'refused';
  return 'unknown';
}

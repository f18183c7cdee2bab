import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorBody, type Route } from './routes';

// E1 (get a built-in policy set definition) and E2 (create a policy set definition version) of the
// local service, on an in-memory store of versions, the corpus's built-in sets (the full corpus when it is
// beside the checkout or named by POLICYSET_CORPUS, else the subset in test/fixtures/corpus) and the seed files.

export const API_VERSION = '2025-11-01';
const NAME_PATTERN = /^[^<>*%&:?.+/]*[^<>*%&:?.+/ ]+$/;
const VERSION_PATTERN = /^\d+\.\d+\.\d+$/;
const SEED_DIR = path.resolve(__dirname, '../../fake-service/seed');

interface Definitions {
  byId: Map<string, { version?: string; versions?: string[] }>;
}

export class BuiltInStore {
  private readonly files = new Map<string, string>();
  private readonly cache = new Map<string, Record<string, unknown>>();
  private definitions: Definitions | undefined;
  /** Whether the corpus's sets are served besides the seed ('corpus'), or the seed alone (no corpus at corpusDir). */
  readonly kind: 'corpus' | 'seed';
  /** How many of the sets come from the corpus. */
  readonly corpusCount: number = 0;

  constructor(private readonly corpusDir: string) {
    // The seed's two small sets are always there (tests of faults and retries use them).
    for (const name of fs.readdirSync(SEED_DIR)) {
      const json = JSON.parse(fs.readFileSync(path.join(SEED_DIR, name), 'utf8')) as { name: string };
      this.files.set(json.name.toLowerCase(), path.join(SEED_DIR, name));
    }
    const manifest = path.join(corpusDir, 'builtin-policy-sets-manifest.json');
    if (fs.existsSync(manifest)) {
      const files = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { files: Array<{ corpusPath: string; cloud: string; name: string }> })
        .files;
      // The public cloud's sets; a name the Government folder repeats stays the public one.
      for (const file of files) {
        if (file.cloud !== 'AzureCloud') continue;
        this.files.set(file.name.toLowerCase(), path.join(corpusDir, file.corpusPath));
        this.corpusCount++;
      }
      this.kind = 'corpus';
    } else {
      this.kind = 'seed';
    }
  }

  get count(): number {
    return this.files.size;
  }

  get(name: string): Record<string, unknown> | undefined {
    const key = name.toLowerCase();
    const file = this.files.get(key);
    if (!file) return undefined;
    let set = this.cache.get(key);
    if (!set) {
      set = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      this.cache.set(key, set);
    }
    return structuredClone(set);
  }

  definition(id: string): { version?: string; versions?: string[] } | undefined {
    if (!this.definitions) {
      const index = path.join(this.corpusDir, 'builtin-policy-definitions-index.json');
      const byId = new Map<string, { version?: string; versions?: string[] }>();
      if (this.kind === 'corpus' && fs.existsSync(index)) {
        for (const entry of JSON.parse(fs.readFileSync(index, 'utf8')) as Array<{
          id: string;
          version?: string;
          versions?: string[];
          cloud: string;
        }>) {
          if (entry.cloud === 'AzureCloud' || !byId.has(entry.id.toLowerCase())) byId.set(entry.id.toLowerCase(), entry);
        }
      }
      this.definitions = { byId };
    }
    return this.definitions.byId.get(id.toLowerCase());
  }
}

const compareVersions = (a: string, b: string) => {
  const pa = a.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
};

/** latest: the definition's newest version; effective: the newest that the reference's `definitionVersion` admits. */
function expandReference(store: BuiltInStore, reference: Record<string, unknown>, expand: Set<string>): void {
  const id = typeof reference.policyDefinitionId === 'string' ? reference.policyDefinitionId : '';
  const known = store.definition(id);
  const wanted = typeof reference.definitionVersion === 'string' ? reference.definitionVersion : undefined;
  const versions = (known?.versions?.length ? known.versions : known?.version ? [known.version] : [wanted?.replace(/\*/g, '0') ?? '1.0.0'])
    .slice()
    .sort(compareVersions)
    .reverse();
  const latest = versions[0];
  const admits = (v: string) => !wanted || wanted.split('.').every((part, i) => part === '*' || part === v.split('.')[i]);
  const effective = versions.find(admits) ?? latest;
  if (expand.has('latestdefinitionversion')) reference.latestDefinitionVersion = latest;
  if (expand.has('effectivedefinitionversion')) reference.effectiveDefinitionVersion = effective;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const valueOf = (object: Record<string, unknown>, lower: string) =>
  object[Object.keys(object).find((k) => k.toLowerCase() === lower) ?? ''];

/**
 * The spec's required fields of the deployable resource (A1, A2), as strictly as the real service: every
 * reference an object with a policyDefinitionId, every group a name; policyType one of A1's values, and never
 * one of the service's own (BuiltIn, Static) on a version a user deploys.
 */
function a2Problem(properties: Record<string, unknown>): { code: string; message: string; target: string } | undefined {
  const references = properties.policyDefinitions as unknown[];
  for (const [i, reference] of references.entries()) {
    if (!isObject(reference))
      return {
        code: 'InvalidRequestContent',
        message: `The policy definition reference at index ${i} is not an object.`,
        target: `properties.policyDefinitions[${i}]`,
      };
    const id = valueOf(reference, 'policydefinitionid');
    if (typeof id !== 'string' || !id)
      return {
        code: 'InvalidRequestContent',
        message: `The policy definition reference at index ${i} has no 'policyDefinitionId'; it is required.`,
        target: `properties.policyDefinitions[${i}].policyDefinitionId`,
      };
  }
  const groups = valueOf(properties, 'policydefinitiongroups');
  if (groups !== undefined) {
    if (!Array.isArray(groups))
      return {
        code: 'InvalidRequestContent',
        message: "'policyDefinitionGroups' is not an array.",
        target: 'properties.policyDefinitionGroups',
      };
    for (const [i, group] of groups.entries()) {
      const name = isObject(group) ? valueOf(group, 'name') : undefined;
      if (typeof name !== 'string' || !name)
        return {
          code: 'InvalidRequestContent',
          message: `The policy definition group at index ${i} has no 'name'; it is required.`,
          target: `properties.policyDefinitionGroups[${i}].name`,
        };
    }
  }
  const policyType = valueOf(properties, 'policytype');
  if (policyType !== undefined) {
    const known = ['notspecified', 'builtin', 'custom', 'static'];
    if (typeof policyType !== 'string' || !known.includes(policyType.toLowerCase()))
      return {
        code: 'InvalidRequestContent',
        message: `'${String(policyType)}' is not a policyType: use NotSpecified, BuiltIn, Custom or Static.`,
        target: 'properties.policyType',
      };
    if (policyType.toLowerCase() === 'builtin' || policyType.toLowerCase() === 'static')
      return {
        code: 'InvalidPolicyType',
        message: `A policy set definition version deployed at a scope cannot have policyType '${policyType}'.`,
        target: 'properties.policyType',
      };
  }
  return undefined;
}

export interface PolicySetRouteOptions {
  namespace: string;
  store: BuiltInStore;
  versions: Map<string, unknown>;
}

export function policySetRoute({ namespace, store, versions }: PolicySetRouteOptions): Route {
  const builtIn = new RegExp(`^/providers/${namespace}\\.Authorization/policySetDefinitions/([^/]+)$`, 'i');
  const version = new RegExp(
    `^(/subscriptions/([^/]+)|/providers/${namespace}\\.Management/managementGroups/([^/]+))/providers/${namespace}\\.Authorization/policySetDefinitions/([^/]+)/versions/([^/]+)$`,
    'i',
  );
  return ({ method, url, body, send, done }) => {
    if (!builtIn.test(url.pathname) && !version.test(url.pathname)) return false;
    const apiVersion = url.searchParams.get('api-version');
    if (apiVersion !== API_VERSION) {
      done('400 api-version');
      return send(
        400,
        errorBody(
          apiVersion ? 'InvalidApiVersionParameter' : 'MissingApiVersionParameter',
          `The api-version '${apiVersion ?? ''}' is not supported; use '${API_VERSION}'.`,
          'api-version',
        ),
      );
    }

    let match = builtIn.exec(url.pathname);
    if (match && method === 'GET') {
      const name = decodeURIComponent(match[1]);
      if (!NAME_PATTERN.test(name)) {
        done('400 name');
        return send(400, errorBody('InvalidPolicySetDefinitionName', `The name '${name}' is not valid.`, 'policySetDefinitionName'));
      }
      const set = store.get(name);
      if (!set) {
        done('404');
        return send(404, errorBody('PolicySetDefinitionNotFound', `The policy set definition '${name}' could not be found.`, name));
      }
      const expand = new Set(
        (url.searchParams.get('$expand') ?? '')
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      );
      const unknown = [...expand].filter((e) => e !== 'latestdefinitionversion' && e !== 'effectivedefinitionversion');
      if (unknown.length) {
        done('400 expand');
        return send(400, errorBody('InvalidExpand', `The $expand value '${unknown[0]}' is not supported.`, '$expand'));
      }
      const properties = set.properties as { policyDefinitions?: Array<Record<string, unknown>> };
      if (expand.size) for (const reference of properties.policyDefinitions ?? []) expandReference(store, reference, expand);
      done('200');
      return send(200, JSON.stringify(set));
    }

    match = version.exec(url.pathname);
    if (match && method === 'PUT') {
      const [, scope, , , rawName, rawVersion] = match;
      const name = decodeURIComponent(rawName);
      const versionName = decodeURIComponent(rawVersion);
      if (!NAME_PATTERN.test(name) || !VERSION_PATTERN.test(versionName)) {
        done('400 name');
        return send(400, errorBody('InvalidRequestContent', `The name '${name}' or version '${versionName}' is not valid.`, 'name'));
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        done('400 json');
        return send(400, errorBody('InvalidRequestContent', 'The request content is not valid JSON.'));
      }
      const properties = (parsed as { properties?: { policyDefinitions?: unknown; version?: unknown } })?.properties;
      if (!properties || typeof properties !== 'object' || !Array.isArray(properties.policyDefinitions)) {
        done('400 body');
        return send(
          400,
          errorBody(
            'InvalidRequestContent',
            "The request content has no 'properties.policyDefinitions' array.",
            'properties.policyDefinitions',
          ),
        );
      }
      const invalid = a2Problem(properties as Record<string, unknown>);
      if (invalid) {
        done(`400 ${invalid.target}`);
        return send(400, errorBody(invalid.code, invalid.message, invalid.target));
      }
      if (properties.version !== undefined && properties.version !== versionName) {
        done('400 version');
        return send(
          400,
          errorBody(
            'InvalidPolicySetDefinitionVersion',
            `properties.version '${String(properties.version)}' does not match the version name '${versionName}'.`,
            'properties.version',
          ),
        );
      }
      const id = `${scope}/providers/${namespace}.Authorization/policySetDefinitions/${name}/versions/${versionName}`;
      const existed = versions.has(id.toLowerCase());
      const now = new Date().toISOString();
      const resource = {
        id,
        name: versionName,
        type: `${namespace}.Authorization/policySetDefinitions/versions`,
        properties: { ...properties, policyType: 'Custom', version: versionName },
        systemData: {
          createdBy: 'local-user',
          createdByType: 'User',
          createdAt: now,
          lastModifiedBy: 'local-user',
          lastModifiedByType: 'User',
          lastModifiedAt: now,
        },
      };
      versions.set(id.toLowerCase(), resource);
      done(existed ? '200' : '201');
      return send(existed ? 200 : 201, JSON.stringify(resource));
    }

    return false;
  };
}

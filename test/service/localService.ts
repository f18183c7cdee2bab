import * as http from 'node:http';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { CORPUS_DIR } from '../support/corpus';

/**
 * A local stand-in for the service, for tests and demos: E1 (get a built-in policy set definition) and E2
 * (create a policy set definition version) over HTTP on 127.0.0.1, on an in-memory store, with switchable
 * faults and a record of every request. Admin endpoints (no token needed, loopback only):
 *   POST   /_local/faults     body {"mode": "429"|"500"|"502html"|"malformed"|"drop"|"hang"|"echo", "count"?: n, "retryAfter"?: s, "method"?: "GET"|"PUT"}
 *   DELETE /_local/faults     clears them
 *   GET    /_local/requests   what was received (method, path, query, headers, body)
 *   DELETE /_local/requests   forgets them
 */

/** 'echo' answers 400 with the request's Authorization header in the error message: a careless service, for leak tests. */
export type FaultMode = '429' | '500' | '502html' | 'malformed' | 'drop' | 'hang' | 'echo';
export const FAULT_MODES: FaultMode[] = ['429', '500', '502html', 'malformed', 'drop', 'hang', 'echo'];

export interface Fault {
  mode: FaultMode;
  /** How many matching requests it applies to (default: all until cleared). */
  count?: number;
  /** Seconds in Retry-After for 429 (default 1). */
  retryAfter?: number;
  /** Only requests with this method. */
  method?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** What the service did: a status, or the fault applied. */
  outcome?: string;
}

export interface LocalServiceOptions {
  port?: number;
  /** Provider namespace in paths (default Provider). */
  providerNamespace?: string;
  /** Where built-in sets come from: the corpus by default, the project's seed files without it. */
  corpusDir?: string;
  /** Only this bearer token is accepted (default: any non-empty one). */
  token?: string;
  faults?: Fault[];
  log?: (line: string) => void;
}

export interface LocalService {
  url: string;
  port: number;
  requests: RecordedRequest[];
  faults: Fault[];
  /** Where the built-in sets come from ('corpus' or 'seed'), and how many. */
  source: { kind: 'corpus' | 'seed'; count: number };
  versions: Map<string, unknown>;
  close(): Promise<void>;
}

const API_VERSION = '2025-11-01';
const NAME_PATTERN = /^[^<>*%&:?.+/]*[^<>*%&:?.+/ ]+$/;
const VERSION_PATTERN = /^\d+\.\d+\.\d+$/;
const SEED_DIR = path.resolve(__dirname, '../../service/seed');

interface Definitions {
  byId: Map<string, { version?: string; versions?: string[] }>;
}

class BuiltInStore {
  private readonly files = new Map<string, string>();
  private readonly cache = new Map<string, Record<string, unknown>>();
  private definitions: Definitions | undefined;
  readonly kind: 'corpus' | 'seed';

  constructor(private readonly corpusDir: string) {
    const manifest = path.join(corpusDir, 'builtin-policy-sets-manifest.json');
    if (fs.existsSync(manifest)) {
      const files = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { files: Array<{ corpusPath: string; cloud: string; name: string }> }).files;
      // The public cloud's sets; a name the Government folder repeats stays the public one.
      for (const file of files) if (file.cloud === 'AzureCloud') this.files.set(file.name.toLowerCase(), path.join(corpusDir, file.corpusPath));
      this.kind = 'corpus';
    } else {
      for (const name of fs.readdirSync(SEED_DIR)) {
        const json = JSON.parse(fs.readFileSync(path.join(SEED_DIR, name), 'utf8')) as { name: string };
        this.files.set(json.name.toLowerCase(), path.join(SEED_DIR, name));
      }
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
        for (const entry of JSON.parse(fs.readFileSync(index, 'utf8')) as Array<{ id: string; version?: string; versions?: string[]; cloud: string }>) {
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
  const versions = (known?.versions?.length ? known.versions : known?.version ? [known.version] : [wanted?.replace(/\*/g, '0') ?? '1.0.0']).slice().sort(compareVersions).reverse();
  const latest = versions[0];
  const admits = (v: string) => !wanted || wanted.split('.').every((part, i) => part === '*' || part === v.split('.')[i]);
  const effective = versions.find(admits) ?? latest;
  if (expand.has('latestdefinitionversion')) reference.latestDefinitionVersion = latest;
  if (expand.has('effectivedefinitionversion')) reference.effectiveDefinitionVersion = effective;
}

function errorBody(code: string, message: string, target?: string): string {
  return JSON.stringify({ error: { code, message, ...(target ? { target } : {}), details: [], additionalInfo: [] } });
}

export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const namespace = options.providerNamespace ?? 'Provider';
  const store = new BuiltInStore(options.corpusDir ?? CORPUS_DIR);
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [...(options.faults ?? [])];
  const versions = new Map<string, unknown>();
  const log = options.log ?? (() => undefined);
  let counter = 0;

  const builtIn = new RegExp(`^/providers/${namespace}\\.Authorization/policySetDefinitions/([^/]+)$`, 'i');
  const version = new RegExp(
    `^(/subscriptions/([^/]+)|/providers/${namespace}\\.Management/managementGroups/([^/]+))/providers/${namespace}\\.Authorization/policySetDefinitions/([^/]+)/versions/([^/]+)$`,
    'i',
  );

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const requestId = `local-${++counter}`;
      const send = (status: number, text: string, headers: http.OutgoingHttpHeaders = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'x-ms-request-id': requestId, ...headers });
        res.end(text);
      };

      if (url.pathname.startsWith('/_local/')) return admin(req.method ?? 'GET', url.pathname, body, send);

      const record: RecordedRequest = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body, at: Date.now() };
      requests.push(record);
      const done = (outcome: string) => {
        record.outcome = outcome;
        log(`${record.method} ${record.path} -> ${outcome}`);
      };

      const fault = faults.find((f) => !f.method || f.method.toUpperCase() === req.method);
      if (fault) {
        if (fault.count !== undefined && --fault.count <= 0) faults.splice(faults.indexOf(fault), 1);
        done(`fault ${fault.mode}`);
        switch (fault.mode) {
          case '429':
            return send(429, errorBody('TooManyRequests', 'Too many requests; retry later.'), { 'Retry-After': String(fault.retryAfter ?? 1) });
          case '500':
            return send(500, errorBody('InternalServerError', 'The local service failed on purpose.'));
          case '502html':
            return send(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'Content-Type': 'text/html' });
          case 'malformed':
            return send(200, '{"properties": {"displayName": "cut off", "policyDefinitions": [');
          case 'drop':
            return req.socket.destroy();
          case 'hang':
            return; // never answers; close() ends the connection
          case 'echo':
            return send(400, errorBody('BadToken', `Rejected header '${req.headers.authorization ?? ''}'.`, req.headers.authorization));
        }
      }

      const auth = req.headers.authorization ?? '';
      const token = /^Bearer (\S+)$/.exec(auth)?.[1];
      if (!token || (options.token !== undefined && token !== options.token)) {
        done('401');
        return send(401, errorBody('AuthenticationFailed', token ? 'The access token is not valid.' : 'Authentication failed: the Authorization header is missing or not a bearer token.'), {
          'WWW-Authenticate': 'Bearer',
        });
      }
      const apiVersion = url.searchParams.get('api-version');
      if (apiVersion !== API_VERSION) {
        done('400 api-version');
        return send(400, errorBody(apiVersion ? 'InvalidApiVersionParameter' : 'MissingApiVersionParameter', `The api-version '${apiVersion ?? ''}' is not supported; use '${API_VERSION}'.`, 'api-version'));
      }

      let match = builtIn.exec(url.pathname);
      if (match && req.method === 'GET') {
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
      if (match && req.method === 'PUT') {
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
          return send(400, errorBody('InvalidRequestContent', "The request content has no 'properties.policyDefinitions' array.", 'properties.policyDefinitions'));
        }
        if (properties.version !== undefined && properties.version !== versionName) {
          done('400 version');
          return send(400, errorBody('InvalidPolicySetDefinitionVersion', `properties.version '${String(properties.version)}' does not match the version name '${versionName}'.`, 'properties.version'));
        }
        const id = `${scope}/providers/${namespace}.Authorization/policySetDefinitions/${name}/versions/${versionName}`;
        const existed = versions.has(id.toLowerCase());
        const now = new Date().toISOString();
        const resource = {
          id,
          name: versionName,
          type: `${namespace}.Authorization/policySetDefinitions/versions`,
          properties: { ...properties, policyType: 'Custom', version: versionName },
          systemData: { createdBy: 'local-user', createdByType: 'User', createdAt: now, lastModifiedBy: 'local-user', lastModifiedByType: 'User', lastModifiedAt: now },
        };
        versions.set(id.toLowerCase(), resource);
        done(existed ? '200' : '201');
        return send(existed ? 200 : 201, JSON.stringify(resource));
      }

      done('404 path');
      return send(404, errorBody('NotFound', `No operation ${req.method} ${url.pathname} on this service.`));
    });
  });

  const admin = (method: string, pathname: string, body: string, send: (status: number, text: string) => void) => {
    if (pathname === '/_local/requests' && method === 'GET') return send(200, JSON.stringify(requests));
    if (pathname === '/_local/requests' && method === 'DELETE') {
      requests.length = 0;
      return send(204, '');
    }
    if (pathname === '/_local/faults' && method === 'DELETE') {
      faults.length = 0;
      return send(204, '');
    }
    if (pathname === '/_local/faults' && method === 'POST') {
      try {
        const fault = JSON.parse(body) as Fault;
        if (!FAULT_MODES.includes(fault.mode)) throw new Error(`mode must be one of ${FAULT_MODES.join(', ')}`);
        faults.push(fault);
        return send(201, JSON.stringify(fault));
      } catch (error) {
        return send(400, errorBody('InvalidFault', (error as Error).message));
      }
    }
    return send(404, errorBody('NotFound', 'Unknown admin endpoint.'));
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    faults,
    versions,
    source: { kind: store.kind, count: store.count },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parses `--fault 429:2` (mode, then Retry-After or nothing) and `--fault 500x3` (count). */
export function parseFault(text: string): Fault {
  const match = /^([a-z0-9]+)(?::(\d+))?(?:x(\d+))?(?:@(GET|PUT))?$/i.exec(text.trim());
  if (!match || !FAULT_MODES.includes(match[1] as FaultMode)) throw new Error(`--fault takes <mode>[:retryAfter][x<count>][@GET|@PUT] with mode ${FAULT_MODES.join(', ')}; not '${text}'`);
  return { mode: match[1] as FaultMode, retryAfter: match[2] ? Number(match[2]) : undefined, count: match[3] ? Number(match[3]) : undefined, method: match[4]?.toUpperCase() };
}

import * as http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { LARGEST_CORPUS } from '../support/corpus';
import { errorBody, isItemsPath, itemsErrorBody, type Route } from './routes';
import { advisorMetadataRoute } from './advisorMetadata';
import { EventstreamStore, eventstreamRoute, type StoredItem } from './eventstreams';
import { BuiltInStore, policySetRoute } from './policySets';
import { QuotaStore, modelDeploymentRoute, type QuotaSeed } from './modelDeployments';

/**
 * A local stand-in for the service, for tests and demos, over HTTP on 127.0.0.1, with switchable faults and
 * a record of every request. Each interface is a route of its own (see ./routes.ts): E1 and E2 in
 * ./policySets.ts, E3 in ./advisorMetadata.ts, E4 and E5 in ./eventstreams.ts. Faults and the token check apply
 * to every route (on the items API, /v1/..., with the items ErrorResponse shape). Admin endpoints (no token needed, loopback only):
 *   POST   /_local/faults     body {"mode": "429"|"429bare"|"500"|"502html"|"malformed"|"drop"|"hang"|"echo", "count"?: n, "retryAfter"?: s,
 *                            "method"?: "GET"|"PUT"|"DELETE", "path"?: "<prefix>"}
 *   POST   /_local/eventstreams  body an eventstream ({ id, workspaceId, ... }): adds or replaces it in the store
 *   DELETE /_local/faults     clears them
 *   GET    /_local/requests   what was received (method, path, query, headers, body)
 *   DELETE /_local/requests   forgets them
 *   POST   /_local/quota      body QuotaSeed (./modelDeployments.ts): accounts, quota limits, deployments (E6/E7)
 *   DELETE /_local/quota      forgets them
 */

/** 'echo' answers 400 with the request's Authorization header in the error message: a careless service, for leak tests. */
/** '429bare' is a 429 without Retry-After (the items API sends those too). */
export type FaultMode = '429' | '429bare' | '500' | '502html' | 'malformed' | 'drop' | 'hang' | 'echo';
export const FAULT_MODES: FaultMode[] = ['429', '429bare', '500', '502html', 'malformed', 'drop', 'hang', 'echo'];

export interface Fault {
  mode: FaultMode;
  /** How many matching requests it applies to (default: all until cleared). */
  count?: number;
  /** Seconds in Retry-After for 429 (default 1). */
  retryAfter?: number;
  /** Only requests with this method. */
  method?: string;
  /** Only requests whose path starts with this (`/v1/`: the items API). */
  path?: string;
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
  /**
   * The corpus whose public-cloud sets are served beside the seed's: by default the full corpus when it is
   * there (POLICYSET_CORPUS, or ../shared/corpus), else the subset in the repository (test/fixtures/corpus).
   */
  corpusDir?: string;
  /** Only this bearer token is accepted (default: any non-empty one). */
  token?: string;
  faults?: Fault[];
  /** The in-memory subscription of E6/E7. */
  quota?: QuotaSeed;
  log?: (line: string) => void;
}

export interface LocalService {
  url: string;
  port: number;
  requests: RecordedRequest[];
  faults: Fault[];
  /** Where the built-in sets come from ('corpus': a corpus and the seed; 'seed': the seed alone), how many, and the corpus folder. */
  source: { kind: 'corpus' | 'seed'; count: number; corpusCount: number; corpusDir: string };
  versions: Map<string, unknown>;
  /** E4/E5's eventstreams (two workspaces). */
  eventstreams: EventstreamStore;
  /** E6/E7's in-memory subscription: accounts, deployments, limits. */
  quota: QuotaStore;
  close(): Promise<void>;
}

export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const namespace = options.providerNamespace ?? 'Provider';
  const store = new BuiltInStore(options.corpusDir ?? LARGEST_CORPUS.dir);
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [...(options.faults ?? [])];
  const versions = new Map<string, unknown>();
  const log = options.log ?? (() => undefined);
  let counter = 0;

  // One route per interface; each answers its own paths.
  const eventstreams = new EventstreamStore();
  const quota = new QuotaStore(options.quota);
  const routes: Route[] = [
    policySetRoute({ namespace, store, versions }),
    advisorMetadataRoute({ namespace }),
    eventstreamRoute({ store: eventstreams }),
    modelDeploymentRoute({ namespace, store: quota }),
  ];

  const server = http.createServer((req, res) => {
    // Calls from a web page (the extension in VS Code for the Web, over fetch) are allowed: every answer says so,
    // and a CORS preflight is answered here, not recorded as a request of the client's.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', '*');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, PUT, DELETE',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      // The items API's request ids are UUIDs (spec C, ErrorResponse.requestId).
      const requestId = isItemsPath(url.pathname) ? randomUUID() : `local-${++counter}`;
      const send = (status: number, text: string, headers: http.OutgoingHttpHeaders = {}): true => {
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'x-ms-request-id': requestId, ...headers });
        res.end(text);
        return true;
      };

      if (url.pathname.startsWith('/_local/')) return admin(req.method ?? 'GET', url.pathname, body, send);

      const record: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        at: Date.now(),
      };
      requests.push(record);
      const done = (outcome: string) => {
        record.outcome = outcome;
        log(`${record.method} ${record.path} -> ${outcome}`);
      };

      const items = isItemsPath(url.pathname);
      // Each interface answers in its own error shape.
      const failure = (code: string, message: string, target?: string) =>
        items ? itemsErrorBody(code, message, requestId) : errorBody(code, message, target);
      const fault = faults.find(
        (f) => (!f.method || f.method.toUpperCase() === req.method) && (!f.path || url.pathname.startsWith(f.path)),
      );
      if (fault) {
        if (fault.count !== undefined && --fault.count <= 0) faults.splice(faults.indexOf(fault), 1);
        done(`fault ${fault.mode}`);
        switch (fault.mode) {
          case '429':
            return send(429, failure(items ? 'RequestBlocked' : 'TooManyRequests', 'Too many requests; retry later.'), {
              'Retry-After': String(fault.retryAfter ?? 1),
            });
          case '429bare':
            return send(429, failure(items ? 'RequestBlocked' : 'TooManyRequests', 'Too many requests; retry later.'));
          case '500':
            return send(500, failure('InternalServerError', 'The local service failed on purpose.'));
          case '502html':
            return send(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'Content-Type': 'text/html' });
          case 'malformed':
            return send(200, '{"properties": {"displayName": "cut off", "policyDefinitions": [');
          case 'drop':
            return req.socket.destroy();
          case 'hang':
            return; // never answers; close() ends the connection
          case 'echo':
            return send(400, failure('BadToken', `Rejected header '${req.headers.authorization ?? ''}'.`, req.headers.authorization));
        }
      }

      const auth = req.headers.authorization ?? '';
      const token = /^Bearer (\S+)$/.exec(auth)?.[1];
      if (!token || (options.token !== undefined && token !== options.token)) {
        done('401');
        return send(
          401,
          failure(
            items ? 'Unauthorized' : 'AuthenticationFailed',
            token ? 'The access token is not valid.' : 'Authentication failed: the Authorization header is missing or not a bearer token.',
          ),
          {
            'WWW-Authenticate': 'Bearer',
          },
        );
      }
      const context = { method: req.method ?? '', url, body, req, send, done };
      for (const route of routes) if (route(context)) return;

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
    if (pathname === '/_local/eventstreams' && method === 'POST') {
      try {
        const item = JSON.parse(body) as StoredItem;
        if (typeof item?.id !== 'string' || typeof item.workspaceId !== 'string')
          throw new Error('an eventstream needs string id and workspaceId');
        eventstreams.put(item);
        return send(201, JSON.stringify(item));
      } catch (error) {
        return send(400, errorBody('InvalidItem', (error as Error).message));
      }
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
    if (pathname === '/_local/quota' && method === 'DELETE') {
      quota.reset();
      return send(204, '');
    }
    if (pathname === '/_local/quota' && method === 'POST') {
      try {
        quota.apply(JSON.parse(body) as QuotaSeed);
        return send(201, body);
      } catch (error) {
        return send(400, errorBody('InvalidQuotaSeed', (error as Error).message));
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
    eventstreams,
    quota,
    source: { kind: store.kind, count: store.count, corpusCount: store.corpusCount, corpusDir: options.corpusDir ?? LARGEST_CORPUS.dir },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parses `--fault 429:2` (mode, then Retry-After or nothing) and `--fault 500x3` (count). */
export function parseFault(text: string): Fault {
  const match = /^([a-z0-9]+)(?::(\d+))?(?:x(\d+))?(?:@(GET|PUT|DELETE))?$/i.exec(text.trim());
  if (!match || !FAULT_MODES.includes(match[1] as FaultMode))
    throw new Error(`--fault takes <mode>[:retryAfter][x<count>][@GET|@PUT|@DELETE] with mode ${FAULT_MODES.join(', ')}; not '${text}'`);
  return {
    mode: match[1] as FaultMode,
    retryAfter: match[2] ? Number(match[2]) : undefined,
    count: match[3] ? Number(match[3]) : undefined,
    method: match[4]?.toUpperCase(),
  };
}

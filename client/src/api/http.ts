import * as http from 'node:http';
import * as https from 'node:https';
import {
  ApiError,
  AuthenticationRequiredError,
  CancelledError,
  InvalidRequestError,
  NetworkError,
  ProvisioningFailedError,
  ServiceError,
  TimeoutError,
  excerptOf,
  safeText,
  serviceErrorOf,
  type ServiceArea,
} from './errors';

/**
 * The HTTP client under every call. Built on node:http/https rather than fetch: in the VS Code extension host
 * those modules carry the editor's proxy and certificate settings (fetch does not in the VS Code versions we
 * support), they need no dependency, and their errors keep the system code (ECONNRESET, ECONNREFUSED) that
 * decides whether a PUT may be retried.
 */

/** Gives the bearer token for a call; undefined or '' means "not signed in", and nothing is sent. */
export type TokenProvider = (signal: AbortSignal) => Promise<string | undefined>;

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface HttpClientOptions {
  baseUrl: string;
  token: TokenProvider;
  /** Time limit of one call, retries and waits included (default 60 s). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff step when the service gives no Retry-After (default 1 s; doubles, with jitter). */
  backoffMs?: number;
  /** Longest single wait, even when Retry-After asks for more (default 30 s). */
  maxDelayMs?: number;
  /** Largest answer accepted (default 64 MB). */
  maxResponseBytes?: number;
  userAgent?: string;
  /** Told before each wait; for progress reports. */
  onRetry?: (info: RetryInfo) => void;
  /** How a wait is made (tests inject one that records and returns at once); rejects when the signal aborts. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How one attempt goes over the wire: Node's http/https when not given (see setDefaultTransport, fetchTransport.ts). */
  transport?: HttpTransport;
}

/** One attempt of a call, as a transport sends it; headers as given (Authorization included: never logged). */
export interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  payload?: string;
  signal: AbortSignal;
  maxBytes: number;
  /** `<METHOD> <path>`, for messages. */
  what: string;
}

/**
 * A second way to send an attempt (the browser's fetch, fetchTransport.ts). It resolves with the answer, whatever
 * its status, and rejects with a NetworkError (whose `maybeDelivered` says whether a PUT may be sent again).
 */
export type HttpTransport = (request: TransportRequest) => Promise<RawResponse>;

let defaultTransport: HttpTransport | undefined;
/** The transport of every client not given one: the web extension sets fetch here; the desktop and the CLI keep Node's. */
export function setDefaultTransport(transport: HttpTransport | undefined): void {
  defaultTransport = transport;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Largest answer this call accepts (default: the client's maxResponseBytes); a listing passes what is left of its budget. */
  maxResponseBytes?: number;
  onRetry?: (info: RetryInfo) => void;
}

export interface HttpRequest {
  method: 'GET' | 'PUT' | 'DELETE';
  /** Path below the base URL, already encoded. */
  path: string;
  /**
   * An absolute address to use instead of base URL + path (a page's nextLink); its query is kept, and
   * api-version is added only when it has none. The caller checks where it points.
   */
  url?: string;
  apiVersion: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  area: ServiceArea;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  requestId?: string;
  /** Size of the answer's body in bytes, as received. */
  bytes?: number;
  /**
   * A PUT or DELETE the service accepted (2xx) whose body could not be read (not JSON): an excerpt of it.
   * The write was done; `body` is undefined.
   */
  unreadableBody?: string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: number;
}

const RETRYABLE_NETWORK = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

export class HttpClient {
  private readonly baseUrl: string;
  constructor(private readonly options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /**
   * The one address a request is sent to, query included: what a confirmation shows is this string, and
   * send() sends to exactly it. A path that URL parsing would change ('.' or '..' segments, even encoded
   * as %2e) is refused here, so nothing is ever sent elsewhere than shown.
   */
  urlOf(request: Pick<HttpRequest, 'path' | 'url' | 'apiVersion' | 'query'>): string {
    const url = new URL(request.url ?? this.baseUrl + request.path);
    if (request.url === undefined) {
      const expected = new URL(this.baseUrl + '/').pathname.replace(/\/$/, '') + request.path.replace(/[?#].*$/s, '');
      if (url.pathname !== expected)
        throw new InvalidRequestError(`'${request.path}' would not reach the address it names (a '.' or '..' segment): nothing was sent`);
    }
    // The items API carries its version in the path (/v1): an empty apiVersion sends none.
    if (request.apiVersion && (!request.url || !url.searchParams.has('api-version')))
      url.searchParams.set('api-version', request.apiVersion);
    for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    return url.toString();
  }

  async send<T = unknown>(request: HttpRequest, call: CallOptions = {}): Promise<HttpResponse<T>> {
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const maxRetries = this.options.maxRetries ?? 3;
    const backoffMs = this.options.backoffMs ?? 1000;
    const maxDelayMs = this.options.maxDelayMs ?? 30_000;
    const onRetry = call.onRetry ?? this.options.onRetry;
    const wait = this.options.wait ?? sleep;
    const url = new URL(this.urlOf(request));
    const what = `${request.method} ${url.pathname}`;
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);

    // The first token before the clock starts: an interactive sign-in is not the service's time.
    const getToken = async (signal: AbortSignal | undefined, stopped: () => ApiError): Promise<string> => {
      let token: string | undefined;
      try {
        token = await this.options.token(signal ?? new AbortController().signal);
      } catch (error) {
        if (signal?.aborted) throw stopped();
        if (error instanceof ApiError) throw error;
        throw new AuthenticationRequiredError(`Could not get a token: ${(error as Error).message ?? String(error)}`);
      }
      if (signal?.aborted) throw stopped();
      if (!token) throw new AuthenticationRequiredError('Not signed in: no token, so nothing was sent');
      // A header cannot carry a line break or other control characters: say so, instead of Node's "Invalid character in header content".
      if (/[^\x20-\x7e]/.test(token))
        throw new AuthenticationRequiredError(
          'The token holds a line break or another character an HTTP header cannot carry, so nothing was sent',
        );
      return token;
    };
    if (call.signal?.aborted) throw new CancelledError(`Cancelled (${what})`);
    const firstToken = await getToken(call.signal, () => new CancelledError(`Cancelled (${what})`));

    // One signal for the caller's cancellation and the time limit.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort();
    if (call.signal?.aborted) controller.abort();
    call.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const stopped = (): ApiError =>
      timedOut
        ? new TimeoutError(`No answer from the service within ${formatSeconds(timeoutMs)} (${what})`)
        : new CancelledError(`Cancelled (${what})`);
    const deadline = Date.now() + timeoutMs;

    // The statuses answered to earlier attempts of this call (0: no answer), kept on a final ServiceError.
    const earlier: number[] = [];
    try {
      for (let attempt = 0; ; attempt++) {
        if (controller.signal.aborted) throw stopped();
        // A retry asks again: the provider may have refreshed the token meanwhile.
        const token = attempt === 0 ? firstToken : await getToken(controller.signal, stopped);
        const secrets = [token];

        let raw: RawResponse;
        try {
          raw = await this.attempt(url, request.method, token, payload, controller.signal, call.maxResponseBytes);
        } catch (error) {
          if (controller.signal.aborted) throw stopped();
          const network = error as NetworkError;
          // A PUT is sent again only when it certainly did not arrive.
          const retryable =
            network instanceof NetworkError &&
            (request.method === 'GET' || !network.maybeDelivered) &&
            RETRYABLE_NETWORK.has(network.code ?? '');
          const delay = backoff(attempt, backoffMs, maxDelayMs);
          if (!retryable || attempt >= maxRetries || Date.now() + delay >= deadline) throw error;
          onRetry?.({ attempt: attempt + 1, delayMs: delay, reason: network.message });
          earlier.push(0);
          await wait(delay, controller.signal).catch(() => {
            throw stopped();
          });
          continue;
        }

        if (raw.status >= 200 && raw.status < 300) {
          let body: unknown = undefined;
          if (raw.body.trim()) {
            try {
              body = JSON.parse(raw.body);
            } catch {
              // A write the service accepted is done, whatever its body: reporting a failure would invite a repeat.
              if (request.method !== 'GET')
                return {
                  status: raw.status,
                  headers: raw.headers,
                  body: undefined as T,
                  requestId: requestIdOf(raw.headers),
                  bytes: raw.bytes,
                  unreadableBody: excerptOf(raw.body, secrets),
                };
              throw new ServiceError(
                `The service answered ${raw.status} to ${what} with a body that is not JSON: "${excerptOf(raw.body, secrets)}"`,
                raw.status,
                'InvalidResponse',
                '',
                'unexpected',
                undefined,
                [],
                requestIdOf(raw.headers),
                undefined,
                excerptOf(raw.body, secrets),
              );
            }
          }
          // One reading of a write's outcome for every PUT: a 2xx whose resource says it failed is no success.
          if (request.method === 'PUT') checkWriteOutcome(body, raw.status, what, requestIdOf(raw.headers));
          return { status: raw.status, headers: raw.headers, body: body as T, requestId: requestIdOf(raw.headers), bytes: raw.bytes };
        }

        const error = serviceErrorOf({
          status: raw.status,
          headers: raw.headers,
          body: raw.body,
          request: what,
          area: request.area,
          secrets,
        });
        error.earlierStatuses = [...earlier];
        // 429 and 503 mean "not processed", so even a PUT or a DELETE may go again; other 5xx only for reads.
        const retryable = raw.status === 429 || raw.status === 503 || (request.method === 'GET' && raw.status >= 500 && raw.status <= 599);
        if (!retryable || attempt >= maxRetries) throw error;
        const asked = error.retryAfterSeconds;
        const delay = asked !== undefined ? asked * 1000 : backoff(attempt, backoffMs, maxDelayMs);
        if (delay > maxDelayMs || Date.now() + delay >= deadline) {
          const left = Math.max(0, deadline - Date.now());
          throw Object.assign(
            new ServiceError(
              `${error.message}; not retried: a wait of ${formatSeconds(delay)} does not fit in the ${formatSeconds(left)} left`,
              error.status,
              error.code,
              error.serviceMessage,
              error.shape,
              error.target,
              error.details,
              error.requestId,
              error.retryAfterSeconds,
              error.excerpt,
            ),
            { earlierStatuses: error.earlierStatuses },
          );
        }
        onRetry?.({ attempt: attempt + 1, delayMs: delay, reason: `${raw.status} ${error.code}` });
        earlier.push(raw.status);
        await wait(delay, controller.signal).catch(() => {
          throw stopped();
        });
      }
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  private attempt(
    url: URL,
    method: string,
    token: string,
    payload: string | undefined,
    signal: AbortSignal,
    callMaxBytes?: number,
  ): Promise<RawResponse> {
    const maxBytes = callMaxBytes ?? this.options.maxResponseBytes ?? 64 * 1024 * 1024;
    const given = this.options.transport ?? defaultTransport;
    if (given) {
      const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
      // A browser sets its own User-Agent; a custom header would only add a CORS preflight requirement.
      if (payload !== undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
      return given({ url, method, headers, payload, signal, maxBytes, what: `${method} ${url.pathname}` });
    }
    const headers: http.OutgoingHttpHeaders = {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      'User-Agent': this.options.userAgent ?? 'policy-set-tools',
    };
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
      headers['Content-Length'] = Buffer.byteLength(payload);
    }
    const transport = url.protocol === 'https:' ? https : http;
    const what = `${method} ${url.pathname}`;
    return new Promise<RawResponse>((resolve, reject) => {
      let delivered = false;
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      const req = transport.request(url, { method, headers, signal }, (res) => {
        delivered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy();
            fail(new NetworkError(`The answer to ${what} is larger than ${formatMegabytes(maxBytes)}; not read`, 'ETOOLARGE', true));
            return;
          }
          chunks.push(chunk);
        });
        res.on('aborted', () =>
          fail(new NetworkError(`The connection was dropped while the answer to ${what} was read`, 'ECONNRESET', true)),
        );
        res.on('error', (error: NodeJS.ErrnoException) => fail(networkError(error, what, true)));
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) {
            fail(new NetworkError(`The connection was dropped while the answer to ${what} was read`, 'ECONNRESET', true));
            return;
          }
          settled = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), bytes: size });
        });
      });
      // 101 Switching Protocols is no answer to a REST call: without this the request would never settle.
      req.on('upgrade', (res: http.IncomingMessage, socket: import('node:net').Socket) => {
        socket.destroy();
        fail(
          new NetworkError(
            `The service answered ${res.statusCode ?? 101} Switching Protocols to ${what}, which is no answer to it; whether it was applied is not known`,
            'EPROTO',
            true,
          ),
        );
      });
      req.on('finish', () => (delivered = true));
      req.on('error', (error: NodeJS.ErrnoException) => fail(networkError(error, what, delivered || error.code !== 'ECONNREFUSED')));
      req.end(payload);
    });
  }
}

/** The provisioning states of a resource that failed: its PUT was answered 2xx, and did not do what it asked. */
const FAILED_STATES = /^(failed|canceled|cancelled)$/i;

/**
 * What a PUT's 2xx answer says of the write: a resource whose `properties.provisioningState` is Failed or
 * Canceled was not made as asked, so the call fails with a ProvisioningFailedError (never reported as
 * success, and never sent again by itself).
 */
export function checkWriteOutcome(body: unknown, status: number, what: string, requestId: string | undefined): void {
  const properties = typeof body === 'object' && body !== null ? (body as { properties?: unknown }).properties : undefined;
  const state =
    typeof properties === 'object' && properties !== null ? (properties as { provisioningState?: unknown }).provisioningState : undefined;
  if (typeof state !== 'string' || !FAILED_STATES.test(state)) return;
  throw new ProvisioningFailedError(
    `The service answered ${status} to ${what}, and the resource's provisioningState is '${safeText(state, { max: 100 })}': the write did not succeed`,
    status,
    `Provisioning${state[0].toUpperCase()}${state.slice(1).toLowerCase()}`,
    '',
    'unexpected',
    undefined,
    [],
    requestId,
  );
}

function networkError(error: NodeJS.ErrnoException, what: string, maybeDelivered: boolean): NetworkError {
  const code = error.code;
  const reason =
    code === 'ECONNREFUSED'
      ? 'the connection was refused (is the service running at this address?)'
      : code === 'ECONNRESET' || error.message === 'socket hang up'
        ? 'the connection was dropped before the answer was complete'
        : code === 'ENOTFOUND'
          ? 'the host name was not found'
          : code === 'ABORT_ERR'
            ? 'aborted'
            : error.message;
  return new NetworkError(`${what} failed: ${reason}`, code, maybeDelivered);
}

function requestIdOf(headers: http.IncomingHttpHeaders): string | undefined {
  for (const name of ['x-ms-request-id', 'x-ms-correlation-request-id', 'request-id', 'x-request-id']) {
    const value = headers[name];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/** Exponential backoff with full jitter in its upper half: 1, 2, 4 ... seconds, capped. */
export function backoff(attempt: number, baseMs: number, maxMs: number): number {
  const step = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(step / 2 + Math.random() * (step / 2));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function formatMegabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

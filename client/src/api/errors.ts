/** Everything the api layer throws is an ApiError; its message never holds a token. */
export class ApiError extends Error {
  override name = 'ApiError';
}

/** The call was cancelled by its caller. */
export class CancelledError extends ApiError {
  override name = 'CancelledError';
}

/** No answer within the call's time limit (retries included). */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
}

/** The connection failed or was dropped before a complete answer arrived. */
export class NetworkError extends ApiError {
  override name = 'NetworkError';
  constructor(
    message: string,
    /** The system error code (ECONNRESET, ECONNREFUSED, ...), when there is one. */
    readonly code: string | undefined,
    /** True when the request may have reached the service (its body was sent). */
    readonly maybeDelivered: boolean,
  ) {
    super(message);
  }
}

/** No token to send: nothing was sent. */
export class AuthenticationRequiredError extends ApiError {
  override name = 'AuthenticationRequiredError';
}

/** An argument the service would refuse (a name outside the pattern, say): nothing was sent. */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
}

export interface ErrorDetail {
  code?: string;
  message?: string;
  target?: string;
  details?: ErrorDetail[];
  additionalInfo?: Array<{ type?: string; info?: unknown }>;
  relatedResource?: { resourceId?: string; resourceType?: string };
}

/** Which of the spec's error bodies the answer had ("unexpected" when none: not JSON, or another shape). */
export type ErrorShape = 'policy' | 'metadata' | 'eventstream' | 'unexpected';
export type ServiceArea = 'policy' | 'metadata' | 'eventstream';

/** An answer from the service that is not a success, or a success whose body is not what the spec says. */
export class ServiceError extends ApiError {
  override name = 'ServiceError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly serviceMessage: string,
    readonly shape: ErrorShape,
    readonly target?: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId?: string,
    /** Seconds the service asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
    /** A short excerpt of a body that could not be understood. */
    readonly excerpt?: string,
  ) {
    super(message);
  }
  /**
   * What the service answered to the earlier attempts of the same call, which were retried (429, 503 ...;
   * 0 for no answer). A DELETE answered ItemNotFound after a 429 was deleted meanwhile: see eventstreams.ts.
   */
  earlierStatuses: number[] = [];
}

/** A PUT answered 2xx whose resource says its provisioning failed (or was canceled): not applied as asked. */
export class ProvisioningFailedError extends ServiceError {
  override name = 'ProvisioningFailedError';
}

const EXCERPT_CHARS = 200;
/** The longest service message shown whole; a longer one is cut, with a note. */
export const MAX_MESSAGE_CHARS = 2000;

/**
 * C0 and C1 control characters and DEL: what a terminal takes as commands (escape sequences, CR, BEL); and
 * the line and paragraph separators and bidirectional overrides, which move or reorder what is shown.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escapeControl = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * The one sanitiser of everything printed that came from a file or a service (file names, names inside
 * documents, config keys, service answers). Text from the service made safe for a terminal: control characters (C0 and C1) are written as \uXXXX
 * (newlines and tabs too, unless `multiline`), and text longer than `max` characters is cut with a note
 * saying how much was left out. The \uXXXX form is also a valid JSON escape, so it keeps JSON valid.
 */
export function safeText(text: string, options: { multiline?: boolean; max?: number } = {}): string {
  const max = options.max ?? MAX_MESSAGE_CHARS;
  const cut = text.length > max ? text.slice(0, max) : text;
  const safe = cut.replace(options.multiline ? CONTROLS_BUT_LINES : CONTROLS, escapeControl);
  return text.length > max ? `${safe}… (${text.length - max} more characters not shown)` : safe;
}

/** Control characters (C0 but newline and tab, C1, DEL) escaped as \uXXXX: for whole outputs, JSON included. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, escapeControl);
}
const REQUEST_ID_HEADERS = ['x-ms-request-id', 'x-ms-correlation-request-id', 'request-id', 'x-request-id'];

const secretPatterns = new Map<string, RegExp>();

/** UTF-8 bytes of a string, in a browser too. */
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63] + BASE64[(n >> 6) & 63] + BASE64[n & 63];
  }
  return out;
}

/**
 * The secret as it shows inside any base64 or base64url text (`Bearer <token>` encoded, a token in an
 * encoded blob): at each of the three byte alignments, the characters that depend on the secret's bytes
 * alone (at most two bytes at each end are left out, never the token). Only forms of 8 characters or more.
 */
function base64Forms(secret: string): string[] {
  const bytes = utf8(secret);
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    // The secret starting `shift` bytes before a 3-byte boundary: skip to the first whole group of its own bytes.
    const skip = (3 - shift) % 3;
    const core = base64(bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3));
    if (core.length >= 8) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** The forms a secret comes back in: as sent, URL-encoded (a query, a link), base64 and base64url, in any letter case. */
function secretPattern(secret: string): RegExp {
  let pattern = secretPatterns.get(secret);
  if (!pattern) {
    const forms = [
      ...new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), ...base64Forms(secret)]),
    ].sort((a, b) => b.length - a.length);
    pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
    if (secretPatterns.size > 64) secretPatterns.clear();
    secretPatterns.set(secret, pattern);
  }
  return pattern;
}

/**
 * The one redaction of everything printed or logged: every occurrence of each secret (the token, so
 * `Bearer <token>` too), in any letter case, URL-encoded and base64- or base64url-encoded, becomes [redacted]. The service may echo what
 * it was sent, in an error or in a successful answer.
 */
export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let result = text;
  for (const secret of secrets) if (secret && secret.length >= 4) result = result.replace(secretPattern(secret), '[redacted]');
  return result;
}

export function excerptOf(body: string, secrets: Array<string | undefined> = []): string {
  const flat = redact(body, secrets)
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function detailOf(value: unknown, depth = 0): ErrorDetail | undefined {
  if (!isObject(value) || depth > 8) return undefined;
  const details = Array.isArray(value.details) ? value.details : Array.isArray(value.moreDetails) ? value.moreDetails : [];
  const related = isObject(value.relatedResource)
    ? { resourceId: str(value.relatedResource.resourceId), resourceType: str(value.relatedResource.resourceType) }
    : undefined;
  return {
    code: str(value.code) ?? str(value.errorCode),
    message: str(value.message),
    target: str(value.target),
    details: details.map((d) => detailOf(d, depth + 1)).filter((d): d is ErrorDetail => !!d),
    additionalInfo: Array.isArray(value.additionalInfo)
      ? value.additionalInfo.filter(isObject).map((i) => ({ type: str(i.type), info: i.info }))
      : undefined,
    relatedResource: related,
  };
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** An HTTP date (RFC 9110 5.6.7): IMF-fixdate, or the obsolete RFC 850 and asctime forms; all start with a day name. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? +\S/;

/**
 * Retry-After in seconds: whole seconds as the spec says, or an HTTP date; anything else (a negative or
 * fractional number, a bare year) is undefined, and the caller backs off as if none were given.
 */
export function retryAfterSeconds(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | undefined {
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (!HTTP_DATE.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

export interface ResponseFacts {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** What was asked, for the message: `GET /providers/...` without the query. */
  request: string;
  area: ServiceArea;
  secrets: Array<string | undefined>;
}

/** Turns a non-success answer into a ServiceError, whatever its body holds. */
export function serviceErrorOf(facts: ResponseFacts): ServiceError {
  const { status, headers, body, request, area, secrets } = facts;
  const headerRequestId = REQUEST_ID_HEADERS.map((h) => headerValue(headers, h)).find((v) => !!v);
  const retryAfter = retryAfterSeconds(headers);
  let json: unknown;
  let parsed = false;
  try {
    json = JSON.parse(body);
    parsed = true;
  } catch {
    // handled below
  }
  let shape: ErrorShape = 'unexpected';
  let detail: ErrorDetail | undefined;
  let requestId = headerRequestId;
  if (parsed && isObject(json)) {
    if (isObject(json.error) && (typeof json.error.code === 'string' || typeof json.error.message === 'string')) {
      // The policy and metadata bodies share `error.code`/`error.message`; the policy one adds target, details, additionalInfo.
      const error = json.error;
      shape = area === 'metadata' ? 'metadata' : 'policy';
      detail = detailOf(error);
    } else if (typeof json.errorCode === 'string') {
      shape = 'eventstream';
      detail = detailOf(json);
      requestId = str(json.requestId) ?? requestId;
    }
  }
  const safe = (text: string | undefined) => (text === undefined ? undefined : safeText(redact(text, secrets)));
  if (!detail) {
    const excerpt = excerptOf(body, secrets);
    const what = !body.trim()
      ? 'an empty body'
      : !parsed
        ? `a body that is not JSON: "${excerpt}"`
        : `JSON that is not an error response: "${excerpt}"`;
    return new ServiceError(
      `The service answered ${status}${statusText(status)} to ${request} with ${what}${requestId ? ` (request id ${requestId})` : ''}`,
      status,
      'UnexpectedResponse',
      '',
      'unexpected',
      undefined,
      [],
      requestId,
      retryAfter,
      excerpt,
    );
  }
  const code = safe(detail.code) ?? `Http${status}`;
  const serviceMessage = safe(detail.message) ?? '';
  const target = safe(detail.target);
  const details = redactDetails(detail.details ?? [], secrets);
  // The eventstream shape names the resource concerned (relatedResource) and its request id in the body.
  const related = detail.relatedResource;
  const relatedText =
    related && (related.resourceId || related.resourceType)
      ? safe(`related resource ${[related.resourceType, related.resourceId].filter(Boolean).join(' ')}`)
      : '';
  const extras = [target ? `target '${target}'` : '', relatedText ?? '', requestId ? `request id ${requestId}` : '']
    .filter(Boolean)
    .join(', ');
  const detailText = details.length
    ? ` ${details.map((d) => `[${d.code ?? '?'}${d.target ? ` at '${d.target}'` : ''}: ${d.message ?? ''}]`).join(' ')}`
    : '';
  return new ServiceError(
    `${code} (${status}): ${serviceMessage || 'no message'}${detailText}${extras ? ` (${extras})` : ''}`,
    status,
    code,
    serviceMessage,
    shape,
    target,
    details,
    requestId,
    retryAfter,
  );
}

function redactDetails(details: ErrorDetail[], secrets: Array<string | undefined>): ErrorDetail[] {
  return details.map((d) => ({
    ...d,
    code: d.code === undefined ? undefined : safeText(redact(d.code, secrets)),
    message: d.message === undefined ? undefined : safeText(redact(d.message, secrets)),
    target: d.target === undefined ? undefined : safeText(redact(d.target, secrets)),
    details: redactDetails(d.details ?? [], secrets),
  }));
}

function statusText(status: number): string {
  const known: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return known[status] ? ` ${known[status]}` : '';
}

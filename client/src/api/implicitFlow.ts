import * as http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ApiError, CancelledError, TimeoutError } from './errors';

/**
 * OAuth 2.0 implicit flow (spec "Authentication") with a loopback redirect: the caller opens the authorize
 * URL in a browser; the identity provider redirects to http://127.0.0.1:<port>/callback with the token in the
 * URL fragment, which a browser never sends to a server; the small page served there posts the fragment back
 * to /token on the same origin. The `state` sent is checked before the token is accepted.
 */

export interface ImplicitFlowOptions {
  /** `{auth_url}`: the identity provider's authorization address. */
  authUrl: string;
  clientId: string;
  /** E.g. `https://management.example.com/user_impersonation`. */
  scope: string;
  /** Called with the authorize URL; opens it in a browser. */
  openBrowser: (url: string) => void | Promise<void>;
  /** Loopback port: 0 (default) takes any free port; identity providers that match redirect URIs exactly need a fixed one. */
  port?: number;
  /** How long to wait for the browser (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra authorize parameters (prompt, login_hint, ...). */
  extraParameters?: Record<string, string>;
  /** Expiry assumed when the provider sends no expires_in (default 3600 s). */
  defaultLifetimeSeconds?: number;
}

export interface ImplicitFlowToken {
  accessToken: string;
  tokenType: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  scope?: string;
}

export class SignInError extends ApiError {
  override name = 'SignInError';
}

const MAX_POST_BYTES = 16 * 1024;

/** True when a token expires within `marginMs` (default 2 minutes) or has expired. */
export function isExpired(token: { expiresAt: number }, now = Date.now(), marginMs = 120_000): boolean {
  return !(token.expiresAt - marginMs > now);
}

export function buildAuthorizeUrl(options: {
  authUrl: string;
  clientId: string;
  scope: string;
  redirectUri: string;
  state: string;
  extraParameters?: Record<string, string>;
}): string {
  const url = new URL(options.authUrl);
  url.searchParams.set('client_id', options.clientId);
  url.searchParams.set('response_type', 'token');
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('scope', options.scope);
  url.searchParams.set('state', options.state);
  url.searchParams.set('response_mode', 'fragment');
  for (const [key, value] of Object.entries(options.extraParameters ?? {})) url.searchParams.set(key, value);
  return url.toString();
}

const CALLBACK_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Policy Set Tools: sign-in</title></head>
<body><p id="m">Finishing sign-in…</p>
<script>
(function () {
  var fragment = window.location.hash.replace(/^#/, '');
  history.replaceState(null, '', window.location.pathname);
  fetch('/token', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: fragment })
    .then(function (r) { return r.text(); })
    .then(function (t) { document.getElementById('m').textContent = t; })
    .catch(function () { document.getElementById('m').textContent = 'Sign-in failed: the editor did not answer.'; });
})();
</script></body></html>`;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Runs the flow: starts the loopback server, calls openBrowser, waits for the token. */
export async function signInWithImplicitFlow(options: ImplicitFlowOptions): Promise<ImplicitFlowToken> {
  const state = randomBytes(24).toString('base64url');
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new SignInError(`Cannot listen on 127.0.0.1:${options.port ?? 0} for the sign-in redirect: ${error.code ?? error.message}`)),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const redirectUri = `${origin}/callback`;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;

  let finish!: (result: ImplicitFlowToken | Error) => void;
  const outcome = new Promise<ImplicitFlowToken>((resolve, reject) => {
    finish = (result) => (result instanceof Error ? reject(result) : resolve(result));
  });
  // Settled before anyone awaits it when openBrowser fails; the failure is reported from there.
  outcome.catch(() => undefined);
  const timer = setTimeout(() => finish(new TimeoutError(`Sign-in did not finish within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  const onAbort = () => finish(new CancelledError('Sign-in cancelled'));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  server.on('request', (req, res) => {
    const reply = (status: number, text: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      res.end(text);
    };
    // Only pages of this very origin: refuses DNS-rebinding and cross-site posts.
    if (req.headers.host !== `127.0.0.1:${port}`) return reply(400, 'Wrong host.');
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/callback') return reply(200, CALLBACK_PAGE, 'text/html; charset=utf-8');
    if (req.method !== 'POST' || path !== '/token') return reply(404, 'Not found.');
    if (req.headers.origin !== undefined && req.headers.origin !== origin) return reply(403, 'Wrong origin.');
    let body = '';
    let tooLarge = false;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_POST_BYTES) {
        tooLarge = true;
        req.destroy();
      }
    });
    req.on('end', () => {
      if (tooLarge) return;
      const fields = new URLSearchParams(body);
      const returnedState = fields.get('state') ?? '';
      if (!sameText(returnedState, state)) {
        reply(400, 'Sign-in failed: the answer does not belong to this sign-in (state mismatch). Close this window and try again.');
        finish(new SignInError('Sign-in refused: the redirect carried a different state than the one sent'));
        return;
      }
      const error = fields.get('error');
      if (error) {
        reply(400, 'Sign-in failed. You can close this window.');
        const description = fields.get('error_description');
        finish(
          new SignInError(`The identity provider refused the sign-in: ${error}${description ? `: ${description.slice(0, 300)}` : ''}`),
        );
        return;
      }
      const accessToken = fields.get('access_token');
      if (!accessToken) {
        reply(400, 'Sign-in failed: no token in the answer. You can close this window.');
        finish(new SignInError('The identity provider redirected without an access token'));
        return;
      }
      const lifetime = Number(fields.get('expires_in'));
      const seconds = Number.isFinite(lifetime) && lifetime > 0 ? lifetime : (options.defaultLifetimeSeconds ?? 3600);
      reply(200, 'Signed in. You can close this window and return to the editor.');
      finish({
        accessToken,
        tokenType: fields.get('token_type') ?? 'Bearer',
        expiresAt: Date.now() + seconds * 1000,
        scope: fields.get('scope') ?? undefined,
      });
    });
  });

  try {
    const url = buildAuthorizeUrl({
      authUrl: options.authUrl,
      clientId: options.clientId,
      scope: options.scope,
      redirectUri,
      state,
      extraParameters: options.extraParameters,
    });
    await options.openBrowser(url);
    return await outcome;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    server.closeAllConnections();
    server.close();
  }
}

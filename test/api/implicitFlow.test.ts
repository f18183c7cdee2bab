import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signInWithImplicitFlow, isExpired, SignInError, CancelledError, TimeoutError } from '#api';

interface Answer {
  status: number;
  body: string;
  headers?: http.IncomingHttpHeaders;
}

function request(url: string, method = 'GET', body?: string, headers: http.OutgoingHttpHeaders = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Plays the identity provider and the browser: reads the authorize URL, loads the redirect page, and posts
 * the fragment back the way the page's script does.
 */
/** What the browser saw; `done` settles once it has both answers (the sign-in may resolve before the post's answer is read). */
interface Seen {
  page?: Answer;
  post?: Answer;
  authorize?: URL;
  done?: Promise<void>;
}

function browser(fragment: (params: URLSearchParams) => string, seen: Seen = {}) {
  return async (authorizeUrl: string) => {
    const url = new URL(authorizeUrl);
    seen.authorize = url;
    const redirect = url.searchParams.get('redirect_uri')!;
    seen.done = new Promise((resolve, reject) =>
      setImmediate(async () => {
        try {
          seen.page = await request(redirect);
          const origin = new URL(redirect).origin;
          seen.post = await request(`${origin}/token`, 'POST', fragment(url.searchParams), {
            'Content-Type': 'application/x-www-form-urlencoded',
            Origin: origin,
          });
          resolve();
        } catch (error) {
          reject(error as Error);
        }
      }),
    );
  };
}

const OPTIONS = {
  authUrl: 'https://login.example.com/authorize',
  clientId: 'client-1',
  scope: 'https://management.example.com/user_impersonation',
  timeoutMs: 5000,
};

describe('OAuth 2.0 implicit flow with a loopback redirect', () => {
  test('the token arrives from the fragment, with state checked and expiry computed', async () => {
    const seen: Seen = {};
    const before = Date.now();
    const token = await signInWithImplicitFlow({
      ...OPTIONS,
      openBrowser: browser(
        (p) => `access_token=flow-token-123&token_type=Bearer&expires_in=600&state=${encodeURIComponent(p.get('state')!)}`,
        seen,
      ),
    });
    assert.equal(token.accessToken, 'flow-token-123');
    assert.equal(token.tokenType, 'Bearer');
    assert.ok(token.expiresAt >= before + 600_000 && token.expiresAt <= Date.now() + 600_000);
    const authorize = seen.authorize!;
    assert.equal(authorize.origin + authorize.pathname, OPTIONS.authUrl);
    assert.equal(authorize.searchParams.get('response_type'), 'token');
    assert.equal(authorize.searchParams.get('client_id'), 'client-1');
    assert.equal(authorize.searchParams.get('scope'), OPTIONS.scope);
    assert.match(authorize.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.ok(authorize.searchParams.get('state')!.length >= 32);
    await seen.done;
    assert.equal(seen.page?.status, 200);
    assert.match(seen.page!.body, /location\.hash/);
    assert.equal(seen.post?.status, 200);
    assert.match(seen.post!.body, /Signed in/);
  });

  test('a different state is refused', async () => {
    await assert.rejects(
      signInWithImplicitFlow({ ...OPTIONS, openBrowser: browser(() => 'access_token=stolen&expires_in=600&state=forged') }),
      (e: unknown) => e instanceof SignInError && /different state/.test(e.message),
    );
  });

  test('an error from the identity provider is reported', async () => {
    await assert.rejects(
      signInWithImplicitFlow({
        ...OPTIONS,
        openBrowser: browser((p) => `error=access_denied&error_description=User+said+no&state=${p.get('state')}`),
      }),
      /refused the sign-in: access_denied: User said no/,
    );
  });

  test('a redirect without a token is an error', async () => {
    await assert.rejects(
      signInWithImplicitFlow({ ...OPTIONS, openBrowser: browser((p) => `state=${p.get('state')}`) }),
      /without an access token/,
    );
  });

  test('cancellation and time limit', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(signInWithImplicitFlow({ ...OPTIONS, signal: controller.signal, openBrowser: () => undefined }), CancelledError);
    await assert.rejects(signInWithImplicitFlow({ ...OPTIONS, timeoutMs: 100, openBrowser: () => undefined }), TimeoutError);
  });

  test('a browser that cannot be opened fails the flow and frees the port', async () => {
    let redirect = '';
    await assert.rejects(
      signInWithImplicitFlow({
        ...OPTIONS,
        openBrowser: (url) => {
          redirect = new URL(url).searchParams.get('redirect_uri')!;
          throw new Error('no browser');
        },
      }),
      /no browser/,
    );
    await assert.rejects(request(redirect), /ECONNREFUSED/);
  });

  test('requests for another host name are refused (DNS rebinding)', async () => {
    let answer: Answer | undefined;
    await assert.rejects(
      signInWithImplicitFlow({
        ...OPTIONS,
        timeoutMs: 300,
        openBrowser: (url) => {
          const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
          void request(`${redirect.origin}/callback`, 'GET', undefined, { Host: `evil.example.com:${redirect.port}` }).then(
            (a) => (answer = a),
          );
        },
      }),
      TimeoutError,
    );
    assert.equal(answer?.status, 400);
  });

  test('requests that are not the redirect page or its token post are refused, and the real one still signs in', async () => {
    const answers: Record<string, number | string> = {};
    const before = Date.now();
    const token = await signInWithImplicitFlow({
      ...OPTIONS,
      defaultLifetimeSeconds: 100,
      extraParameters: { prompt: 'select_account' },
      openBrowser: async (url) => {
        const authorize = new URL(url);
        answers.mode = authorize.searchParams.get('response_mode')!;
        answers.prompt = authorize.searchParams.get('prompt')!;
        const origin = new URL(authorize.searchParams.get('redirect_uri')!).origin;
        const state = encodeURIComponent(authorize.searchParams.get('state')!);
        const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
        setImmediate(async () => {
          answers.otherOrigin = (
            await request(`${origin}/token`, 'POST', `access_token=evil&state=${state}`, { ...form, Origin: 'http://evil.example.com' })
          ).status;
          answers.getToken = (await request(`${origin}/token`)).status;
          answers.postCallback = (await request(`${origin}/callback`, 'POST', 'x')).status;
          answers.tooLarge = await request(`${origin}/token`, 'POST', `access_token=big&state=${state}&pad=${'x'.repeat(20_000)}`, {
            ...form,
            Origin: origin,
          }).then(
            (a) => a.status,
            (e: NodeJS.ErrnoException) => e.code ?? 'error',
          );
          answers.real = (await request(`${origin}/token?x=1`, 'POST', `access_token=good&state=${state}&expires_in=-5`, form)).status;
        });
      },
    });
    for (let i = 0; i < 100 && answers.real === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(answers, {
      mode: 'fragment',
      prompt: 'select_account',
      otherOrigin: 403,
      getToken: 404,
      postCallback: 404,
      tooLarge: answers.tooLarge,
      real: 200,
    });
    assert.notEqual(answers.tooLarge, 200, 'a post larger than 16 KB is not read');
    assert.equal(token.accessToken, 'good');
    assert.equal(token.tokenType, 'Bearer');
    assert.equal(token.scope, undefined);
    assert.ok(
      token.expiresAt >= before + 100_000 && token.expiresAt <= Date.now() + 100_000,
      'a lifetime that is not positive is the default one',
    );
  });

  test("the provider's refusal names its error and the start of its description", async () => {
    await assert.rejects(
      signInWithImplicitFlow({
        ...OPTIONS,
        openBrowser: browser(
          (p) => `error=access_denied&error_description=${'d'.repeat(400)}&state=${encodeURIComponent(p.get('state')!)}`,
        ),
      }),
      (e: unknown) =>
        e instanceof SignInError && e.message === `The identity provider refused the sign-in: access_denied: ${'d'.repeat(300)}`,
    );
    await assert.rejects(
      signInWithImplicitFlow({
        ...OPTIONS,
        openBrowser: browser((p) => `error=server_error&state=${encodeURIComponent(p.get('state')!)}`),
      }),
      (e: unknown) => e instanceof SignInError && e.message === 'The identity provider refused the sign-in: server_error',
    );
  });

  test('expiry with a margin', () => {
    assert.equal(isExpired({ expiresAt: Date.now() + 60_000 }), true);
    assert.equal(isExpired({ expiresAt: Date.now() + 600_000 }), false);
    const now = 1_800_000_000_000;
    assert.equal(isExpired({ expiresAt: now + 120_000 }, now), true, 'exactly the margin left is expired');
    assert.equal(isExpired({ expiresAt: now + 120_001 }, now), false);
    assert.equal(isExpired({ expiresAt: now + 1000 }, now, 1000), true);
  });

  test('the pages served carry no-store, no-referrer and their type', async () => {
    const seen: Seen = {};
    await signInWithImplicitFlow({
      ...OPTIONS,
      openBrowser: browser((p) => `access_token=t&state=${encodeURIComponent(p.get('state')!)}`, seen),
    });
    await seen.done;
    assert.equal(seen.page?.headers?.['content-type'], 'text/html; charset=utf-8');
    assert.equal(seen.post?.headers?.['content-type'], 'text/plain; charset=utf-8');
    for (const answer of [seen.page, seen.post]) {
      assert.equal(answer?.headers?.['cache-control'], 'no-store');
      assert.equal(answer?.headers?.['referrer-policy'], 'no-referrer');
    }
  });

  test('a post of exactly 16 KB is read; expires_in 0 is no lifetime (the default one is used)', async () => {
    const before = Date.now();
    const token = await signInWithImplicitFlow({
      ...OPTIONS,
      defaultLifetimeSeconds: 100,
      openBrowser: browser((p) => {
        const fields = `access_token=sixteen&expires_in=0&state=${encodeURIComponent(p.get('state')!)}&pad=`;
        return fields + 'x'.repeat(16 * 1024 - fields.length);
      }),
    });
    assert.equal(token.accessToken, 'sixteen');
    assert.ok(token.expiresAt >= before + 100_000 && token.expiresAt <= Date.now() + 100_000, String(token.expiresAt - before));
  });

  test('a fixed port is listened on; a port in use is a clear error naming it', { timeout: 30_000 }, async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      await assert.rejects(
        signInWithImplicitFlow({ ...OPTIONS, port, openBrowser: () => assert.fail('no browser is opened') }),
        (e: unknown) => e instanceof SignInError && e.message === `Cannot listen on 127.0.0.1:${port} for the sign-in redirect: EADDRINUSE`,
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
    const seen: { authorize?: URL } = {};
    const token = await signInWithImplicitFlow({
      ...OPTIONS,
      port,
      openBrowser: browser((p) => `access_token=fixed&state=${encodeURIComponent(p.get('state')!)}`, seen),
    });
    assert.equal(token.accessToken, 'fixed');
    assert.equal(seen.authorize?.searchParams.get('redirect_uri'), `http://127.0.0.1:${port}/callback`);
  });

  test('without a time limit given, a sign-in that finishes is not cut short (the default is minutes)', async () => {
    const untimed: Partial<typeof OPTIONS> = { ...OPTIONS };
    delete untimed.timeoutMs;
    const token = await signInWithImplicitFlow({
      ...(untimed as Omit<typeof OPTIONS, 'timeoutMs'>),
      openBrowser: browser((p) => `access_token=patient&state=${encodeURIComponent(p.get('state')!)}`),
    });
    assert.equal(token.accessToken, 'patient');
  });

  test('a signal aborted before the start cancels at once; the time limit is told in seconds', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(signInWithImplicitFlow({ ...OPTIONS, signal: controller.signal, openBrowser: () => undefined }), CancelledError);
    await assert.rejects(
      signInWithImplicitFlow({ ...OPTIONS, timeoutMs: 600, openBrowser: () => undefined }),
      (e: unknown) => e instanceof TimeoutError && e.message === 'Sign-in did not finish within 1 s',
    );
  });
});

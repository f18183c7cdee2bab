// Where the token may be sent (client/src/api/settings.ts), edge by edge, as mutation testing found them
// untested (docs/mutation.md): only https, or plain http to this machine; no credentials, query or fragment
// in an address; the first non-empty source of each setting wins.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkServiceUrl, isLoopback, resolveServiceSettings, SettingsError } from '#api';

const refused = (fn: () => unknown, message: string) =>
  assert.throws(fn, (e: unknown) => e instanceof SettingsError && e.message === message, message);

describe('service addresses', () => {
  test('https anywhere; http only to 127.x.x.x, ::1 or localhost; trailing slashes and spaces dropped', () => {
    assert.equal(checkServiceUrl(' https://management.example.com/// ', 'the service address'), 'https://management.example.com');
    assert.equal(checkServiceUrl('https://example.com/base/', 'x'), 'https://example.com/base');
    for (const host of ['127.0.0.1', '127.1.2.3:8080', '[::1]:9', 'localhost:3000'])
      assert.equal(checkServiceUrl(`http://${host}/`, 'x'), `http://${host}`);
    for (const host of ['127.0.0.1.example.com', 'example.com', '10.0.0.1', '128.0.0.1', 'x127.0.0.1.nip.io']) {
      refused(
        () => checkServiceUrl(`http://${host}`, 'the service address'),
        `the service address uses plain http on '${host}': use https (http is only for 127.0.0.1, ::1 or localhost)`,
      );
    }
  });

  test('another scheme, credentials, a query or a fragment are refused, each with its reason', () => {
    refused(() => checkServiceUrl('ftp://example.com', 'x'), "x must use https (got 'ftp:')");
    refused(() => checkServiceUrl('not a url', 'x'), "x 'not a url' is not an absolute URL");
    refused(() => checkServiceUrl('https://user@example.com', 'x'), 'x must not carry a user name or password');
    refused(() => checkServiceUrl('https://:pw@example.com', 'x'), 'x must not carry a user name or password');
    refused(() => checkServiceUrl('https://example.com/?a=1', 'x'), 'x must not carry a query or fragment');
    refused(() => checkServiceUrl('https://example.com/#f', 'x'), 'x must not carry a query or fragment');
    refused(() => checkServiceUrl('https://example.com/?a=1#f', 'x', true), 'x must not carry a query or fragment');
    assert.equal(
      checkServiceUrl('https://login.example.com/authorize?tenant=t', 'x', true),
      'https://login.example.com/authorize?tenant=t',
    );
  });

  test('loopback names, whole', () => {
    assert.deepEqual(['localhost', '[::1]', '::1', '127.0.0.1', '127.255.255.255'].map(isLoopback), [true, true, true, true, true]);
    assert.deepEqual(['localhost.example.com', '127.0.0.1.example.com', 'a127.0.0.1', '127.0.0', '::2', 'Localhostx'].map(isLoopback), [
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('settings from flags, the editor and the environment', () => {
  test('the first non-empty source wins, then the environment; blank values are no value', () => {
    const env = {
      POLICYSET_BASE_URL: 'https://env.example.com',
      POLICYSET_PROVIDER_NAMESPACE: 'EnvNs',
      POLICYSET_ITEMS_BASE_URL: ' ',
      POLICYSET_AUTH_URL: 'https://auth.example.com/a?x=1',
    };
    const settings = resolveServiceSettings([{ baseUrl: '  ' }, { baseUrl: 'https://second.example.com', providerNamespace: '' }], env);
    assert.deepEqual(settings, {
      baseUrl: 'https://second.example.com',
      itemsBaseUrl: undefined,
      authUrl: 'https://auth.example.com/a?x=1',
      providerNamespace: 'EnvNs',
    });
    assert.equal(resolveServiceSettings([{}], env).baseUrl, 'https://env.example.com');
    assert.equal(
      resolveServiceSettings([{ baseUrl: 'https://first.example.com' }, { baseUrl: 'https://second.example.com' }]).baseUrl,
      'https://first.example.com',
    );
    assert.equal(resolveServiceSettings([{ baseUrl: 'https://a.example.com' }]).providerNamespace, 'Provider');
  });

  test('what is missing or wrong is said, with how to set it', () => {
    refused(() => resolveServiceSettings([{}], {}, 'use --base-url'), 'no service address: use --base-url');
    refused(() => resolveServiceSettings([{}], {}), 'no service address: set POLICYSET_BASE_URL');
    refused(
      () => resolveServiceSettings([{ baseUrl: 'https://a.example.com', providerNamespace: 'My.Ns' }]),
      "provider namespace 'My.Ns' must be letters and digits, like 'Provider'",
    );
    refused(
      () => resolveServiceSettings([{ baseUrl: 'https://a.example.com', providerNamespace: '1Ns' }]),
      "provider namespace '1Ns' must be letters and digits, like 'Provider'",
    );
    refused(
      () => resolveServiceSettings([{ baseUrl: 'https://a.example.com', providerNamespace: 'Ns x' }]),
      "provider namespace 'Ns x' must be letters and digits, like 'Provider'",
    );
    refused(
      () => resolveServiceSettings([{}], {}, 'x', 'itemsBaseUrl', 'use --items-base-url'),
      'no workspace-items address: use --items-base-url',
    );
    refused(() => resolveServiceSettings([{}], {}, 'x', 'itemsBaseUrl'), 'no workspace-items address: set POLICYSET_ITEMS_BASE_URL');
    assert.deepEqual(resolveServiceSettings([{ itemsBaseUrl: 'https://items.example.com/' }], {}, 'x', 'itemsBaseUrl'), {
      baseUrl: '',
      itemsBaseUrl: 'https://items.example.com',
      authUrl: undefined,
      providerNamespace: 'Provider',
    });
    refused(
      () => resolveServiceSettings([{ baseUrl: 'https://a.example.com', itemsBaseUrl: 'http://items.example.com' }]),
      "the items address uses plain http on 'items.example.com': use https (http is only for 127.0.0.1, ::1 or localhost)",
    );
  });
});

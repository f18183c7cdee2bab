// The names that become path segments of E1/E2 (client/src/api/policySets.ts) are checked whole before
// anything is sent, as the service checks them; found untested by mutation testing (docs/mutation.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkItemId,
  checkScope,
  checkSetName,
  checkVersion,
  describeScope,
  eventstreamScopes,
  InvalidRequestError,
  parseExpand,
  PolicySetClient,
} from '#api';

test('a set name: any text without < > * % & : ? . + / that does not end with a space', () => {
  for (const name of ['my-set', 'My Set 1', 'a', 'name with (parens) and _']) assert.equal(checkSetName(name), undefined, name);
  assert.equal(checkSetName(''), 'A policy set definition name is required');
  for (const name of ['a/b', 'a.b', '../x', 'x?y', 'end ', ' ', 'a<b', 'a%2e', '*']) {
    assert.equal(
      checkSetName(name),
      `'${name}' is not a valid policy set definition name: it may not contain < > * % & : ? . + / and may not end with a space`,
      name,
    );
  }
});

test('a version: three runs of digits, whole', () => {
  for (const version of ['1.0.0', '10.20.30']) assert.equal(checkVersion(version), undefined);
  for (const version of ['1.0', '1.0.0.0', 'v1.0.0', '1.0.0-beta', ' 1.0.0', '1.0.0/..', 'a.b.c'])
    assert.equal(checkVersion(version), `'${version}' is not a version: use #.#.# (digits, like 1.0.0)`, version);
});

test('a scope: a subscription GUID, or a management group id of up to 90 characters not ending in a dot, whole', () => {
  assert.equal(checkScope({ kind: 'subscription', subscriptionId: '3C1D2E4F-5a6b-4c7d-8e9f-0a1b2c3d4e5f' }), undefined);
  for (const subscriptionId of [
    '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5',
    'x3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f/..',
    'g3c1d2e4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  ]) {
    assert.equal(
      checkScope({ kind: 'subscription', subscriptionId }),
      `'${subscriptionId}' is not a subscription id (a GUID like 00000000-0000-0000-0000-000000000000)`,
      subscriptionId,
    );
  }
  for (const managementGroupId of ['mg', 'My.Group_(1)', 'x'.repeat(90)])
    assert.equal(checkScope({ kind: 'managementGroup', managementGroupId }), undefined, managementGroupId);
  for (const managementGroupId of ['', 'ends.', 'x'.repeat(91), 'a/b', 'a b', '../mg']) {
    assert.equal(
      checkScope({ kind: 'managementGroup', managementGroupId }),
      `'${managementGroupId}' is not a management group id (up to 90 letters, digits, '-', '_', '.', '(' or ')', not ending in '.')`,
      managementGroupId,
    );
  }
});

test('$expand: the two known values in any casing, once each; blanks skipped; anything else refused', () => {
  assert.deepEqual(parseExpand(' latestdefinitionversion , EffectiveDefinitionVersion,LatestDefinitionVersion,, '), [
    'LatestDefinitionVersion',
    'EffectiveDefinitionVersion',
  ]);
  assert.deepEqual(parseExpand(''), []);
  assert.throws(
    () => parseExpand('LatestDefinitionVersion,Other'),
    (e: unknown) =>
      e instanceof InvalidRequestError &&
      e.message === "'Other' is not an $expand value: use LatestDefinitionVersion or EffectiveDefinitionVersion",
  );
});

test('E4/E5 item ids: a UUID, whole; the message names which id', () => {
  assert.equal(checkItemId('3C1D2E4F-5a6b-4c7d-8e9f-0a1b2c3d4e5f', 'workspace'), undefined);
  for (const id of [
    '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f/..',
    'x3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    '3c1d2e4f5a6b4c7d8e9f0a1b2c3d4e5f',
  ]) {
    assert.equal(checkItemId(id, 'workspace'), `'${id}' is not a workspace ID: use a UUID like 00000000-0000-0000-0000-000000000000`);
    assert.equal(checkItemId(id, 'eventstream'), `'${id}' is not an eventstream ID: use a UUID like 00000000-0000-0000-0000-000000000000`);
  }
});

test('the scope asked for an eventstream: on the items origin, read or write', () => {
  assert.deepEqual(eventstreamScopes('https://items.example.com/base/', 'read'), ['https://items.example.com/Eventstream.Read.All']);
  assert.deepEqual(eventstreamScopes('https://items.example.com:8443/x', 'write'), [
    'https://items.example.com:8443/Eventstream.ReadWrite.All',
  ]);
});

test('E2: a version without a properties object is refused before anything is sent', async () => {
  let asked = 0;
  const client = new PolicySetClient(
    { baseUrl: 'http://127.0.0.1:9', providerNamespace: 'Provider' },
    { token: async () => (asked++, 'TOKEN-pathchecks'), maxRetries: 0, timeoutMs: 5000 },
  );
  for (const properties of [null, [], 'x']) {
    await assert.rejects(
      client.createPolicySetDefinitionVersion(
        { kind: 'subscription', subscriptionId: '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f' },
        'my-set',
        '1.0.0',
        properties as never,
      ),
      (e: unknown) => e instanceof InvalidRequestError && e.message === 'The version has no properties object to send',
    );
  }
  assert.equal(asked, 0, 'no token asked, nothing sent');
});

test("E2's address as shown for confirmation, and the scope in words", () => {
  const client = new PolicySetClient(
    { baseUrl: 'https://management.example.com', providerNamespace: 'Provider' },
    { token: async () => 't' },
  );
  assert.equal(
    client.versionUrl({ kind: 'managementGroup', managementGroupId: 'mg' }, 'my set', '1.0.0'),
    'https://management.example.com/providers/Provider.Management/managementGroups/mg/providers/Provider.Authorization/policySetDefinitions/my%20set/versions/1.0.0?api-version=2025-11-01',
  );
  assert.equal(describeScope({ kind: 'subscription', subscriptionId: 'S' }), 'subscription S');
  assert.equal(describeScope({ kind: 'managementGroup', managementGroupId: 'mg' }), 'management group mg');
});

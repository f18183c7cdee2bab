// Rule tests that exercise several rules at once, or what the rules of a band share (limits.ts, the document kinds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Length } from '#server/service/rules/limits';
import { parsePolicyDocument, validateText } from '#service';
import { defId, a3 } from '../support/ruleTester';
import { body, plan, d } from '../support/ruleDocuments/quota';
import { WS, item } from '../support/ruleDocuments/workspaceItems';

// The request size is counted in UTF-8 a chunk at a time: the count must not depend on where chunks end.
test('utf8Length: the UTF-8 length of any part of a text, with characters of 1 to 4 bytes across chunk ends', () => {
  const text = 'a'.repeat(65535) + '😀' + 'é'.repeat(70000) + '€'.repeat(65536) + '😀'.repeat(40000) + 'x';
  for (const [start, end] of [
    [0, text.length],
    [5, 70000],
    [65535, 65537],
    [1, text.length - 1],
    [0, 0],
  ]) {
    assert.equal(utf8Length(text, start, end), Buffer.byteLength(text.slice(start, end), 'utf8'), `${start}..${end}`);
  }
});

test('deployment plans and E6 bodies are a kind of their own; other documents are not mistaken for them', () => {
  assert.equal(parsePolicyDocument(body('"gpt-4o"', '1')).kind, 'deploymentPlan');
  assert.equal(parsePolicyDocument(plan([d('a', '1')])).kind, 'deploymentPlan');
  assert.equal(
    parsePolicyDocument('{ "$schema": "https://example.com/schemas/deploymentPlan.schema.json", "deployments": [] }').kind,
    'deploymentPlan',
  );
  assert.equal(parsePolicyDocument('{ "deployments": [{ "sku": { "capacity": 1 } }] }').kind, 'deploymentPlan');
  // Not plans: a set, a set with a sku, a list of other deployments, a template.
  assert.equal(
    parsePolicyDocument(a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] }`)).kind,
    'policySetDefinition',
  );
  assert.equal(
    parsePolicyDocument(
      `{ "sku": { "name": "A" }, "properties": { "model": {}, "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] } }`,
    ).kind,
    'policySetDefinition',
  );
  assert.equal(parsePolicyDocument('{ "deployments": [{ "name": "web", "replicas": 3 }] }').kind, 'unknown');
  assert.equal(parsePolicyDocument('{ "deployments": [] }').kind, 'unknown');
  assert.equal(parsePolicyDocument('{ "sku": { "name": "S0" }, "properties": { "endpoint": "x" } }').kind, 'unknown');
  assert.equal(
    parsePolicyDocument(
      '{ "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#", "contentVersion": "1.0.0.0", "resources": [{ "sku": { "capacity": 1 }, "properties": { "model": {} } }] }',
    ).kind,
    'unknown',
  );
  // Plans get no policy set diagnostics (only that their quota was not checked, without usage).
  const result = validateText(plan([d('a', '1')]));
  assert.deepEqual(
    result.diagnostics.map((x) => x.code),
    ['PS9105'],
  );
});

test('odd plans written by hand give diagnostics or nothing, never a rule failure', () => {
  const odd = [
    '{ "deployments": [{ "sku": null }, 5, { "sku": { "capacity": 1 }, "model": { "name": 5 } }], "usage": [null, 3, { "location": 5 }, { "location": "x", "value": [null] }] }',
    '{ "region": 7, "deployments": [{ "model": "gpt-4o", "sku": { "capacity": 1 }, "account": [] }], "usage": { "location": "EastUS", "value": {} } }',
    '{ "deployments": [{ "model": "gpt-4o", "sku": { "capacity": 1e400 } }] }',
    '{ "sku": { "capacity": -1 }, "properties": { "model": { "name": null } } }',
    '{ "deployments": [{ "sku": { "capacity": 1 }',
  ];
  for (const text of odd) {
    const result = validateText(text);
    assert.deepEqual(result.internalErrors, [], text);
  }
});

test('workspace items are a document kind of their own; policy documents are not mistaken for them', () => {
  assert.equal(parsePolicyDocument(item('"type": "Eventstream"')).kind, 'workspaceItem');
  assert.equal(parsePolicyDocument(`{ "workspaceId": "${WS}" }`).kind, 'workspaceItem');
  assert.equal(parsePolicyDocument('{ "id": "x", "type": "Notebook" }').kind, 'workspaceItem');
  // Broken text still classifies (the tolerant tree): completion relies on it.
  assert.equal(parsePolicyDocument(`{ "workspaceId": "${WS}", "type": "Ev`).kind, 'workspaceItem');
  // An unlisted type alone does not make an item; a set stays a set even with a listed type name.
  assert.equal(parsePolicyDocument('{ "id": "x", "type": "Whatever" }').kind, 'unknown');
  assert.equal(parsePolicyDocument('{ "type": "Report" }').kind, 'unknown');
  assert.equal(
    parsePolicyDocument(a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] }`)).kind,
    'policySetDefinition',
  );
  assert.equal(parsePolicyDocument(`{ "workspaceId": "${WS}", "properties": { "policyDefinitions": [] } }`).kind, 'policySetDefinition');
  // A definition's parameters file (azurepolicy.parameters.json) may declare a parameter named workspaceId.
  assert.equal(
    parsePolicyDocument('{ "workspaceId": { "type": "String", "metadata": { "strongType": "omsWorkspace" } } }').kind,
    'unknown',
  );
  // Items get no policy set diagnostics.
  const result = validateText(item('"type": "Eventstream"'));
  assert.deepEqual(result.diagnostics, []);
});

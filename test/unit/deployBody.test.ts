// What `policyset deploy` sends for a file (server/src/cli/deploy/body.ts), in-process: a fragment's escapes as
// its template sends them, the policy-as-code framework's policyDefinitionName resolved to the policyDefinitionId
// the service requires (A2), and the sentences said before the confirmation. Every expected body is written out
// here by hand (docs/cli.md, "What deploy sends"); the CLI process tests check the same against the local service.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { customDefinitionIdAt, deployableDocument, NotDeployable } from '#server/cli/deploy/body';
import { DefinitionCatalog } from '#service';

const BUILTIN = '06a78e20-9358-41c9-923c-fb736d382a4d';
const SUB = { kind: 'subscription' as const, subscriptionId: '00000000-0000-0000-0000-000000000001' };
const MG = { kind: 'managementGroup' as const, managementGroupId: 'contoso-mg' };

function catalog(): DefinitionCatalog {
  const made = new DefinitionCatalog();
  made.addIndex([
    { id: `/providers/Microsoft.Authorization/policyDefinitions/${BUILTIN}`, name: BUILTIN },
    { id: '/subscriptions/x/providers/Microsoft.Authorization/policyDefinitions/known-custom', name: 'known-custom' },
  ]);
  return made;
}

function deploy(document: object, options: Partial<Parameters<typeof deployableDocument>[2]> = {}) {
  const text = JSON.stringify(document, null, 2);
  return deployableDocument(text, JSON.parse(text), { scope: SUB, namespace: 'Microsoft', ...options });
}

const refused = (run: () => unknown, message: string) =>
  assert.throws(run, (e: unknown) => e instanceof NotDeployable && e.message === message, message);

describe('custom definition IDs at the deploy scope', () => {
  test('a subscription and a management group, in the namespace given', () => {
    assert.equal(
      customDefinitionIdAt(SUB, 'Microsoft', 'd1'),
      '/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/policyDefinitions/d1',
    );
    assert.equal(
      customDefinitionIdAt(MG, 'Provider', 'd1'),
      '/providers/Provider.Management/managementGroups/contoso-mg/providers/Provider.Authorization/policyDefinitions/d1',
    );
  });
});

describe('a set in the service’s shape', () => {
  test('sent as it is, with nothing said', () => {
    const document = {
      properties: {
        displayName: 'x',
        parameters: { effect: { type: 'String' } },
        policyDefinitions: [
          {
            policyDefinitionId: `/providers/Microsoft.Authorization/policyDefinitions/${BUILTIN}`,
            parameters: { effect: { value: "[parameters('effect')]" } },
          },
        ],
      },
    };
    const sent = deploy(document);
    assert.deepEqual(sent.document, document);
    assert.deepEqual(sent.notes, []);
  });

  test('not an object, no properties, no references: as it is', () => {
    assert.deepEqual(deployableDocument('[1]', [1], { scope: SUB, namespace: 'Microsoft' }), { document: [1], notes: [] });
    assert.deepEqual(deploy({ name: 'x' }), { document: { name: 'x' }, notes: [] });
    assert.deepEqual(deploy({ properties: { policyDefinitions: 'x' } }), {
      document: { properties: { policyDefinitions: 'x' } },
      notes: [],
    });
    assert.deepEqual(deploy({ properties: [] }), { document: { properties: [] }, notes: [] });
    assert.deepEqual(deployableDocument('null', null, { scope: SUB, namespace: 'Microsoft' }), { document: null, notes: [] });
    assert.deepEqual(deployableDocument('"x"', 'x', { scope: SUB, namespace: 'Microsoft' }), { document: 'x', notes: [] });
  });
});

describe('a set read as its template reads it', () => {
  const fragment = (value: string) => ({
    type: 'Microsoft.Authorization/policySetDefinitions',
    apiVersion: '2021-06-01',
    name: 'fragment',
    properties: {
      parameters: { effect: { type: 'String' } },
      policyDefinitions: [
        { policyDefinitionId: `/providers/Microsoft.Authorization/policyDefinitions/${BUILTIN}`, parameters: { effect: { value } } },
      ],
    },
  });

  test("'[[' is sent as the template sends it, and said", () => {
    const sent = deploy(fragment("[[parameters('effect')]"));
    assert.deepEqual(sent.document, fragment("[parameters('effect')]"));
    assert.deepEqual(sent.notes, [
      `read as its template reads it: 1 escaped string sent as the template sends it ("[[parameters('x')]" as "[parameters('x')]")`,
    ]);
    const two = fragment("[[parameters('effect')]");
    (two.properties as Record<string, unknown>).description = '[[not an expression]';
    // A string that opens with '[[' but does not close with ']' is no expression: sent as written.
    const literal = fragment("[[parameters('effect')]");
    (literal.properties as Record<string, unknown>).description = '[[not closed';
    assert.equal((deploy(literal).document as { properties: { description: string } }).properties.description, '[[not closed');
    assert.deepEqual(deploy(two).notes, [
      `read as its template reads it: 2 escaped strings sent as the template sends them ("[[parameters('x')]" as "[parameters('x')]")`,
    ]);
  });

  test('a fragment without escapes: sent as it is, nothing said', () => {
    const plain = fragment('Audit');
    const sent = deploy(plain);
    assert.deepEqual(sent.document, plain);
    assert.deepEqual(sent.notes, []);
  });

  test('a template expression only the template evaluates: refused, with the first', () => {
    const document = fragment("[[parameters('effect')]");
    (document.properties as Record<string, unknown>).displayName = "[concat('a', 'b')]";
    (document.properties as Record<string, unknown>).description = "[variables('v')]";
    refused(
      () => deploy(document),
      `it is read as its template reads it, and 2 of its strings are template expressions that only the template evaluates at deployment (the first: "[concat('a', 'b')]"): deploy the template, or write the values`,
    );
    const one = fragment("[[parameters('effect')]");
    (one.properties as Record<string, unknown>).displayName = "[variables('v')]";
    refused(
      () => deploy(one),
      `it is read as its template reads it, and 1 of its strings is a template expression that only the template evaluates at deployment (the first: "[variables('v')]"): deploy the template, or write the values`,
    );
  });
});

describe("the policy-as-code framework's policyDefinitionName", () => {
  const framework = (...references: unknown[]) => ({ name: 'set', properties: { displayName: 'set', policyDefinitions: references } });

  test('a built-in the definitions know, a custom one they know and one they do not: each gets its ID, first in the reference', () => {
    const sent = deploy(
      framework(
        { policyDefinitionReferenceId: 'a', policyDefinitionName: BUILTIN.toUpperCase(), parameters: {} },
        { policyDefinitionReferenceId: 'b', PolicyDefinitionName: 'known-custom' },
        { policyDefinitionReferenceId: 'c', policyDefinitionName: 'unknown-custom', policyDefinitionId: '' },
        { policyDefinitionReferenceId: 'd', policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/kept' },
      ),
      { catalog: catalog(), scope: MG, namespace: 'Provider' },
    );
    assert.deepEqual(sent.document, {
      name: 'set',
      properties: {
        displayName: 'set',
        policyDefinitions: [
          {
            policyDefinitionId: `/providers/Microsoft.Authorization/policyDefinitions/${BUILTIN}`,
            policyDefinitionReferenceId: 'a',
            parameters: {},
          },
          {
            policyDefinitionId:
              '/providers/Provider.Management/managementGroups/contoso-mg/providers/Provider.Authorization/policyDefinitions/known-custom',
            policyDefinitionReferenceId: 'b',
          },
          {
            policyDefinitionId:
              '/providers/Provider.Management/managementGroups/contoso-mg/providers/Provider.Authorization/policyDefinitions/unknown-custom',
            policyDefinitionReferenceId: 'c',
          },
          { policyDefinitionReferenceId: 'd', policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/kept' },
        ],
      },
    });
    assert.deepEqual(Object.keys((sent.document as { properties: { policyDefinitions: object[] } }).properties.policyDefinitions[0]), [
      'policyDefinitionId',
      'policyDefinitionReferenceId',
      'parameters',
    ]);
    assert.deepEqual(sent.notes, [
      'policyDefinitionName resolved to a policyDefinitionId: 1 as built-in the definitions loaded know; 1 as custom definition the definitions loaded know, at the deploy scope; 1 as custom definition at the deploy scope (not among the definitions loaded)',
    ]);
  });

  test('plural counts, and one kind alone', () => {
    const two = deploy(framework({ policyDefinitionName: BUILTIN }, { policyDefinitionName: BUILTIN }), { catalog: catalog() });
    assert.deepEqual(two.notes, ['policyDefinitionName resolved to a policyDefinitionId: 2 as built-ins the definitions loaded know']);
    const customs = deploy(framework({ policyDefinitionName: 'known-custom' }, { policyDefinitionName: 'known-custom' }), {
      catalog: catalog(),
    });
    assert.deepEqual(customs.notes, [
      'policyDefinitionName resolved to a policyDefinitionId: 2 as custom definitions the definitions loaded know, at the deploy scope',
    ]);
    const assumed = deploy(framework({ policyDefinitionName: 'x' }, { policyDefinitionName: 'y' }));
    assert.deepEqual(assumed.notes, [
      'policyDefinitionName resolved to a policyDefinitionId: 2 as custom definitions at the deploy scope (not among the definitions loaded)',
    ]);
    assert.equal(
      (assumed.document as { properties: { policyDefinitions: Array<{ policyDefinitionId: string }> } }).properties.policyDefinitions[1]
        .policyDefinitionId,
      '/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/policyDefinitions/y',
    );
  });

  test('refused: a reference with neither, and a GUID the definitions loaded do not know', () => {
    refused(
      () => deploy(framework({ policyDefinitionReferenceId: 'ok', policyDefinitionName: 'x' }, { policyDefinitionReferenceId: 'r2' })),
      "reference 2 ('r2') has no policyDefinitionId (the service requires one in every reference) and no policyDefinitionName to find it by",
    );
    refused(
      () => deploy(framework({ policyDefinitionName: '' })),
      'reference 1 has no policyDefinitionId (the service requires one in every reference) and no policyDefinitionName to find it by',
    );
    refused(
      () => deploy(framework({ policyDefinitionName: 42 })),
      'reference 1 has no policyDefinitionId (the service requires one in every reference) and no policyDefinitionName to find it by',
    );
    refused(
      () => deploy(framework({ policyDefinitionReferenceId: 'g', policyDefinitionName: BUILTIN })),
      `reference 1 ('g') names its definition '${BUILTIN}' by policyDefinitionName only, as built-ins are named, and the definitions loaded do not know it: give -d <the built-in definitions' index> (policyset definitions index) or write its policyDefinitionId`,
    );
  });

  test('entries that are not objects are sent as they are', () => {
    const sent = deploy(framework('x', ['y'], null, { policyDefinitionName: 'n' }));
    assert.deepEqual((sent.document as { properties: { policyDefinitions: unknown[] } }).properties.policyDefinitions.slice(0, 3), [
      'x',
      ['y'],
      null,
    ]);
  });

  test('a policyDefinitionId that is no string is no ID: the name decides', () => {
    const sent = deploy(framework({ policyDefinitionId: 42, policyDefinitionName: 'n' }));
    assert.deepEqual((sent.document as { properties: { policyDefinitions: unknown[] } }).properties.policyDefinitions[0], {
      policyDefinitionId: '/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/policyDefinitions/n',
    });
  });
});

// policySet/deployableDocument: the extension's Deploy command sends what `policyset deploy` sends (issue 31):
// a fragment's "[[" escapes as its template sends them, a policyDefinitionName resolved to an ID at the scope,
// and a sentence instead of a body when the template would have to evaluate a string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLanguageServer } from '../support/lspClient';

type Answer = { document?: { properties: { policyDefinitions: Array<Record<string, unknown>> } }; notes: string[]; problem?: string };

const BUILT_IN_ID = '/providers/Microsoft.Authorization/policyDefinitions/0a914e76-4921-4c19-b460-a2d36003525a';

/** A set resource written for a template (a fragment), with a reference the policy-as-code framework's way. */
function fragment(value: string): string {
  return JSON.stringify(
    {
      type: 'Microsoft.Authorization/policySetDefinitions',
      apiVersion: '2021-06-01',
      name: 'fragment-set',
      properties: {
        displayName: 'A fragment',
        version: '1.0.0',
        parameters: { effect: { type: 'String', allowedValues: ['Audit', 'Deny'], defaultValue: 'Audit' } },
        policyDefinitions: [
          { policyDefinitionReferenceId: 'builtIn', policyDefinitionId: BUILT_IN_ID, parameters: { effect: { value } } },
          { policyDefinitionReferenceId: 'custom', policyDefinitionName: 'Deny-Storage-Http' },
        ],
      },
    },
    null,
    2,
  );
}

test('policySet/deployableDocument: the body policyset deploy sends, or why none', async () => {
  const client = await startLanguageServer();
  const open = (uri: string, text: string) =>
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  const ask = async (uri: string) =>
    (
      await client.request<Answer>('policySet/deployableDocument', {
        textDocument: { uri },
        scope: { kind: 'managementGroup', managementGroupId: 'contoso' },
        namespace: 'Microsoft',
      })
    ).result!;

  open('file:///work/fragment.json', fragment("[[parameters('effect')]"));
  const sent = await ask('file:///work/fragment.json');
  assert.equal(sent.problem, undefined);
  const [builtIn, custom] = sent.document!.properties.policyDefinitions;
  assert.deepEqual(builtIn.parameters, { effect: { value: "[parameters('effect')]" } });
  assert.equal(
    custom.policyDefinitionId,
    '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/Deny-Storage-Http',
  );
  assert.equal(custom.policyDefinitionName, undefined);
  assert.equal(sent.notes.length, 2, JSON.stringify(sent.notes));
  assert.match(sent.notes[0], /1 escaped string sent as the template sends it/);

  open('file:///work/evaluated.json', fragment("[variables('effect')]"));
  const refused = await ask('file:///work/evaluated.json');
  assert.equal(refused.document, undefined);
  assert.match(refused.problem ?? '', /template expression that only the template evaluates at deployment/);

  const closed = await client.request('policySet/deployableDocument', {
    textDocument: { uri: 'file:///work/not-open.json' },
    scope: { kind: 'subscription', subscriptionId: '00000000-0000-0000-0000-000000000000' },
    namespace: 'Microsoft',
  });
  assert.equal(closed.error?.code, -32602);
});

// A set's consumers in the editor, through the real language server over stdio, in a workspace of real public
// files (test/fixtures/consumers): the code lens on a set ("assigned in N places", resolved as the consumer
// rules resolve a consumer's set) and the quick fix that passes the parameters an assignment does not pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CodeLens, Location, Range } from 'vscode-languageserver-types';
import { startLanguageServer, type LspClient } from '../support/lspClient';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers');

function workspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-lsp-consumer-editor-'));
  fs.cpSync(FIXTURES, root, { recursive: true });
  return root;
}

function open(client: LspClient, file: string): { uri: string; text: string } {
  const text = fs.readFileSync(file, 'utf8');
  const uri = pathToFileURL(file).href;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  return { uri, text };
}

function slice(text: string, range: Range): string {
  const document = TextDocument.create('file:///x', 'json', 1, text);
  return text.slice(document.offsetAt(range.start), document.offsetAt(range.end));
}

/** Asks until `done` holds (the workspace scan runs after the first diagnostics; 10 s at most). */
async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  let answer = await ask();
  for (let i = 0; i < 100 && !done(answer); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await ask();
  }
  return answer;
}

test('code lens on a set: "assigned in N places" with the consumers\' locations; "not assigned in this workspace"', async () => {
  const root = workspace();
  try {
    // A second assignment of the landing-zone set, and a set nothing assigns.
    const decomm = path.join(root, 'alz', 'Enforce-ALZ-Decomm.alz_policy_assignment.json');
    fs.cpSync(decomm, path.join(root, 'second.alz_policy_assignment.json'));
    const setFile = path.join(root, 'alz', 'Enforce-ALZ-Decomm.alz_policy_set_definition.json');
    const lonely = path.join(root, 'lonely.json');
    fs.writeFileSync(lonely, fs.readFileSync(setFile, 'utf8').replace('"name": "Enforce-ALZ-Decomm"', '"name": "Nobody-Assigns-This"'));
    const client = await startLanguageServer({ rootUri: pathToFileURL(root).href });
    const set = open(client, setFile);
    const lenses = async (uri: string) =>
      (await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } })).result ?? [];
    const onSet = await until(
      () => lenses(set.uri),
      (l) => l[0]?.command?.title === 'assigned in 2 places',
    );
    assert.equal(onSet.length, 1);
    assert.equal(onSet[0].command?.title, 'assigned in 2 places');
    assert.equal(onSet[0].command?.command, 'policySet.showReferences');
    assert.deepEqual(onSet[0].range.start, { line: 0, character: 0 });
    const [uri, position, locations] = onSet[0].command!.arguments as [string, unknown, Location[]];
    assert.equal(uri, set.uri);
    assert.deepEqual(position, { line: 0, character: 0 });
    assert.deepEqual(locations.map((l) => path.basename(new URL(l.uri).pathname)).sort(), [
      'Enforce-ALZ-Decomm.alz_policy_assignment.json',
      'second.alz_policy_assignment.json',
    ]);
    const assignmentText = fs.readFileSync(decomm, 'utf8');
    for (const location of locations)
      assert.equal(
        slice(assignmentText, location.range),
        '/providers/Microsoft.Management/managementGroups/placeholder/providers/Microsoft.Authorization/policySetDefinitions/Enforce-ALZ-Decomm',
      );

    // The policy-as-code framework's set, assigned by policySetName in its tree.
    const epacSet = open(client, path.join(root, 'epac', 'policySetDefinitions', 'allowed-locations-initiative.jsonc'));
    const onEpac = await lenses(epacSet.uri);
    assert.equal(onEpac[0]?.command?.title, 'assigned in 1 place');
    const epacLocation = (onEpac[0].command!.arguments as [string, unknown, Location[]])[2][0];
    assert.match(epacLocation.uri, /allowed-locations-assignments\.jsonc$/);

    const nobody = open(client, lonely);
    const onNobody = await lenses(nobody.uri);
    assert.deepEqual(
      onNobody.map((l) => l.command?.title),
      ['not assigned in this workspace'],
    );
    // An assignment gets no lens.
    assert.deepEqual(await lenses(open(client, decomm).uri), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the quick fix on PS9209 passes the parameters the workspace set requires, with values of their types', async () => {
  const root = workspace();
  try {
    const client = await startLanguageServer({
      rootUri: pathToFileURL(root).href,
      capabilities: { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } },
    });
    const assignment = open(client, path.join(root, 'alz-bicep-china', 'policy_assignment_es_deploy_mdfc_config.tmpl.json'));
    const document = TextDocument.create(assignment.uri, 'json', 1, assignment.text);
    const key = assignment.text.indexOf('"parameters"');
    const range = { start: document.positionAt(key), end: document.positionAt(key + '"parameters"'.length) };
    const diagnostic = { range, code: 'PS9209', source: 'policyset', severity: 3, message: 'x' };
    const actions = await until(
      async () =>
        (
          await client.request<CodeAction[]>('textDocument/codeAction', {
            textDocument: { uri: assignment.uri },
            range,
            context: { diagnostics: [diagnostic] },
          })
        ).result ?? [],
      (a) => a.length > 0,
    );
    const pass = actions.find((a) => a.title === 'Pass the set parameters this assignment does not pass');
    assert.ok(pass?.edit?.changes?.[assignment.uri], JSON.stringify(actions.map((a) => a.title)));
    assert.equal(pass.isPreferred, true);
    const fixed = JSON.parse(TextDocument.applyEdits(document, pass.edit.changes[assignment.uri])) as {
      properties: { parameters: Record<string, { value: unknown }> };
    };
    const before = JSON.parse(assignment.text) as typeof fixed;
    const added = Object.keys(fixed.properties.parameters).filter((k) => !(k in before.properties.parameters));
    // The set's eleven enableAscFor* parameters have no default; the assignment passes three (README.md).
    assert.equal(added.filter((k) => k.startsWith('enableAscFor')).length, 8, added.join());
    const set = JSON.parse(
      fs.readFileSync(path.join(root, 'alz-bicep-china', 'policy_set_definition_es_mc_Deploy-MDFC-Config.json'), 'utf8'),
    ) as { properties: { parameters: Record<string, { allowedValues?: unknown[] }> } };
    for (const name of added) {
      const allowed = set.properties.parameters[name]?.allowedValues;
      if (allowed) assert.equal(fixed.properties.parameters[name].value, allowed[0], name);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('go to definition from a consumer: the set it names, a passed parameter, a reference ID, to their declarations in the set file', async () => {
  const root = workspace();
  try {
    // The landing-zone assignment with a message for one member.
    const assignmentFile = path.join(root, 'alz', 'Enforce-ALZ-Decomm.alz_policy_assignment.json');
    const value = JSON.parse(fs.readFileSync(assignmentFile, 'utf8')) as { properties: Record<string, unknown> };
    value.properties.nonComplianceMessages = [{ message: 'No new resources here', policyDefinitionReferenceId: 'DecomShutdownMachines' }];
    fs.writeFileSync(assignmentFile, JSON.stringify(value, null, 2));
    const setFile = path.join(root, 'alz', 'Enforce-ALZ-Decomm.alz_policy_set_definition.json');
    const setText = fs.readFileSync(setFile, 'utf8');
    const setUri = pathToFileURL(setFile).href;
    const client = await startLanguageServer({ rootUri: pathToFileURL(root).href });
    const assignment = open(client, assignmentFile);
    const document = TextDocument.create(assignment.uri, 'json', 1, assignment.text);
    const definition = async (needle: string, shift: number) =>
      (
        await client.request<Location[]>('textDocument/definition', {
          textDocument: { uri: assignment.uri },
          position: document.positionAt(assignment.text.indexOf(needle) + shift),
        })
      ).result ?? [];
    const onParameter = await until(
      () => definition('"listOfResourceTypesAllowed"', 3),
      (l) => l.length > 0 && l[0].uri === setUri,
    );
    assert.deepEqual(
      onParameter.map((l) => [l.uri, slice(setText, l.range), l.range.start.line]),
      [[setUri, 'listOfResourceTypesAllowed', setText.slice(0, setText.indexOf('"listOfResourceTypesAllowed": {')).split('\n').length - 1]],
    );
    const onReference = await definition('"DecomShutdownMachines"', 5);
    assert.equal(onReference.length, 1);
    assert.equal(slice(setText, onReference[0].range), 'DecomShutdownMachines');
    assert.equal(
      onReference[0].range.start.line,
      setText.slice(0, setText.indexOf('"policyDefinitionReferenceId": "DecomShutdownMachines"')).split('\n').length - 1,
    );
    const onTarget = await definition('policySetDefinitions/Enforce-ALZ-Decomm', 5);
    assert.deepEqual(
      onTarget.map((l) => [l.uri, slice(setText, l.range)]),
      [[setUri, 'Enforce-ALZ-Decomm']],
    );

    // The policy-as-code framework's tree: its policySetName and a parameter it passes.
    const epacSetFile = path.join(root, 'epac', 'policySetDefinitions', 'allowed-locations-initiative.jsonc');
    const epacSetText = fs.readFileSync(epacSetFile, 'utf8');
    const tree = open(client, path.join(root, 'epac', 'policyAssignments', 'allowed-locations-assignments.jsonc'));
    const treeDocument = TextDocument.create(tree.uri, 'json', 1, tree.text);
    const inTree = async (needle: string, shift: number) =>
      (
        await client.request<Location[]>('textDocument/definition', {
          textDocument: { uri: tree.uri },
          position: treeDocument.positionAt(tree.text.indexOf(needle) + shift),
        })
      ).result ?? [];
    const onName = await inTree('"e14e5d7c-9551-4ae2-b8fa-b5d6b9b3c677"', 4);
    assert.deepEqual(
      onName.map((l) => [path.basename(new URL(l.uri).pathname), slice(epacSetText, l.range)]),
      [['allowed-locations-initiative.jsonc', 'e14e5d7c-9551-4ae2-b8fa-b5d6b9b3c677']],
    );
    const onPassed = await inTree('"AllowedLocations"', 3);
    assert.deepEqual(
      onPassed.map((l) => slice(epacSetText, l.range)),
      ['AllowedLocations'],
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("completion in a consumer from the workspace's set: a tree node's parameters, a passed value's allowed values, a message's reference ID", async () => {
  const root = workspace();
  try {
    const client = await startLanguageServer({ rootUri: pathToFileURL(root).href });
    const treeFile = path.join(root, 'epac', 'policyAssignments', 'allowed-locations-assignments.jsonc');
    const tree = fs
      .readFileSync(treeFile, 'utf8')
      .replace('"scope": {', '"children": [{ "nodeName": "child", "parameters": {  } }],\n    "scope": {');
    const treeUri = pathToFileURL(treeFile).href;
    client.notify('textDocument/didOpen', { textDocument: { uri: treeUri, languageId: 'jsonc', version: 1, text: tree } });
    const complete = async (uri: string, text: string, offset: number) => {
      const document = TextDocument.create(uri, 'json', 1, text);
      const answer = await client.request<{ items: Array<{ label: string; textEdit?: { newText: string } }> }>('textDocument/completion', {
        textDocument: { uri },
        position: document.positionAt(offset),
      });
      return answer.result?.items ?? [];
    };
    const inChild = await until(
      () => complete(treeUri, tree, tree.indexOf('"parameters": {  }') + '"parameters": { '.length),
      (items) => items.some((i) => i.label === 'AllowedLocations'),
    );
    assert.deepEqual(
      inChild.map((i) => [i.label, i.textEdit?.newText]),
      [['AllowedLocations', '"AllowedLocations": [$1]']],
    );

    const assignmentFile = path.join(root, 'alz', 'Audit-UnusedResources.alz_policy_assignment.json');
    const text = fs
      .readFileSync(assignmentFile, 'utf8')
      .replace(/("EffectDisks": \{\s*"value": )"Audit"/, '$1""')
      .replace('"parameters": {', '"nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": "" }],\n    "parameters": {');
    const uri = pathToFileURL(assignmentFile).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
    const values = await complete(uri, text, text.indexOf('"value": ""') + '"value": "'.length);
    assert.deepEqual(
      values.map((i) => i.label),
      ['Audit', 'Disabled'],
    );
    const references = await complete(
      uri,
      text,
      text.indexOf('"policyDefinitionReferenceId": "') + '"policyDefinitionReferenceId": "'.length,
    );
    assert.ok(
      references.some((i) => i.label === 'AuditDisksUnusedResourcesCostOptimization'),
      JSON.stringify(references.map((i) => i.label)),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a client that can refresh code lenses is asked to when a consumer is opened or changed', async () => {
  const root = workspace();
  try {
    const client = await startLanguageServer({
      rootUri: pathToFileURL(root).href,
      capabilities: { workspace: { codeLens: { refreshSupport: true } } },
    });
    const set = open(client, path.join(root, 'alz', 'Enforce-ALZ-Decomm.alz_policy_set_definition.json'));
    const title = async () =>
      (await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: set.uri } })).result?.[0]?.command?.title;
    assert.equal(await until(title, (t) => t === 'assigned in 1 place'), 'assigned in 1 place');
    // A new assignment of the set, open and not saved yet.
    const before = client.serverRequestCount('workspace/codeLens/refresh');
    const copy = fs.readFileSync(path.join(root, 'alz', 'Enforce-ALZ-Decomm.alz_policy_assignment.json'), 'utf8');
    client.notify('textDocument/didOpen', {
      textDocument: { uri: pathToFileURL(path.join(root, 'unsaved.json')).href, languageId: 'json', version: 1, text: copy },
    });
    await client.waitForServerRequest('workspace/codeLens/refresh', 10000, { after: before });
    assert.equal(await title(), 'assigned in 2 places');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

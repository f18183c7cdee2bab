// Completion: the cursor is the `|` in each input. Every context is also checked on broken JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePolicyDocument, validateText, DefinitionCatalog, ITEM_TYPES } from '#service';
import { getCompletions, type CompletionOptions } from '#features';
import { SUBSET } from '../support/corpus';
import { sliceOf, a1, a3, template, defId } from '../support/ruleTester';

type Item = Awaited<ReturnType<typeof getCompletions>>['items'][number];

interface Completed {
  text: string;
  offset: number;
  labels: string[];
  items: Item[];
  item(label: string): Item;
  /** The text the item's edit replaces. */
  replaced(label: string): string;
  newText(label: string): string;
}

async function complete(source: string, options?: CompletionOptions): Promise<Completed> {
  const offset = source.indexOf('|');
  assert.ok(offset >= 0 && source.indexOf('|', offset + 1) < 0, 'exactly one | marks the cursor');
  const text = source.slice(0, offset) + source.slice(offset + 1);
  const list = await getCompletions(parsePolicyDocument(text), offset, options);
  // The language server asks without the set models (completion builds what it needs): the same answer.
  const withoutModel = await getCompletions(parsePolicyDocument(text, { model: false }), offset, options);
  assert.deepEqual(withoutModel, list, 'the same completions without the prebuilt set models');
  const item = (label: string) => {
    const found = list.items.find((i) => i.label === label);
    assert.ok(found, `no item '${label}' among: ${list.items.map((i) => i.label).join(', ')}`);
    return found;
  };
  const edit = (label: string) => {
    const e = item(label).textEdit;
    assert.ok(e && 'range' in e, `'${label}' has a text edit with a range`);
    return e;
  };
  return {
    text,
    offset,
    labels: list.items.map((i) => i.label),
    items: list.items,
    item,
    replaced: (label) => sliceOf(text, edit(label).range),
    newText: (label) => edit(label).newText,
  };
}

/** The text of a snippet with each placeholder replaced by its default (or first choice). */
function expandSnippet(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]*)[^|]*\|\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '')
    .replace(/\\([$}\\])/g, '$1');
}

// ---- A catalog with one known definition --------------------------------------------------------

const DEF = defId('11111111-2222-3333-4444-555555555555');
const catalog = new DefinitionCatalog();
catalog.addIndex([
  {
    id: DEF,
    name: '11111111-2222-3333-4444-555555555555',
    displayName: 'Audit storage accounts',
    version: '2.1.0',
    versions: ['2.1.0', '2.0.0', '1.0.1'],
    parameters: {
      effect: { type: 'String', allowedValues: ['Audit', 'Deny', 'Disabled'], defaultValue: 'Audit' },
      allowedLocations: { type: 'Array', strongType: 'location' },
      minimumTlsVersion: { type: 'String' },
      enabled: { type: 'Boolean', defaultValue: true },
    },
  },
]);
const withCatalog: CompletionOptions = { definitions: catalog };

// ---- metadata.strongType ---------------------------------------------------------------------------

const DOCUMENTED = ['location', 'resourceTypes', 'storageSkus', 'vmSKUs', 'existingResourceGroups', 'omsWorkspace'];
const setWithStrongType = (value: string) =>
  a3(`{
    "parameters": { "where": { "type": "String", "metadata": { "displayName": "Where", "strongType": ${value} } } },
    "policyDefinitions": [{ "policyDefinitionId": "${DEF}" }]
  }`);

test('strongType: the documented values, resource types and every corpus value; the edit replaces the whole string', async () => {
  const c = await complete(setWithStrongType('"lo|c"'));
  for (const value of DOCUMENTED) assert.ok(c.labels.includes(value), value);
  for (const value of [
    'Microsoft.Network/virtualNetworks',
    'Microsoft.Network/virtualNetworks/subnets',
    'Microsoft.KeyVault/vaults',
    'ExistingResourceGroups',
    'VMSKUs',
    'MachineConfiguration/BaselineSettings',
  ]) {
    assert.ok(c.labels.includes(value), value);
  }
  assert.equal(c.replaced('location'), '"loc"');
  assert.equal(c.newText('location'), '"location"');
  assert.match(String(c.item('omsWorkspace').documentation), /Log Analytics workspace/);
  // A template for any resource type, and nothing from the schema (keys, other values).
  assert.equal(c.newText('<Namespace>/<type>'), '"${1:Microsoft.Namespace}/${2:resourceType}"');
  assert.ok(!c.labels.includes('$schema'));
});

test('strongType: after the colon, before any quote, the value is inserted quoted at the cursor', async () => {
  const c = await complete(setWithStrongType('|'));
  assert.equal(c.replaced('omsWorkspace'), '');
  assert.equal(c.newText('omsWorkspace'), '"omsWorkspace"');
});

test('strongType: on broken JSON (an unterminated string, no closing braces)', async () => {
  const c = await complete(`{ "properties": { "parameters": { "where": { "type": "String", "metadata": { "strongType": "Microsoft.Net|\n`);
  assert.ok(c.labels.includes('Microsoft.Network/privateDnsZones'));
  assert.equal(c.replaced('location'), '"Microsoft.Net');
  // A half-typed key on the line before does not confuse it either: the key before the cursor on its line decides.
  const c2 = await complete(
    `{ "properties": { "parameters": { "where": { "type": "String", "metadata": { "displ\n "strongType": "lo|" } } }, "policyDefinitions": [] } }`,
  );
  assert.ok(c2.labels.includes('location'));
  assert.equal(c2.replaced('location'), '"lo"');
  const c3 = await complete(
    `{ "properties": { "parameters": { "where": { "type": "String", "metadata": { "displayName": "x"\n "strongType": | } } }, "policyDefinitions": [] } }`,
  );
  assert.equal(c3.replaced('location'), '');
});

test('strongType: in a set inside an ARM template, and in a policy definition document', async () => {
  const t = await complete(
    template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "s",
      "properties": { "parameters": { "p": { "type": "String", "metadata": { "strongType": "|" } } }, "policyDefinitions": [] }
    }`),
  );
  assert.ok(t.labels.includes('location'));
  const d = await complete(
    '{ "properties": { "policyRule": {}, "parameters": { "p": { "type": "String", "metadata": { "strongType": "|" } } } } }',
  );
  assert.ok(d.labels.includes('existingResourceGroups'));
});

test('strongType values are not offered elsewhere', async () => {
  const c = await complete(setWithStrongType('"location"').replace('"displayName": "Where"', '"displayName": "|"'));
  assert.ok(!c.labels.includes('location'));
});

// ---- ItemType ------------------------------------------------------------------------------------

test('ItemType: all 44 values in a workspace item type, on valid and broken JSON', async () => {
  const ws = '"workspaceId": "f089354e-8366-4e18-aea3-4cb4a3a50b48"';
  const c = await complete(`{ ${ws}, "displayName": "x", "type": "Ev|" }`);
  assert.deepEqual(
    ITEM_TYPES.filter((t) => !c.labels.includes(t)),
    [],
  );
  assert.equal(c.replaced('Eventstream'), '"Ev"');
  assert.equal(c.newText('Eventstream'), '"Eventstream"');
  const broken = await complete(`{ ${ws}, "type": |`);
  assert.equal(broken.items.filter((i) => (ITEM_TYPES as readonly string[]).includes(i.label)).length, 44);
  assert.equal(broken.replaced('Lakehouse'), '');
  // Not in a policy set's type.
  const set = await complete('{ "type": "|", "properties": { "policyDefinitions": [] } }');
  assert.ok(!set.labels.includes('Eventstream'));
});

test('workspace items: keys come from their schema', async () => {
  const c = await complete('{ "workspaceId": "f089354e-8366-4e18-aea3-4cb4a3a50b48", "|" }');
  for (const key of ['id', 'displayName', 'type', 'sensitivityLabel', 'tags', 'folderId']) assert.ok(c.labels.includes(key), key);
});

// ---- groupNames ------------------------------------------------------------------------------------

const GROUPS = `"policyDefinitionGroups": [
      { "name": "Identity", "displayName": "Identity and access", "category": "Security" },
      { "name": "Network", "displayName": "Network controls" },
      { "name": "Logging" }
    ]`;

test('groupNames: the declared groups, with displayName and category; groups already listed are left out', async () => {
  const c = await complete(
    a3(`{
    ${GROUPS},
    "policyDefinitions": [{ "policyDefinitionId": "${DEF}", "groupNames": ["Logging", "Ne|"] }]
  }`),
  );
  assert.deepEqual([...c.labels].sort(), ['Identity', 'Network']);
  assert.equal(c.item('Identity').detail, 'Identity and access (Security)');
  assert.equal(c.replaced('Network'), '"Ne"');
  assert.equal(c.newText('Network'), '"Network"');
});

test('groupNames: in an empty array, and on broken JSON with the groups declared above', async () => {
  const c = await complete(a3(`{ ${GROUPS}, "policyDefinitions": [{ "policyDefinitionId": "${DEF}", "groupNames": [|] }] }`));
  assert.deepEqual([...c.labels].sort(), ['Identity', 'Logging', 'Network']);
  assert.equal(c.replaced('Logging'), '');
  const broken = await complete(
    `{ "properties": { ${GROUPS}, "policyDefinitions": [ { "policyDefinitionId": "${DEF}", "groupNames": ["Id|`,
  );
  assert.ok(broken.labels.includes('Identity'));
  assert.equal(broken.replaced('Identity'), '"Id');
});

// ---- [parameters('x')] -------------------------------------------------------------------------------

const SET_PARAMETERS = `"parameters": {
      "effect": { "type": "String", "metadata": { "displayName": "Effect", "description": "The effect of every policy" } },
      "effectForStorage": { "type": "String" },
      "locations": { "type": "Array" }
    }`;
const withValue = (value: string) =>
  a3(`{
    ${SET_PARAMETERS},
    "policyDefinitions": [{ "policyDefinitionId": "${DEF}", "parameters": { "effect": { "value": ${value} } } }]
  }`);

test("parameters('|'): the set's parameters; the edit replaces exactly the name", async () => {
  const c = await complete(withValue(`"[parameters('eff|')]"`));
  assert.deepEqual([...c.labels].sort(), ['effect', 'effectForStorage', 'locations']);
  assert.equal(c.replaced('effect'), 'eff');
  assert.equal(c.newText('effect'), 'effect');
  assert.equal(c.item('effect').detail, 'set parameter: String');
  // The cursor in the middle of a name: the whole name is replaced, not the quote or bracket after it.
  const middle = await complete(withValue(`"[parameters('eff|ect')]"`));
  assert.equal(middle.replaced('locations'), 'effect');
  const empty = await complete(withValue(`"[parameters('|')]"`));
  assert.equal(empty.replaced('locations'), '');
  assert.equal(empty.newText('locations'), 'locations');
});

test('parameters(|: right after the parenthesis, the name is inserted with its quotes', async () => {
  const c = await complete(withValue(`"[parameters(|)]"`));
  assert.equal(c.replaced('effect'), '');
  assert.equal(c.newText('effect'), "'effect'");
});

test('parameters() inside a larger expression, and in an array value', async () => {
  const c = await complete(withValue(`"[if(equals(parameters('|'), 'Deny'), 'Deny', parameters('effect'))]"`));
  assert.ok(c.labels.includes('effectForStorage'));
  assert.equal(c.replaced('effectForStorage'), '');
  const arr = await complete(withValue(`["[parameters('loc|')]"]`));
  assert.equal(arr.replaced('locations'), 'loc');
});

test('parameters() on broken JSON: an unterminated string and no closing brackets', async () => {
  const c = await complete(
    `{ "properties": { ${SET_PARAMETERS}, "policyDefinitions": [ { "policyDefinitionId": "${DEF}", "parameters": { "effect": { "value": "[parameters('e|`,
  );
  assert.ok(c.labels.includes('effect'));
  assert.equal(c.replaced('effect'), 'e');
});

test("parameters() in an ARM template: '[[' names the set's parameters, '[' the template's", async () => {
  const resource = (value: string) => `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "s",
      "properties": {
        ${SET_PARAMETERS},
        "policyDefinitions": [{ "policyDefinitionId": "${DEF}", "parameters": { "effect": { "value": ${value} } } }]
      }
    }`;
  const templateParameters = '{ "defaultEffect": { "type": "string" } }';
  const escaped = await complete(template(resource(`"[[parameters('|')]"`), templateParameters));
  assert.deepEqual([...escaped.labels].sort(), ['effect', 'effectForStorage', 'locations']);
  const evaluated = await complete(template(resource(`"[parameters('|')]"`), templateParameters));
  assert.deepEqual(evaluated.labels, ['defaultEffect']);
  assert.equal(evaluated.item('defaultEffect').detail, 'template parameter: string');
  // Outside a template, '[[' is a literal string: no names.
  const literal = await complete(withValue(`"[[parameters('|')]"`));
  assert.deepEqual(literal.labels, []);
});

test("parameters() in a template fragment (a set resource with apiVersion, its template not in sight): '[[' names the set's parameters", async () => {
  const fragment = (value: string) => `{
  "type": "Microsoft.Authorization/policySetDefinitions",
  "apiVersion": "2021-06-01",
  "name": "s",
  "properties": {
    ${SET_PARAMETERS},
    "policyDefinitions": [{ "policyDefinitionId": "${DEF}", "parameters": { "effect": { "value": ${value} } } }]
  }
}`;
  const escaped = await complete(fragment(`"[[parameters('|')]"`));
  assert.deepEqual([...escaped.labels].sort(), ['effect', 'effectForStorage', 'locations']);
  const typed = await complete(fragment(`"[[parameters('eff|')]"`));
  assert.ok(typed.labels.includes('effectForStorage'));
  assert.equal(typed.replaced('effectForStorage'), 'eff');
});

test('no parameter names in a plain string value', async () => {
  const c = await complete(withValue(`"parameters(|"`));
  assert.ok(!c.labels.includes('effect'));
});

// ---- The referenced definition's parameters ------------------------------------------------------------

const withReferenceParameters = (body: string, id = DEF) =>
  a3(`{
    "policyDefinitions": [{ "policyDefinitionId": "${id}", "parameters": { ${body} } }]
  }`);

test("a reference's parameters: the definition's parameters, required ones first, with a snippet on a new key", async () => {
  const c = await complete(withReferenceParameters('|'), withCatalog);
  assert.deepEqual(c.labels, ['allowedLocations', 'minimumTlsVersion', 'effect', 'enabled']);
  assert.match(String(c.item('allowedLocations').detail), /^Array · required/);
  assert.match(String(c.item('effect').detail), /^String · Audit storage accounts/);
  assert.match(JSON.stringify(c.item('effect').documentation), /Allowed values/);
  assert.equal(c.newText('effect'), '"effect": {\n\t"value": "${1|Audit,Deny,Disabled|}"\n}');
  assert.equal(c.newText('allowedLocations'), '"allowedLocations": {\n\t"value": [$1]\n}');
  assert.equal(c.newText('enabled'), '"enabled": {\n\t"value": ${1|true,false|}\n}');
  assert.equal(c.replaced('effect'), '');
});

test("a reference's parameters: those present are left out; a half-typed key is replaced by the snippet", async () => {
  const c = await complete(withReferenceParameters('"effect": { "value": "Deny" }, "allo|"'), withCatalog);
  assert.ok(!c.labels.includes('effect'));
  assert.equal(c.replaced('allowedLocations'), '"allo"');
  assert.match(c.newText('allowedLocations'), /^"allowedLocations": \{/);
});

test("a reference's parameters: renaming a key that has a value replaces only the key", async () => {
  const c = await complete(withReferenceParameters('"eff|": { "value": "Deny" }'), withCatalog);
  assert.equal(c.replaced('effect'), '"eff"');
  assert.equal(c.newText('effect'), '"effect"');
});

test("a reference's parameters on broken JSON, and with an unknown definition", async () => {
  const broken = await complete(
    `{ "properties": { "policyDefinitions": [ { "policyDefinitionId": "${DEF}", "parameters": { "min|`,
    withCatalog,
  );
  assert.ok(broken.labels.includes('minimumTlsVersion'));
  assert.equal(broken.replaced('minimumTlsVersion'), '"min');
  const unknown = await complete(withReferenceParameters('|', defId('not-known')), withCatalog);
  assert.deepEqual(unknown.labels, []);
  const noCatalog = await complete(withReferenceParameters('|'));
  assert.deepEqual(noCatalog.labels, []);
});

// ---- definitionVersion ---------------------------------------------------------------------------------

test('definitionVersion: the known versions, newest first, and the major-version wildcards', async () => {
  const c = await complete(a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${DEF}", "definitionVersion": "|" }] }`), withCatalog);
  assert.deepEqual(c.labels, ['2.*.*', '1.*.*', '2.1.0', '2.0.0', '1.0.1']);
  assert.equal(c.item('2.1.0').detail, 'latest known version');
  assert.equal(c.replaced('1.*.*'), '""');
  // Before the id, on broken JSON.
  const broken = await complete(
    `{ "properties": { "policyDefinitions": [ { "definitionVersion": "2|", "policyDefinitionId": "${DEF}" `,
    withCatalog,
  );
  assert.ok(broken.labels.includes('2.0.0'));
});

// ---- Schema keys and enum values ----------------------------------------------------------------------

test('schema completions: keys of a reference and policyType values', async () => {
  const keys = await complete(a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${DEF}", "|" }] }`));
  for (const key of ['policyDefinitionReferenceId', 'definitionVersion', 'groupNames', 'parameters'])
    assert.ok(keys.labels.includes(key), key);
  assert.ok(!keys.labels.includes('policyDefinitionId'), 'a key already present is not offered');
  const policyType = await complete(a3('{ "policyType": "|", "policyDefinitions": [] }'));
  for (const value of ['"BuiltIn"', '"Custom"', '"NotSpecified"', '"Static"']) assert.ok(policyType.labels.includes(value), value);
  const version = await complete(a1('{ "policyDefinitions": [], "|" }'));
  assert.ok(version.labels.includes('policyDefinitionGroups'));
  assert.ok(!version.labels.includes('versions'), 'a response-only key of A3 is not offered in A1');
});

// ---- Snippets -------------------------------------------------------------------------------------------

test('snippets: a whole policy set and a whole version resource in an empty document; each is valid as inserted', async () => {
  const c = await complete('|');
  for (const label of ['policy set definition', 'policy set definition version']) {
    const item = c.item(label);
    assert.equal(item.kind, 15 /* Snippet */);
    assert.equal(item.insertTextFormat, 2 /* Snippet */);
    const result = validateText(expandSnippet(c.newText(label)));
    assert.equal(result.kind, label.endsWith('version') ? 'policySetDefinitionVersion' : 'policySetDefinition');
    assert.deepEqual(
      result.diagnostics.filter((d) => d.severity === 1),
      [],
      label,
    );
  }
  // In an empty object: the body of the resource.
  const inside = await complete('{\n  |\n}');
  const body = inside.newText('policy set definition');
  assert.ok(!body.startsWith('{'));
  assert.equal(validateText(`{${expandSnippet(body)}}`).kind, 'policySetDefinition');
  // Not once the object has other keys.
  const later = await complete('{ "properties": {}, | }');
  assert.ok(!later.labels.includes('policy set definition'));
});

test('snippets: a new reference, group and parameter where each belongs', async () => {
  const ref = await complete(a3(`{ ${SET_PARAMETERS}, "policyDefinitions": [{ "policyDefinitionId": "${DEF}" }, |] }`));
  const reference = expandSnippet(ref.newText('new policy definition reference'));
  assert.equal(ref.item('new policy definition reference').kind, 15);
  const withReference = a3(
    `{ ${GROUPS.replace(/\{ "name": "Logging" \}/, '{ "name": "Logging" }')}, "policyDefinitions": [${reference.replace('"groupNames": []', '"groupNames": ["Logging", "Identity", "Network"]')}] }`,
  );
  assert.deepEqual(
    validateText(withReference).diagnostics.filter((d) => d.severity === 1),
    [],
  );

  const group = await complete(a3(`{ "policyDefinitionGroups": [|], "policyDefinitions": [] }`));
  assert.match(group.newText('new group'), /"name": "\$\{1:groupName\}"/);
  assert.ok(!group.labels.includes('new policy definition reference'));

  const parameter = await complete(a3(`{ "parameters": { | }, "policyDefinitions": [] }`));
  const declared = expandSnippet(parameter.newText('new parameter'));
  const doc = parsePolicyDocument(a3(`{ "parameters": { ${declared} }, "policyDefinitions": [] }`));
  assert.equal(doc.sets[0].parameters[0]?.name, 'parameterName');
  assert.equal(doc.sets[0].parameters[0]?.type, 'String');
  // Over a half-typed key, the snippet replaces it.
  const typed = await complete(a3(`{ "parameters": { "ne|" }, "policyDefinitions": [] }`));
  assert.equal(typed.replaced('new parameter'), '"ne"');
  // Not among a reference's parameters.
  const refParams = await complete(withReferenceParameters('|'));
  assert.ok(!refParams.labels.includes('new parameter'));
});

// ---- Robustness and the corpus -------------------------------------------------------------------------

test('every offset of a broken document answers without throwing', async () => {
  const source = withValue(`"[parameters('eff')]"`)
    .replace(/\}\s*$/, '')
    .replace('"policyDefinitions"', '"policyDefinitions" ');
  for (let cut = 0; cut <= source.length; cut += 7) {
    const text = source.slice(0, cut);
    const document = parsePolicyDocument(text);
    for (const offset of new Set([0, Math.floor(cut / 2), cut])) await getCompletions(document, offset, withCatalog);
  }
  // Nesting far too deep for a recursive parser: an empty answer, not a stack overflow.
  const deep = '['.repeat(100_000);
  assert.deepEqual((await getCompletions(parsePolicyDocument(deep), 50_000)).items, []);
  // Out-of-range offsets are clamped.
  const doc = parsePolicyDocument('{ "a": 1 }');
  await getCompletions(doc, -5);
  await getCompletions(doc, 1e9);
});

/**
 * A well-formed document is located from its tree; a broken one by jsonc-parser's scanner. A syntax error
 * after the end (' x') sends the same document down the scanner's path: both must answer the same, at
 * every offset.
 */
async function assertSameFromTreeAndScanner(text: string, options?: CompletionOptions): Promise<number> {
  const fromTree = parsePolicyDocument(text);
  const fromScanner = parsePolicyDocument(`${text} x`);
  assert.equal(fromTree.parsed.syntaxErrors.length, 0);
  assert.ok(fromScanner.parsed.syntaxErrors.length > 0);
  const describe = async (document: typeof fromTree, offset: number) =>
    (await getCompletions(document, offset, options)).items
      .map((i) => `${i.label} ${i.textEdit && 'range' in i.textEdit ? sliceOf(text, i.textEdit.range) : ''}`)
      .sort()
      .join('\n');
  let nonEmpty = 0;
  for (let offset = 1; offset < text.length; offset++) {
    const tree = await describe(fromTree, offset);
    assert.equal(
      tree,
      await describe(fromScanner, offset),
      `at ${offset}: ${JSON.stringify(text.slice(offset - 30, offset))}|${JSON.stringify(text.slice(offset, offset + 15))}`,
    );
    if (tree) nonEmpty++;
  }
  return nonEmpty;
}

test('the tree and the scanner find the same place at every offset of a document with every context', async () => {
  const text = a3(`{
    ${SET_PARAMETERS.replace('"displayName": "Effect"', '"displayName": "Effect", "strongType": "location"')},
    ${GROUPS},
    "policyDefinitions": [
      {
        "policyDefinitionId": "${DEF}",
        "definitionVersion": "2.*.*",
        "groupNames": ["Identity", "Network"],
        "parameters": { "effect": { "value": "[parameters('effect')]" }, "allowedLocations": { "value": ["[parameters('locations')]"] } }
      },
      { "policyDefinitionId": "${DEF}", "parameters": {}, "groupNames": [] }
    ]
  }`);
  const answered = await assertSameFromTreeAndScanner(text, withCatalog);
  assert.ok(answered > text.length / 3, `completions at ${answered} of ${text.length} offsets`);
});

// Built-in sets of the corpus subset in the repository: the same files are in the full corpus.
test('the tree and the scanner agree at every offset of a corpus file', async () => {
  const text = fs.readFileSync(path.join(SUBSET.sets, 'Azure_Government', 'VirtualEnclaves', 'AppServiceInitiative.json'), 'utf8');
  await assertSameFromTreeAndScanner(text);
});

test('the largest corpus file: completion at several positions (timings printed)', async () => {
  const file = path.join(SUBSET.sets, 'Regulatory_Compliance', 'Spain_ENS.json');
  const text = fs.readFileSync(file, 'utf8');
  const definitions = new DefinitionCatalog();
  definitions.addIndex(JSON.parse(fs.readFileSync(SUBSET.index, 'utf8')));
  const parseStart = performance.now();
  const document = parsePolicyDocument(text);
  const parseMs = performance.now() - parseStart;
  const at = (needle: string, from = 0, delta = 0) => {
    const i = text.indexOf(needle, from);
    assert.ok(i >= 0, needle);
    return i + delta;
  };
  const lastReference = text.lastIndexOf('"policyDefinitionId"');
  const positions: Array<{ name: string; offset: number; expect: (labels: string[]) => void }> = [
    {
      name: 'strongType value',
      offset: at('"strongType": "location"', 0, '"strongType": "loc'.length),
      expect: (l) => assert.ok(l.includes('location')),
    },
    {
      name: 'groupNames entry (last reference)',
      offset: at('"', at('"groupNames": [', lastReference, '"groupNames": ['.length), 2),
      expect: (l) => assert.ok(l.length > 10),
    },
    {
      name: "parameters('|') (last reference)",
      offset: at("[parameters('", lastReference, "[parameters('".length),
      expect: (l) => assert.ok(l.length > 100),
    },
    {
      // The definition's parameters that the reference does not set yet: here its only one, effect, is set already.
      name: 'reference parameter key (last reference)',
      offset: at('"parameters": {', lastReference, '"parameters": {'.length),
      expect: (l) => {
        const id = /"policyDefinitionId": "([^"]+)"/.exec(text.slice(lastReference))![1];
        const known = [...(definitions.lookup(id)[0]?.parameters.values() ?? [])].map((parameter) => parameter.name);
        const set = Object.keys(
          (JSON.parse(text).properties.policyDefinitions as Array<{ policyDefinitionId: string; parameters?: object }>)
            .filter((r) => r.policyDefinitionId === id)
            .pop()?.parameters ?? {},
        );
        assert.ok(known.length > 0, `the index knows ${id}`);
        assert.deepEqual(l.map((label) => label.replace(/^"|"$/g, '')).sort(), known.filter((name) => !set.includes(name)).sort());
      },
    },
    {
      name: 'reference key (first reference)',
      offset: at('"policyDefinitionReferenceId"', 0, 1),
      expect: (l) => assert.ok(l.includes('policyDefinitionReferenceId') && !l.includes('policyDefinitionId')),
    },
    {
      name: 'policyType value',
      offset: at('"policyType": "', 0, '"policyType": "'.length + 1),
      expect: (l) => assert.ok(l.includes('"Custom"')),
    },
  ];
  const lines = [`# Spain_ENS.json (${Math.round(text.length / 1024)} KB): parse ${parseMs.toFixed(1)} ms`];
  for (const { name, offset, expect } of positions) {
    const times: number[] = [];
    let labels: string[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      labels = (await getCompletions(document, offset, { definitions })).items.map((item) => item.label);
      times.push(performance.now() - start);
    }
    expect(labels);
    const first = times[0];
    times.sort((a, b) => a - b);
    lines.push(`#   ${name}: ${labels.length} items; first call ${first.toFixed(1)} ms, median of 5 ${times[2].toFixed(1)} ms`);
  }
  console.log(lines.join('\n'));
});

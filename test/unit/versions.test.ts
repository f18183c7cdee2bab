// The change model of set versions (server/src/service/versions): one pair per class, table-driven, on
// every dialect the linter reads, and the version arithmetic.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { CORPORA, listJsonFiles } from '../support/corpus';
import { compareTexts, readSplitSide, compareSets, checkVersions, parseVersion, nextVersion, bumpBetween, validateText, type ChangeReport, type CompareOptions } from '#service';

const DEF_A = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
const DEF_B = '/providers/Microsoft.Authorization/policyDefinitions/0a075868-4c26-42ef-914c-5bc007359560';
const DEF_C = '/providers/Microsoft.Authorization/policyDefinitions/1e30110a-5ceb-460c-a204-c1c3969c6d62';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The set every pair starts from: two parameters, two groups, two references. */
function base(): Json {
  return {
    name: 'versioned-set',
    properties: {
      displayName: 'Versioned set',
      description: 'A set to change',
      policyType: 'Custom',
      version: '1.2.3',
      metadata: { category: 'Tags', version: '1.2.3' },
      parameters: {
        effect: { type: 'String', allowedValues: ['Audit', 'Deny', 'Disabled'], defaultValue: 'Audit', metadata: { displayName: 'Effect' } },
        tagName: { type: 'String', metadata: { displayName: 'Tag name' } },
      },
      policyDefinitionGroups: [{ name: 'Network', displayName: 'Network' }, { name: 'Tags' }],
      policyDefinitions: [
        { policyDefinitionReferenceId: 'ref1', policyDefinitionId: DEF_A, definitionVersion: '1.*.*', parameters: { effect: { value: "[parameters('effect')]" } }, groupNames: ['Network'] },
        { policyDefinitionReferenceId: 'ref2', policyDefinitionId: DEF_B, parameters: { tagName: { value: "[parameters('tagName')]" } }, groupNames: ['Tags'] },
      ],
    },
  };
}

function compare(oldSet: Json | string, newSet: Json | string, options: CompareOptions = {}): ChangeReport {
  const text = (s: Json | string) => (typeof s === 'string' ? s : JSON.stringify(s, null, 2));
  const result = compareTexts({ file: 'old.json', text: text(oldSet) }, { file: 'new.json', text: text(newSet) }, options);
  assert.ok(result.ok, result.ok ? '' : result.problem);
  assert.equal(result.reports.length, 1);
  return result.reports[0];
}

interface Pair {
  name: string;
  change: (set: Json) => void;
  bump: 'major' | 'minor' | 'patch' | 'none';
  kinds: string[];
  /** The pointer of the first change. */
  path?: string;
}

const P = (set: Json) => set.properties;

const pairs: Pair[] = [
  // major
  { name: 'a parameter removed', change: (s) => { delete P(s).parameters.tagName; delete P(s).policyDefinitions[1].parameters; }, bump: 'major', kinds: ['parameter-removed', 'reference-parameters-changed'], path: '/properties/parameters/tagName' },
  { name: "a parameter's type changed", change: (s) => (P(s).parameters.tagName.type = 'Array'), bump: 'major', kinds: ['parameter-type-changed'], path: '/properties/parameters/tagName/type' },
  { name: 'allowedValues narrowed', change: (s) => (P(s).parameters.effect.allowedValues = ['Audit', 'Disabled']), bump: 'major', kinds: ['allowed-values-narrowed'], path: '/properties/parameters/effect/allowedValues' },
  { name: 'allowedValues added where there were none', change: (s) => (P(s).parameters.tagName.allowedValues = ['env']), bump: 'major', kinds: ['allowed-values-narrowed'] },
  { name: 'a parameter added without defaultValue', change: (s) => (P(s).parameters.owner = { type: 'String' }), bump: 'major', kinds: ['parameter-added-without-default'], path: '/properties/parameters/owner' },
  { name: 'a defaultValue removed', change: (s) => delete P(s).parameters.effect.defaultValue, bump: 'major', kinds: ['default-value-removed'] },
  { name: 'a reference removed', change: (s) => P(s).policyDefinitions.pop(), bump: 'major', kinds: ['reference-removed'], path: '/properties/policyDefinitions/1' },
  { name: 'a policyDefinitionReferenceId renamed', change: (s) => (P(s).policyDefinitions[0].policyDefinitionReferenceId = 'first'), bump: 'major', kinds: ['reference-id-changed'], path: '/properties/policyDefinitions/0/policyDefinitionReferenceId' },
  { name: 'a policyDefinitionReferenceId removed', change: (s) => delete P(s).policyDefinitions[0].policyDefinitionReferenceId, bump: 'major', kinds: ['reference-id-changed'] },
  { name: "a reference's policyDefinitionId changed", change: (s) => (P(s).policyDefinitions[0].policyDefinitionId = DEF_C), bump: 'major', kinds: ['definition-id-changed'], path: '/properties/policyDefinitions/0/policyDefinitionId' },
  { name: 'definitionVersion moved to another major', change: (s) => (P(s).policyDefinitions[0].definitionVersion = '2.*.*'), bump: 'major', kinds: ['definition-version-major-changed'] },
  { name: 'a group removed that references name', change: (s) => { P(s).policyDefinitionGroups.pop(); delete P(s).policyDefinitions[1].groupNames; }, bump: 'major', kinds: ['group-removed', 'reference-groups-changed'] },
  { name: 'a parameter renamed (one change)', change: (s) => { P(s).parameters.tag = P(s).parameters.tagName; delete P(s).parameters.tagName; P(s).policyDefinitions[1].parameters.tagName.value = "[parameters('tag')]"; }, bump: 'major', kinds: ['parameter-renamed'], path: '/properties/parameters/tag' },
  // minor
  { name: 'a parameter added with defaultValue', change: (s) => (P(s).parameters.owner = { type: 'String', defaultValue: 'ops' }), bump: 'minor', kinds: ['parameter-added-with-default'] },
  { name: 'allowedValues widened', change: (s) => P(s).parameters.effect.allowedValues.push('AuditIfNotExists'), bump: 'minor', kinds: ['allowed-values-widened'] },
  { name: 'a reference added', change: (s) => P(s).policyDefinitions.push({ policyDefinitionReferenceId: 'ref3', policyDefinitionId: DEF_C }), bump: 'minor', kinds: ['reference-added'], path: '/properties/policyDefinitions/2' },
  { name: 'a group added', change: (s) => P(s).policyDefinitionGroups.push({ name: 'Identity' }), bump: 'minor', kinds: ['group-added'] },
  { name: 'a defaultValue changed', change: (s) => (P(s).parameters.effect.defaultValue = 'Deny'), bump: 'minor', kinds: ['default-value-changed'] },
  { name: 'definitionVersion within its major', change: (s) => (P(s).policyDefinitions[0].definitionVersion = '1.2.*'), bump: 'minor', kinds: ['definition-version-changed'] },
  // patch
  { name: 'the display name', change: (s) => (P(s).displayName = 'Versioned set (renamed)'), bump: 'patch', kinds: ['display-name-changed'], path: '/properties/displayName' },
  { name: 'the description', change: (s) => (P(s).description = 'Another description'), bump: 'patch', kinds: ['description-changed'] },
  { name: 'metadata', change: (s) => (P(s).metadata.category = 'General'), bump: 'patch', kinds: ['metadata-changed'] },
  { name: 'parameter metadata', change: (s) => (P(s).parameters.effect.metadata.description = 'What to do'), bump: 'patch', kinds: ['parameter-metadata-changed'] },
  { name: "a group's display name", change: (s) => (P(s).policyDefinitionGroups[0].displayName = 'Networking'), bump: 'patch', kinds: ['group-metadata-changed'] },
  { name: "a group's description", change: (s) => (P(s).policyDefinitionGroups[1].description = 'Tagging'), bump: 'patch', kinds: ['group-metadata-changed'] },
  // none
  { name: 'policyType', change: (s) => (P(s).policyType = 'BuiltIn'), bump: 'patch', kinds: ['policy-type-changed'] },
  { name: "a reference's groupNames", change: (s) => P(s).policyDefinitions[0].groupNames.push('Tags'), bump: 'patch', kinds: ['reference-groups-changed'] },
  { name: 'a defaultValue added', change: (s) => (P(s).parameters.tagName.defaultValue = 'env'), bump: 'minor', kinds: ['default-value-added'] },
  { name: 'a value passed to a definition', change: (s) => (P(s).policyDefinitions[0].parameters.effect.value = 'Audit'), bump: 'minor', kinds: ['reference-parameters-changed'] },
  { name: "an Object parameter added with a default and a schema", change: (s) => (P(s).parameters.rules = { type: 'Object', defaultValue: {}, schema: { type: 'object' } }), bump: 'minor', kinds: ['parameter-added-with-default'] },
  { name: 'a group removed that nothing names', change: (s) => { P(s).policyDefinitionGroups.pop(); delete P(s).policyDefinitions[1].groupNames; }, bump: 'major', kinds: ['group-removed', 'reference-groups-changed'] },
  { name: 'the version alone', change: (s) => (P(s).version = '1.2.4'), bump: 'none', kinds: [] },
  { name: 'references reordered', change: (s) => P(s).policyDefinitions.reverse(), bump: 'none', kinds: [] },
];

describe('the change model: one pair per class', () => {
  for (const pair of pairs) {
    test(`${pair.name}: ${pair.bump}`, () => {
      const next = base();
      pair.change(next);
      const report = compare(base(), next);
      assert.deepEqual(report.changes.map((c) => c.kind).sort(), [...pair.kinds].sort(), JSON.stringify(report.changes.map((c) => c.message)));
      assert.equal(report.requiredBump, pair.bump);
      if (pair.path) assert.equal(report.changes[0].location.pointer, pair.path);
      for (const change of report.changes) assert.ok(change.location.range.start.line > 0, 'each change has a line');
    });
  }

  test('a reformatted file (indentation, key order, whitespace, CRLF): none', () => {
    const reordered = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(reordered) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)])) : value;
    const text = JSON.stringify(reordered(base()), null, '\t').replace(/\n/g, '\r\n');
    const report = compare(JSON.stringify(base()), text);
    assert.deepEqual(report.changes, []);
    assert.equal(report.requiredBump, 'none');
    assert.equal(report.versionOk, true);
  });

  test('a reference added is major when the setting says so', () => {
    const next = base();
    P(next).policyDefinitions.push({ policyDefinitionReferenceId: 'ref3', policyDefinitionId: DEF_C });
    assert.equal(compare(base(), next, { referenceAdded: 'major' }).requiredBump, 'major');
  });

  test('a rename with a different type is a removal and an addition', () => {
    const next = base();
    P(next).parameters.tag = { ...P(next).parameters.tagName, type: 'Array' };
    delete P(next).parameters.tagName;
    P(next).policyDefinitions[1].parameters.tagName.value = "[parameters('tag')]";
    const kinds = compare(base(), next).changes.map((c) => c.kind).sort();
    assert.deepEqual(kinds, ['parameter-added-without-default', 'parameter-removed', 'reference-parameters-changed']);
  });

  test('removal locations are in the old file, additions in the new one', () => {
    const next = base();
    delete P(next).parameters.effect.defaultValue;
    P(next).policyDefinitions.pop();
    const report = compare(base(), next);
    const removed = report.changes.find((c) => c.kind === 'reference-removed')!;
    assert.equal(removed.side, 'old');
    assert.equal(removed.location.file, 'old.json');
    assert.equal(report.changes.find((c) => c.kind === 'default-value-removed')!.location.file, 'new.json');
  });
});

describe('the version check', () => {
  test('a breaking change under 1.3.0 from 1.2.3 fails and suggests 2.0.0; under 2.0.0 it passes', () => {
    const next = base();
    delete P(next).parameters.tagName;
    P(next).version = '1.3.0';
    const low = compare(base(), next);
    assert.equal(low.requiredBump, 'major');
    assert.equal(low.versionOk, false);
    assert.equal(low.suggestedVersion, '2.0.0');
    assert.match(low.versionProblem!, /needs a major version.*use 2\.0\.0/);
    assert.equal(low.versionLocation?.pointer, '/properties/version');
    P(next).version = '2.0.0';
    assert.equal(compare(base(), next).versionOk, true);
  });

  test('the version comes from properties.version, else the version resource name, else metadata.version', () => {
    const viaName = { name: '1.4.0', properties: { policyDefinitions: P(base()).policyDefinitions } };
    const viaMetadata = { properties: { metadata: { version: '1.4.0' }, policyDefinitions: P(base()).policyDefinitions } };
    const old = base();
    delete P(old).version;
    assert.equal(compare(old, viaName).new?.version, '1.4.0');
    assert.equal(compare(old, viaMetadata).new?.version, '1.4.0');
    assert.equal(compare(old, viaMetadata).old?.version, '1.2.3', 'metadata.version of the old side');
  });

  test('no version on a side: the bump is reported, nothing fails', () => {
    const old = base();
    delete P(old).version;
    delete P(old).metadata.version;
    const next = structuredClone(old);
    delete P(next).parameters.tagName;
    const report = compare(old, next);
    assert.equal(report.requiredBump, 'major');
    assert.equal(report.versionOk, null);
    assert.match(report.versionProblem!, /Neither side has a version/);
  });

  test('arithmetic', () => {
    assert.deepEqual(nextVersion({ major: 1, minor: 2, patch: 3 }, 'major'), { major: 2, minor: 0, patch: 0 });
    assert.deepEqual(nextVersion({ major: 1, minor: 2, patch: 3 }, 'minor'), { major: 1, minor: 3, patch: 0 });
    assert.deepEqual(nextVersion({ major: 1, minor: 2, patch: 3 }, 'patch'), { major: 1, minor: 2, patch: 4 });
    assert.equal(bumpBetween({ major: 1, minor: 2, patch: 3 }, { major: 1, minor: 10, patch: 0 }), 'minor', '10 is more than 2 (numbers, not text)');
    assert.equal(checkVersions('1.2.3', '1.2.4', 'patch').ok, true);
    assert.equal(checkVersions('1.2.3', '1.2.4', 'minor').ok, false);
    assert.equal(checkVersions('1.2.3', '1.2.3', 'patch').ok, false, 'not greater');
    assert.equal(checkVersions('1.2.3', '1.2.2', 'none').ok, false, 'going back');
    assert.equal(checkVersions('1.2.3', '1.2.3', 'none').ok, true, 'no change, same version');
    assert.equal(checkVersions('1.9.0', '2.0.0', 'minor').ok, true, 'more than enough');
  });

  test('pre-release and odd version strings are refused clearly', () => {
    for (const [text, pattern] of [
      ['1.2.0-preview', /pre-release/],
      ['1.2.0+build.5', /pre-release or build/],
      ['v1.2.0', /not a version/],
      ['1.2', /not a version/],
      ['01.2.3.4', /not a version/],
      ['99999999999999999999.0.0', /too large/],
    ] as const) {
      const parsed = parseVersion(text);
      assert.equal(parsed.ok, false, text);
      if (!parsed.ok) assert.match(parsed.problem, pattern);
    }
    assert.equal(checkVersions('1.0.0', '2.0.0-preview', 'major').ok, false, 'a new pre-release version fails');
    const oldOdd = checkVersions('1.0.0-preview', '2.0.0', 'major');
    assert.equal(oldOdd.ok, null, 'an odd old version cannot be compared');
    assert.match(oldOdd.problem!, /old version '1\.0\.0-preview' is a pre-release/);
  });

  test('a failed or impossible check says why as a reason for code, beside the sentence', () => {
    const reasons = (
      [
        ['1.2.3', '1.2.4', 'patch'],
        ['1.2.3', '1.2.4', 'minor'],
        ['1.2.3', '1.2.3', 'patch'],
        ['1.2.3', '1.2.2', 'none'],
        ['1.0.0', '2.0.0-preview', 'major'],
        ['1.0.0-preview', '2.0.0', 'major'],
        [undefined, '2.0.0', 'major'],
        ['1.0.0', undefined, 'major'],
      ] as const
    ).map(([old, next, bump]) => checkVersions(old, next, bump).reason);
    assert.deepEqual(reasons, [undefined, 'notEnough', 'notGreater', 'notGreater', 'newInvalid', 'oldInvalid', 'missing', 'missing']);
  });
});

describe('dialects', () => {
  const template = (set: Json, version?: string) =>
    JSON.stringify(
      {
        $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
        contentVersion: '1.0.0.0',
        resources: [
          {
            type: 'Microsoft.Authorization/policySetDefinitions',
            apiVersion: '2025-11-01',
            name: set.name,
            properties: {
              ...P(set),
              ...(version ? { version } : {}),
              policyDefinitions: P(set).policyDefinitions.map((r: Json) => ({ ...r, parameters: JSON.parse(JSON.stringify(r.parameters ?? {}).replace(/\[parameters/g, '[[parameters')) })),
            },
          },
        ],
      },
      null,
      2,
    );

  test("an ARM template ('[[' escapes) against the standalone set: none; a removal inside it: major", () => {
    assert.equal(compare(base(), template(base())).requiredBump, 'none');
    const next = base();
    delete P(next).parameters.effect.defaultValue;
    const report = compare(template(base()), template(next));
    assert.equal(report.requiredBump, 'major');
    assert.equal(report.changes[0].location.pointer, '/resources/0/properties/parameters/effect');
  });

  test("the policy-as-code framework's form: references by policyDefinitionName", () => {
    const pac = (names: string[]) => ({
      $schema: 'https://raw.githubusercontent.com/Azure/enterprise-azure-policy-as-code/main/Schemas/policy-set-definition-schema.json',
      name: 'pac-set',
      properties: { displayName: 'PaC', policyDefinitions: names.map((n) => ({ policyDefinitionName: n })) },
    });
    const report = compare(pac(['a', 'b']), pac(['a']));
    assert.deepEqual(report.changes.map((c) => c.kind), ['reference-removed']);
    assert.equal(compare(pac(['a', 'b']), pac(['b', 'a'])).requiredBump, 'none');
  });

  test('a version resource (A1) named by its version', () => {
    const a1 = (name: string, set: Json) => ({ type: 'Microsoft.Authorization/policySetDefinitions/versions', name, properties: { ...P(set), version: undefined } });
    const next = base();
    P(next).parameters.effect.allowedValues = ['Audit'];
    const report = compare(a1('1.2.3', base()), a1('1.3.0', next));
    assert.equal(report.old?.version, '1.2.3');
    assert.equal(report.new?.version, '1.3.0');
    assert.equal(report.versionOk, false);
    assert.equal(report.suggestedVersion, '2.0.0');
  });

  test('split files: each change located in its part', () => {
    const parts = (set: Json, dir: string) =>
      readSplitSide({
        definitions: { uri: `${dir}/s.definitions.json`, text: JSON.stringify(P(set).policyDefinitions, null, 2) },
        parameters: { uri: `${dir}/s.parameters.json`, text: JSON.stringify(P(set).parameters, null, 2) },
        groups: { uri: `${dir}/s.groups.json`, text: JSON.stringify(P(set).policyDefinitionGroups, null, 2) },
      });
    const next = base();
    P(next).parameters.owner = { type: 'String' };
    const oldRead = parts(base(), 'old');
    const newRead = parts(next, 'new');
    assert.ok(oldRead.ok && newRead.ok);
    const report = compareSets(oldRead.sides[0], newRead.sides[0]);
    assert.equal(report.requiredBump, 'major');
    assert.equal(report.changes[0].location.file, 'new/s.parameters.json');
    assert.equal(report.changes[0].location.pointer, '/owner');
    const line = JSON.stringify(P(next).parameters, null, 2).split('\n').findIndex((l) => l.includes('"owner"'));
    assert.equal(report.changes[0].location.range.start.line, line);
  });

  test('a schema changed on an Object parameter: major', () => {
    const old = base();
    P(old).parameters.rules = { type: 'Object', defaultValue: {}, schema: { type: 'object' } };
    const next = structuredClone(old);
    P(next).parameters.rules.schema = { type: 'object', required: ['name'] };
    const report = compare(old, next);
    assert.deepEqual(report.changes.map((c) => c.kind), ['parameter-schema-changed']);
    assert.equal(report.requiredBump, 'major');
  });

  test('hostile input: nested too deep, or too large, is refused with a sentence (no stack overflow)', () => {
    const deep = compareTexts({ file: 'old.json', text: '['.repeat(100_000) + ']'.repeat(100_000) }, { file: 'new.json', text: JSON.stringify(base()) });
    assert.equal(deep.ok, false);
    if (!deep.ok) assert.match(deep.problem, /old\.json:1:513: nested deeper than 512 levels/);
    const strings = compareTexts({ file: 'old.json', text: JSON.stringify({ ...base(), note: '['.repeat(10_000) }) }, { file: 'new.json', text: JSON.stringify(base()) });
    assert.ok(strings.ok, 'brackets inside strings are not nesting');
    const huge = compareTexts({ file: 'old.json', text: ' '.repeat(9 * 1024 * 1024) }, { file: 'new.json', text: '{}' });
    assert.equal(huge.ok, false);
    if (!huge.ok) assert.match(huge.problem, /larger than 8 MB/);
  });

  test('input problems are said, not thrown', () => {
    const broken = compareTexts({ file: 'old.json', text: '{ "properties": ' }, { file: 'new.json', text: '{}' });
    assert.equal(broken.ok, false);
    if (!broken.ok) assert.match(broken.problem, /old\.json:1:\d+: not valid JSON/);
    const other = compareTexts({ file: 'old.json', text: JSON.stringify(base()) }, { file: 'new.json', text: '{"a":1}' });
    assert.equal(other.ok, false);
    if (!other.ok) assert.match(other.problem, /new\.json: not a policy set definition/);
  });

  test('a file new in the change has no old side; a deleted set is a major change', () => {
    const added = compareTexts(undefined, { file: 'new.json', text: JSON.stringify(base()) });
    assert.ok(added.ok);
    if (added.ok) assert.equal(added.reports[0].requiredBump, 'none');
    const removed = compareTexts({ file: 'old.json', text: JSON.stringify(base()) }, undefined);
    assert.ok(removed.ok);
    if (removed.ok) assert.deepEqual(removed.reports[0].changes.map((c) => c.kind), ['set-removed']);
  });
});

describe('PS3006 version-not-bumped (the rule over the same model)', () => {
  const lint = (text: string, previous?: string, referenceAdded?: 'minor' | 'major') =>
    validateText(text, { assumePolicyDocument: true, ...(previous === undefined ? {} : { previous: { text: previous, label: 'HEAD', referenceAdded } }) }).diagnostics.filter((d) => d.code === 'PS3006');

  test('on the version value, with the suggested version in its data', () => {
    const next = base();
    delete P(next).parameters.tagName;
    delete P(next).policyDefinitions[1].parameters;
    P(next).version = '1.3.0';
    const text = JSON.stringify(next, null, 2);
    const [diagnostic] = lint(text, JSON.stringify(base(), null, 2));
    assert.ok(diagnostic);
    const line = text.split('\n')[diagnostic.range.start.line];
    assert.equal(line.slice(diagnostic.range.start.character, diagnostic.range.end.character), '"1.3.0"');
    assert.equal(diagnostic.data.suggested, '2.0.0');
    assert.match(diagnostic.message, /need a major version \(parameter-removed\); use '2\.0\.0'/);
    assert.equal(diagnostic.severity, 1);
  });

  test('nothing without an earlier text, when bumped enough, or when the version is odd (invalid-version says so)', () => {
    const next = base();
    delete P(next).parameters.effect.defaultValue;
    P(next).version = '2.0.0';
    assert.deepEqual(lint(JSON.stringify(next)), []);
    assert.deepEqual(lint(JSON.stringify(next), JSON.stringify(base())), []);
    P(next).version = '1.3.0-preview';
    assert.deepEqual(lint(JSON.stringify(next), JSON.stringify(base())), []);
  });

  test('the setting for a reference added reaches the rule', () => {
    const next = base();
    P(next).policyDefinitions.push({ policyDefinitionReferenceId: 'ref3', policyDefinitionId: DEF_C });
    P(next).version = '1.3.0';
    assert.deepEqual(lint(JSON.stringify(next), JSON.stringify(base())), []);
    assert.equal(lint(JSON.stringify(next), JSON.stringify(base()), 'major')[0]?.data.suggested, '2.0.0');
  });
});

// The corpus subset in the repository always; the full corpus too when it is there.
for (const corpus of CORPORA) describe(`the change model over the corpus of built-in sets (${corpus.label})`, () => {
  test('each set against itself reformatted: no change; without its first parameter: a major change located on it', () => {
    let withParameters = 0;
    const files = listJsonFiles(corpus.sets);
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const value = JSON.parse(text.replace(/^\uFEFF/, ''));
      const same = compareTexts({ file: 'old', text }, { file: 'new', text: JSON.stringify(value, null, '\t') });
      assert.ok(same.ok, file);
      if (!same.ok) continue;
      assert.deepEqual(same.reports.map((r) => r.changes.map((c) => c.kind)), [[]], file);
      const first = Object.keys(value.properties?.parameters ?? {})[0];
      if (first === undefined) continue;
      withParameters++;
      delete value.properties.parameters[first];
      const changed = compareTexts({ file: 'old', text }, { file: 'new', text: JSON.stringify(value, null, 2) });
      assert.ok(changed.ok && changed.reports[0].requiredBump === 'major', file);
      if (changed.ok) {
        const removed = changed.reports[0].changes.find((c) => c.kind === 'parameter-removed' || c.kind === 'parameter-renamed');
        assert.ok(removed, `${file}: ${JSON.stringify(changed.reports[0].changes.map((c) => c.kind))}`);
        if (removed.kind === 'parameter-removed') assert.equal(removed.location.pointer, `/properties/parameters/${first.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
    }
    const least = corpus.label === 'full' ? { files: 200, withParameters: 100 } : { files: 10, withParameters: 8 };
    assert.ok(files.length > least.files && withParameters > least.withParameters, `${files.length} files, ${withParameters} with parameters`);
  });
});

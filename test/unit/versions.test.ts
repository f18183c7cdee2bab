// The change model of set versions (server/src/service/versions): one pair per class, table-driven, on
// every dialect the linter reads, and the version arithmetic.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { CORPORA, listJsonFiles } from '../support/corpus';
import { readSettings } from '#server/lsp/settings';
import {
  compareTexts,
  readSplitSide,
  compareSets,
  checkVersions,
  parseVersion,
  nextVersion,
  bumpBetween,
  validateText,
  DefinitionCatalog,
  showPair,
  type ChangeReport,
  type CompareOptions,
} from '#service';

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
        effect: {
          type: 'String',
          allowedValues: ['Audit', 'Deny', 'Disabled'],
          defaultValue: 'Audit',
          metadata: { displayName: 'Effect' },
        },
        tagName: { type: 'String', metadata: { displayName: 'Tag name' } },
      },
      policyDefinitionGroups: [{ name: 'Network', displayName: 'Network' }, { name: 'Tags' }],
      policyDefinitions: [
        {
          policyDefinitionReferenceId: 'ref1',
          policyDefinitionId: DEF_A,
          definitionVersion: '1.*.*',
          parameters: { effect: { value: "[parameters('effect')]" } },
          groupNames: ['Network'],
        },
        {
          policyDefinitionReferenceId: 'ref2',
          policyDefinitionId: DEF_B,
          parameters: { tagName: { value: "[parameters('tagName')]" } },
          groupNames: ['Tags'],
        },
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
  {
    name: 'a parameter removed',
    change: (s) => {
      delete P(s).parameters.tagName;
      delete P(s).policyDefinitions[1].parameters;
    },
    bump: 'major',
    kinds: ['parameter-removed', 'reference-parameters-changed'],
    path: '/properties/parameters/tagName',
  },
  {
    name: "a parameter's type changed",
    change: (s) => (P(s).parameters.tagName.type = 'Array'),
    bump: 'major',
    kinds: ['parameter-type-changed'],
    path: '/properties/parameters/tagName/type',
  },
  {
    name: 'allowedValues narrowed',
    change: (s) => (P(s).parameters.effect.allowedValues = ['Audit', 'Disabled']),
    bump: 'major',
    kinds: ['allowed-values-narrowed'],
    path: '/properties/parameters/effect/allowedValues',
  },
  {
    name: 'allowedValues added where there were none',
    change: (s) => (P(s).parameters.tagName.allowedValues = ['env']),
    bump: 'major',
    kinds: ['allowed-values-narrowed'],
  },
  {
    name: 'a parameter added without defaultValue',
    change: (s) => (P(s).parameters.owner = { type: 'String' }),
    bump: 'major',
    kinds: ['parameter-added-without-default'],
    path: '/properties/parameters/owner',
  },
  {
    name: 'a defaultValue removed',
    change: (s) => delete P(s).parameters.effect.defaultValue,
    bump: 'major',
    kinds: ['default-value-removed'],
  },
  {
    name: 'a reference removed',
    change: (s) => P(s).policyDefinitions.pop(),
    bump: 'major',
    kinds: ['reference-removed'],
    path: '/properties/policyDefinitions/1',
  },
  {
    name: 'a policyDefinitionReferenceId renamed',
    change: (s) => (P(s).policyDefinitions[0].policyDefinitionReferenceId = 'first'),
    bump: 'major',
    kinds: ['reference-id-changed'],
    path: '/properties/policyDefinitions/0/policyDefinitionReferenceId',
  },
  {
    name: 'a policyDefinitionReferenceId removed',
    change: (s) => delete P(s).policyDefinitions[0].policyDefinitionReferenceId,
    bump: 'major',
    kinds: ['reference-id-changed'],
  },
  {
    name: 'a group the new references still name removed',
    change: (s) => P(s).policyDefinitionGroups.pop(),
    bump: 'major',
    kinds: ['group-removed-while-named'],
  },
  {
    name: 'an effect default moved from Audit to Deny (an enforcement effect added by default)',
    change: (s) => (P(s).parameters.effect.defaultValue = 'Deny'),
    bump: 'major',
    kinds: ['enforcement-default-added'],
    path: '/properties/parameters/effect/defaultValue',
  },
  {
    name: 'definitionVersion moved to another major',
    change: (s) => (P(s).policyDefinitions[0].definitionVersion = '2.*.*'),
    bump: 'major',
    kinds: ['definition-version-major-changed'],
  },
  {
    name: 'a parameter renamed (one change)',
    change: (s) => {
      P(s).parameters.tag = P(s).parameters.tagName;
      delete P(s).parameters.tagName;
      P(s).policyDefinitions[1].parameters.tagName.value = "[parameters('tag')]";
    },
    bump: 'major',
    kinds: ['parameter-renamed'],
    path: '/properties/parameters/tag',
  },
  // minor
  {
    name: 'a parameter added with defaultValue',
    change: (s) => (P(s).parameters.owner = { type: 'String', defaultValue: 'ops' }),
    bump: 'minor',
    kinds: ['parameter-added-with-default'],
  },
  {
    name: 'allowedValues widened',
    change: (s) => P(s).parameters.effect.allowedValues.push('AuditIfNotExists'),
    bump: 'minor',
    kinds: ['allowed-values-widened'],
  },
  {
    name: 'a reference added',
    change: (s) => P(s).policyDefinitions.push({ policyDefinitionReferenceId: 'ref3', policyDefinitionId: DEF_C }),
    bump: 'minor',
    kinds: ['reference-added'],
    path: '/properties/policyDefinitions/2',
  },
  { name: 'a group added', change: (s) => P(s).policyDefinitionGroups.push({ name: 'Identity' }), bump: 'minor', kinds: ['group-added'] },
  {
    name: 'a defaultValue changed',
    change: (s) => (P(s).parameters.effect.defaultValue = 'Disabled'),
    bump: 'minor',
    kinds: ['default-value-changed'],
  },
  {
    name: "a reference's policyDefinitionId changed (a definition moved within the set)",
    change: (s) => (P(s).policyDefinitions[0].policyDefinitionId = DEF_C),
    bump: 'minor',
    kinds: ['definition-id-changed'],
    path: '/properties/policyDefinitions/0/policyDefinitionId',
  },
  {
    name: 'a group renamed, its references following (no assignment names a group)',
    change: (s) => {
      P(s).policyDefinitionGroups[1].name = 'Tagging';
      P(s).policyDefinitions[1].groupNames = ['Tagging'];
    },
    bump: 'minor',
    kinds: ['group-removed', 'group-added', 'reference-groups-changed'],
  },
  {
    name: 'definitionVersion within its major',
    change: (s) => (P(s).policyDefinitions[0].definitionVersion = '1.2.*'),
    bump: 'minor',
    kinds: ['definition-version-changed'],
  },
  // patch
  {
    name: 'the display name',
    change: (s) => (P(s).displayName = 'Versioned set (renamed)'),
    bump: 'patch',
    kinds: ['display-name-changed'],
    path: '/properties/displayName',
  },
  { name: 'the description', change: (s) => (P(s).description = 'Another description'), bump: 'patch', kinds: ['description-changed'] },
  { name: 'metadata', change: (s) => (P(s).metadata.category = 'General'), bump: 'patch', kinds: ['metadata-changed'] },
  {
    name: 'parameter metadata',
    change: (s) => (P(s).parameters.effect.metadata.description = 'What to do'),
    bump: 'patch',
    kinds: ['parameter-metadata-changed'],
  },
  {
    name: "a group's display name",
    change: (s) => (P(s).policyDefinitionGroups[0].displayName = 'Networking'),
    bump: 'patch',
    kinds: ['group-metadata-changed'],
  },
  {
    name: "a group's description",
    change: (s) => (P(s).policyDefinitionGroups[1].description = 'Tagging'),
    bump: 'patch',
    kinds: ['group-metadata-changed'],
  },
  // none
  { name: 'policyType', change: (s) => (P(s).policyType = 'BuiltIn'), bump: 'patch', kinds: ['policy-type-changed'] },
  {
    name: "a reference's groupNames",
    change: (s) => P(s).policyDefinitions[0].groupNames.push('Tags'),
    bump: 'patch',
    kinds: ['reference-groups-changed'],
  },
  {
    name: 'a defaultValue added',
    change: (s) => (P(s).parameters.tagName.defaultValue = 'env'),
    bump: 'minor',
    kinds: ['default-value-added'],
  },
  {
    name: 'a value passed to a definition',
    change: (s) => (P(s).policyDefinitions[0].parameters.effect.value = 'Audit'),
    bump: 'minor',
    kinds: ['reference-parameters-changed'],
  },
  {
    name: 'an Object parameter added with a default and a schema',
    change: (s) => (P(s).parameters.rules = { type: 'Object', defaultValue: {}, schema: { type: 'object' } }),
    bump: 'minor',
    kinds: ['parameter-added-with-default'],
  },
  {
    name: 'a group removed that nothing names',
    change: (s) => {
      P(s).policyDefinitionGroups.pop();
      delete P(s).policyDefinitions[1].groupNames;
    },
    bump: 'minor',
    kinds: ['group-removed', 'reference-groups-changed'],
  },
  { name: 'the version alone', change: (s) => (P(s).version = '1.2.4'), bump: 'none', kinds: [] },
  { name: 'references reordered', change: (s) => P(s).policyDefinitions.reverse(), bump: 'none', kinds: [] },
];

describe('the change model: one pair per class', () => {
  for (const pair of pairs) {
    test(`${pair.name}: ${pair.bump}`, () => {
      const next = base();
      pair.change(next);
      const report = compare(base(), next);
      assert.deepEqual(
        report.changes.map((c) => c.kind).sort(),
        [...pair.kinds].sort(),
        JSON.stringify(report.changes.map((c) => c.message)),
      );
      assert.equal(report.requiredBump, pair.bump);
      if (pair.path) assert.equal(report.changes[0].location.pointer, pair.path);
      for (const change of report.changes) assert.ok(change.location.range.start.line > 0, 'each change has a line');
    });
  }

  test('a reformatted file (indentation, key order, whitespace, CRLF): none', () => {
    const reordered = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reordered)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reordered(v)]),
            )
          : value;
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
    const kinds = compare(base(), next)
      .changes.map((c) => c.kind)
      .sort();
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
    assert.equal(
      bumpBetween({ major: 1, minor: 2, patch: 3 }, { major: 1, minor: 10, patch: 0 }),
      'minor',
      '10 is more than 2 (numbers, not text)',
    );
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
              policyDefinitions: P(set).policyDefinitions.map((r: Json) => ({
                ...r,
                parameters: JSON.parse(JSON.stringify(r.parameters ?? {}).replace(/\[parameters/g, '[[parameters')),
              })),
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
    assert.deepEqual(
      report.changes.map((c) => c.kind),
      ['reference-removed'],
    );
    assert.equal(compare(pac(['a', 'b']), pac(['b', 'a'])).requiredBump, 'none');
  });

  test('a version resource (A1) named by its version', () => {
    const a1 = (name: string, set: Json) => ({
      type: 'Microsoft.Authorization/policySetDefinitions/versions',
      name,
      properties: { ...P(set), version: undefined },
    });
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
    const line = JSON.stringify(P(next).parameters, null, 2)
      .split('\n')
      .findIndex((l) => l.includes('"owner"'));
    assert.equal(report.changes[0].location.range.start.line, line);
  });

  test('a schema changed on an Object parameter: major', () => {
    const old = base();
    P(old).parameters.rules = { type: 'Object', defaultValue: {}, schema: { type: 'object' } };
    const next = structuredClone(old);
    P(next).parameters.rules.schema = { type: 'object', required: ['name'] };
    const report = compare(old, next);
    assert.deepEqual(
      report.changes.map((c) => c.kind),
      ['parameter-schema-changed'],
    );
    assert.equal(report.requiredBump, 'major');
  });

  test('hostile input: nested too deep, or too large, is refused with a sentence (no stack overflow)', () => {
    const deep = compareTexts(
      { file: 'old.json', text: '['.repeat(100_000) + ']'.repeat(100_000) },
      { file: 'new.json', text: JSON.stringify(base()) },
    );
    assert.equal(deep.ok, false);
    if (!deep.ok) assert.match(deep.problem, /old\.json:1:513: nested deeper than 512 levels/);
    const strings = compareTexts(
      { file: 'old.json', text: JSON.stringify({ ...base(), note: '['.repeat(10_000) }) },
      { file: 'new.json', text: JSON.stringify(base()) },
    );
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
    if (removed.ok)
      assert.deepEqual(
        removed.reports[0].changes.map((c) => c.kind),
        ['set-removed'],
      );
  });
});

describe('version checks that fit real history', () => {
  const withVersion = (version: string, change?: (s: Json) => void) => {
    const set = base();
    P(set).version = version;
    change?.(set);
    return set;
  };

  test('an unchanged set with a marked version (-deprecated, -preview) passes; the marker is said, not failed', () => {
    for (const version of ['1.2.0-deprecated', '2.0.0-preview', '1.0.0-PREVIEW']) {
      const report = compare(withVersion(version), withVersion(version));
      assert.equal(report.versionOk, true, `${version}: ${report.versionProblem}`);
      assert.match(report.versionNote ?? '', /marker/);
    }
  });

  test('marked versions are compared on their numbers', () => {
    const minor = (s: Json) => (P(s).parameters.owner = { type: 'String', defaultValue: 'ops' });
    assert.equal(compare(withVersion('1.2.0-preview'), withVersion('1.3.0-preview', minor)).versionOk, true);
    const tooLittle = compare(withVersion('1.2.0-preview'), withVersion('1.2.1-preview', minor));
    assert.equal(tooLittle.versionOk, false);
    assert.equal(tooLittle.suggestedVersion, '1.3.0-preview');
    // A deprecation under the same numbers, with its words: the marker is the change.
    const deprecated = compare(
      withVersion('1.2.0'),
      withVersion('1.2.0-deprecated', (s) => (P(s).displayName = '[Deprecated]: Versioned set')),
    );
    assert.equal(deprecated.versionOk, true, deprecated.versionProblem);
    assert.match(deprecated.versionNote ?? '', /'1\.2\.0-deprecated' carries a deprecation marker/);
    // ...but a change that needs more than words still needs the numbers moved.
    assert.equal(compare(withVersion('1.2.0'), withVersion('1.2.0-deprecated', minor)).versionOk, false);
    // The service's own versions (deploy) stay #.#.#.
    assert.equal(checkVersions('1.2.0', '1.2.0-deprecated', 'none').ok, false);
  });

  test('a scope placeholder swapped in a custom policyDefinitionId is the same definition', () => {
    const ids = [
      '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/Deny-Public-IP',
      '${root_scope_resource_id}/providers/Microsoft.Authorization/policyDefinitions/Deny-Public-IP',
      '/providers/Microsoft.Management/managementGroups/{managementGroupName}/providers/Microsoft.Authorization/policyDefinitions/Deny-Public-IP',
      "[concat('/providers/Microsoft.Management/managementGroups/', parameters('topLevelManagementGroupPrefix'), '/providers/Microsoft.Authorization/policyDefinitions/Deny-Public-IP')]",
      '/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Authorization/policyDefinitions/Deny-Public-IP',
    ];
    const withId = (id: string) => withVersion('1.0.0', (s) => (P(s).policyDefinitions[0].policyDefinitionId = id));
    for (const a of ids)
      for (const b of ids)
        assert.deepEqual(
          compare(withId(a), withId(b)).changes.map((c) => c.kind),
          [],
          `${a} -> ${b}`,
        );
    // Another name is another definition.
    const other = compare(withId(ids[0]), withId(ids[1].replace('Deny-Public-IP', 'Deny-Public-Endpoints')));
    assert.deepEqual(
      other.changes.map((c) => c.kind),
      ['definition-id-changed'],
    );
  });

  const catalog = (effects: Record<string, { effect?: string; allowed?: string[] }>) => {
    const definitions = new DefinitionCatalog();
    definitions.addIndex(
      Object.entries(effects).map(([id, e]) => ({
        id,
        name: id.split('/').pop(),
        parameters: {
          effect: { type: 'String', ...(e.allowed ? { allowedValues: e.allowed } : {}), ...(e.effect ? { defaultValue: e.effect } : {}) },
        },
      })),
    );
    return definitions;
  };

  test('a definition replaced under a kept reference ID: minor, or major when it adds an enforcement effect by default', () => {
    const replaced = withVersion('1.0.0', (s) => {
      P(s).policyDefinitions[1].policyDefinitionId = DEF_C;
    });
    const without = compare(base(), replaced);
    assert.equal(without.requiredBump, 'minor');
    assert.match(without.changes[0].message, /no definitions were given, so its default effect was not compared/);
    const quiet = compare(base(), replaced, {
      definitions: catalog({ [DEF_B]: { effect: 'Audit' }, [DEF_C]: { effect: 'AuditIfNotExists' } }),
    });
    assert.deepEqual([quiet.requiredBump, quiet.changes[0].kind], ['minor', 'definition-id-changed']);
    const enforcing = compare(base(), replaced, { definitions: catalog({ [DEF_B]: { effect: 'Audit' }, [DEF_C]: { effect: 'Deny' } }) });
    assert.deepEqual([enforcing.requiredBump, enforcing.changes[0].kind], ['major', 'enforcement-default-added']);
    assert.match(enforcing.changes[0].message, /default effect is "Deny" where it was "Audit"/);
    // The reference passes the set's effect parameter: the set's default decides, not the definition's.
    const passed = withVersion('1.0.0', (s) => (P(s).policyDefinitions[0].policyDefinitionId = DEF_C));
    assert.equal(
      compare(base(), passed, { definitions: catalog({ [DEF_A]: { effect: 'Audit' }, [DEF_C]: { effect: 'Deny' } }) }).requiredBump,
      'minor',
    );
  });

  test('allowedValues narrowed only of values the referenced definitions never accepted: not major (with definitions)', () => {
    const narrowed = withVersion('1.0.0', (s) => (P(s).parameters.effect.allowedValues = ['Audit', 'Disabled']));
    assert.equal(compare(base(), narrowed).requiredBump, 'major', 'without definitions nothing says the value was unusable');
    const neverDeny = catalog({ [DEF_A]: { allowed: ['Audit', 'Disabled'] } });
    const report = compare(base(), narrowed, { definitions: neverDeny });
    assert.deepEqual(
      report.changes.map((c) => c.kind),
      ['allowed-values-unusable-removed'],
    );
    assert.equal(report.requiredBump, 'patch');
    // A value the definition did accept: still a break.
    assert.equal(
      compare(base(), narrowed, { definitions: catalog({ [DEF_A]: { allowed: ['audit', 'deny', 'disabled'] } }) }).requiredBump,
      'major',
    );
    // allowedValues added where there were none, covering every value the definition accepts.
    const restricted = withVersion('1.0.0', (s) => (P(s).parameters.tagName.allowedValues = ['env', 'owner']));
    const tags = new DefinitionCatalog();
    tags.addIndex([
      { id: DEF_B, name: DEF_B.split('/').pop(), parameters: { tagName: { type: 'String', allowedValues: ['env', 'owner'] } } },
    ]);
    assert.equal(compare(base(), restricted, { definitions: tags }).requiredBump, 'patch');
    assert.equal(compare(base(), restricted).requiredBump, 'major');
  });

  test('an effect default moved from Audit to Deny is major; Deny to Audit, or Audit to Disabled, is not', () => {
    const withDefault = (value: string) => withVersion('1.0.0', (s) => (P(s).parameters.effect.defaultValue = value));
    assert.equal(compare(base(), withDefault('deny')).requiredBump, 'major');
    assert.equal(compare(base(), withDefault('DeployIfNotExists')).requiredBump, 'major');
    assert.equal(compare(withDefault('Deny'), withDefault('Audit')).requiredBump, 'minor');
    assert.equal(compare(base(), withDefault('Disabled')).requiredBump, 'minor');
  });

  test('"group removed while references name it" speaks of the new side: a group only the old references named is a plain removal', () => {
    const next = withVersion('1.0.0', (s) => {
      P(s).policyDefinitionGroups.pop();
      P(s).policyDefinitions[1].groupNames = ['Network'];
    });
    const report = compare(base(), next);
    assert.deepEqual(report.changes.map((c) => c.kind).sort(), ['group-removed', 'reference-groups-changed']);
    assert.doesNotMatch(report.changes.find((c) => c.kind === 'group-removed')!.message, /while references/);
  });

  test('reference removal is a setting (default major)', () => {
    const next = withVersion('1.0.0', (s) => P(s).policyDefinitions.pop());
    assert.equal(compare(base(), next).requiredBump, 'major');
    const minor = compare(base(), next, { referenceRemoved: 'minor' });
    assert.equal(minor.requiredBump, 'minor');
    assert.match(minor.changes[0].message, /a minor change by this project's setting/);
  });

  test('messages show the part that differs, not the same beginning twice', () => {
    const long = 'This initiative ensures Storage is compliant with the baseline of the organisation, across every subscription';
    const next = withVersion('1.0.0', (s) => (P(s).description = long.replace('subscription', 'management group')));
    const message = compare(
      withVersion('1.0.0', (s) => (P(s).description = long)),
      next,
    ).changes[0].message;
    assert.match(message, /every subscription/);
    assert.match(message, /every management group/);
    const [a, b] = showPair('x'.repeat(200) + 'old', 'x'.repeat(200) + 'new');
    assert.notEqual(a, b);
    assert.deepEqual([showPair('short', 'other')[0], showPair('short', 'other')[1]], ['"short"', '"other"']);
  });
});

describe('every layout read', () => {
  /** A template as Bicep compiles loadTextContent() of set files: each set a string in variables['$fxv#N']. */
  const embedding = (...sets: Json[]): Json => ({
    $schema: 'https://schema.management.azure.com/schemas/2019-08-01/managementGroupDeploymentTemplate.json#',
    contentVersion: '1.0.0.0',
    variables: {
      ...Object.fromEntries(
        sets.map((set, i) => [
          `$fxv#${i}`,
          JSON.stringify({ ...set, type: 'Microsoft.Authorization/policySetDefinitions', apiVersion: '2021-06-01' }, null, 2),
        ]),
      ),
      all: "[createArray(json(variables('$fxv#0')))]",
    },
    resources: [
      {
        type: 'Microsoft.Authorization/policySetDefinitions',
        apiVersion: '2021-06-01',
        name: "[variables('all')[copyIndex()].name]",
        copy: { name: 'sets', count: 1 },
        properties: { policyDefinitions: "[variables('all')[copyIndex()].properties.policyDefinitions]" },
      },
    ],
  });
  const named = (name: string, change?: (s: Json) => void) => {
    const set = base();
    set.name = name;
    change?.(set);
    return set;
  };

  test('sets embedded as strings in template variables are compared, each as the file it was loaded from', () => {
    const before = embedding(named('first'), named('second'));
    const after = embedding(
      named('first'),
      named('second', (s) => {
        delete P(s).parameters.tagName;
        delete P(s).policyDefinitions[1].parameters;
      }),
    );
    const result = compareTexts(
      { file: 'old.json', text: JSON.stringify(before, null, 2) },
      { file: 'new.json', text: JSON.stringify(after, null, 2) },
    );
    assert.ok(result.ok, result.ok ? '' : result.problem);
    if (!result.ok) return;
    assert.equal(result.reports.length, 2, 'two sets, not the one resource that reads them');
    const second = result.reports.find((r) => r.changes.length)!;
    assert.equal(second.requiredBump, 'major');
    assert.deepEqual(second.changes.map((c) => c.kind).sort(), ['parameter-removed', 'reference-parameters-changed']);
    assert.match(second.changes[0].location.pointer, /^\/variables\/\$fxv#1\/properties\//);
    assert.equal(result.reports.find((r) => r !== second)!.changes.length, 0);
  });

  test('a template whose set resources read template values that hold no set is refused with a sentence, never "none"', () => {
    const template = embedding(named('first'));
    template.variables['$fxv#0'] = 'not a set';
    const result = compareTexts({ file: 'old.json', text: JSON.stringify(template) }, { file: 'new.json', text: JSON.stringify(template) });
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.problem, /built from template expressions .* hold no set this reader can see: not compared/);
  });

  test('a template with strings over several lines is read as its engine reads it', () => {
    const template = JSON.stringify(
      {
        $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
        contentVersion: '1.0.0.0',
        resources: [
          {
            type: 'Microsoft.Authorization/policySetDefinitions',
            apiVersion: '2021-06-01',
            name: 'multi',
            properties: { ...base().properties, description: 'one LINEBREAK two' },
          },
        ],
      },
      null,
      2,
    );
    const multiline = template.replace('one LINEBREAK two', 'one\ntwo');
    const result = compareTexts(
      { file: 'old.json', text: multiline },
      { file: 'new.json', text: multiline.replace('"Versioned set"', '"Versioned set, renamed"') },
    );
    assert.ok(result.ok, result.ok ? '' : result.problem);
    if (result.ok)
      assert.deepEqual(
        result.reports[0].changes.map((c) => c.kind),
        ['display-name-changed'],
      );
    const lint = validateText(multiline, { assumePolicyDocument: true }).diagnostics.filter((d) => d.code === 'PS1001');
    assert.deepEqual(lint, []);
    // Outside a template a line break in a string is still a syntax error.
    assert.ok(
      validateText(JSON.stringify(base()).replace('A set to change', 'A set\nto change'), { assumePolicyDocument: true }).diagnostics.some(
        (d) => d.code === 'PS1001',
      ),
    );
  });
});

describe('PS3006 version-not-bumped (the rule over the same model)', () => {
  const lint = (text: string, previous?: string, referenceAdded?: 'minor' | 'major') =>
    validateText(text, {
      assumePolicyDocument: true,
      ...(previous === undefined ? {} : { previous: { text: previous, label: 'HEAD', referenceAdded } }),
    }).diagnostics.filter((d) => d.code === 'PS3006');

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

  test("the editor's settings policySet.versions.referenceAdded and referenceRemoved are read (default minor and major)", () => {
    assert.deepEqual(readSettings({}).versions, { referenceAdded: 'minor', referenceRemoved: 'major' });
    assert.deepEqual(readSettings({ versions: { referenceAdded: 'major', referenceRemoved: 'minor' } }).versions, {
      referenceAdded: 'major',
      referenceRemoved: 'minor',
    });
    assert.deepEqual(readSettings({ versions: { referenceRemoved: 'sometimes' } }).versions, {
      referenceAdded: 'minor',
      referenceRemoved: 'major',
    });
  });

  test('the setting for a reference removed reaches the rule', () => {
    const next = base();
    P(next).policyDefinitions.pop();
    P(next).version = '1.3.0';
    const previous = (referenceRemoved?: 'minor' | 'major') =>
      validateText(JSON.stringify(next), {
        assumePolicyDocument: true,
        previous: { text: JSON.stringify(base()), label: 'HEAD', ...(referenceRemoved ? { referenceRemoved } : {}) },
      }).diagnostics.filter((d) => d.code === 'PS3006');
    assert.equal(previous()[0]?.data.suggested, '2.0.0');
    assert.deepEqual(previous('minor'), []);
  });
});

// The corpus subset in the repository always; the full corpus too when it is there.
for (const corpus of CORPORA)
  describe(`the change model over the corpus of built-in sets (${corpus.label})`, () => {
    test('each set against itself reformatted: no change; without its first parameter: a major change located on it', () => {
      let withParameters = 0;
      const files = listJsonFiles(corpus.sets);
      for (const file of files) {
        const text = fs.readFileSync(file, 'utf8');
        const value = JSON.parse(text.replace(/^\uFEFF/, ''));
        const same = compareTexts({ file: 'old', text }, { file: 'new', text: JSON.stringify(value, null, '\t') });
        assert.ok(same.ok, file);
        if (!same.ok) continue;
        assert.deepEqual(
          same.reports.map((r) => r.changes.map((c) => c.kind)),
          [[]],
          file,
        );
        const first = Object.keys(value.properties?.parameters ?? {})[0];
        if (first === undefined) continue;
        withParameters++;
        delete value.properties.parameters[first];
        const changed = compareTexts({ file: 'old', text }, { file: 'new', text: JSON.stringify(value, null, 2) });
        assert.ok(changed.ok && changed.reports[0].requiredBump === 'major', file);
        if (changed.ok) {
          const removed = changed.reports[0].changes.find((c) => c.kind === 'parameter-removed' || c.kind === 'parameter-renamed');
          assert.ok(removed, `${file}: ${JSON.stringify(changed.reports[0].changes.map((c) => c.kind))}`);
          if (removed.kind === 'parameter-removed')
            assert.equal(removed.location.pointer, `/properties/parameters/${first.replace(/~/g, '~0').replace(/\//g, '~1')}`);
        }
      }
      const least = corpus.label === 'full' ? { files: 200, withParameters: 100 } : { files: 10, withParameters: 8 };
      assert.ok(
        files.length > least.files && withParameters > least.withParameters,
        `${files.length} files, ${withParameters} with parameters`,
      );
    });
  });

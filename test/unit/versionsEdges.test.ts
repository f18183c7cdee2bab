// The edges of the version model that mutation testing found untested (docs/mutation.md): the version
// arithmetic at its boundaries, the words of a failed or impossible check, what a marker is called. Every
// expected value is written by hand from docs/versions.md (versions are #.#.#, compared as three numbers; a
// suffix is a marker: a deprecation marker, a preview marker, or another pre-release or build suffix).
// It imports the version model alone (no #service): each run is short, which matters under mutation.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  bumpBetween,
  checkVersions,
  compareVersions,
  isBump,
  maxBump,
  nextVersion,
  parseMarkedVersion,
  parseVersion,
} from '#server/service/versions/version';
import { compareTexts } from '#server/service/versions/compare';
import { readSides, readSplitSide } from '#server/service/versions/side';
import { compareSets, showPair, type CompareOptions } from '#server/service/versions/changes';
import { DefinitionCatalog } from '#server/service/definitions';

const v = (major: number, minor: number, patch: number) => ({ major, minor, patch });

describe('the version arithmetic at its edges', () => {
  test('numbers of more than one digit are read as numbers', () => {
    assert.deepEqual(parseVersion('10.20.30'), { ok: true, version: v(10, 20, 30) });
    const marked = parseMarkedVersion('10.20.30-preview');
    assert.ok(marked.ok);
    if (marked.ok) assert.deepEqual(marked.version, v(10, 20, 30));
    assert.equal(checkVersions('1.9.0', '1.10.0', 'minor').ok, true, '1.10.0 is after 1.9.0');
    assert.equal(checkVersions('1.10.0', '1.9.0', 'none').ok, false, '1.9.0 is before 1.10.0');
  });

  test('a text with something before its numbers is not a version, with or without a suffix', () => {
    for (const text of ['v1.2.0-preview', 'x1.2.0+build', ' 1.2.0', '1.2.0 ']) {
      const parsed = parseVersion(text);
      assert.equal(parsed.ok, false, text);
      if (!parsed.ok) assert.equal(parsed.problem, `'${text}' is not a version: use #.#.# (digits, like 1.2.0)`);
    }
    assert.equal(parseMarkedVersion('v1.2.0-preview').ok, false);
    assert.equal(parseMarkedVersion('1.2.0-').ok, false, 'a dash with nothing after it');
    assert.equal(parseMarkedVersion('1.2.0-pre view').ok, false, 'a space in the suffix');
    assert.equal(parseMarkedVersion('1.2.0 ').ok, false);
  });

  test('a pre-release version with a number of several digits is still called a pre-release', () => {
    const parsed = parseVersion('10.20.30-preview');
    assert.equal(parsed.ok, false);
    if (!parsed.ok)
      assert.equal(
        parsed.problem,
        "'10.20.30-preview' is a pre-release or build version: a version of a set is #.#.# (digits only, like 1.2.0), so it cannot be compared",
      );
  });

  test('a number too large to compare, in a marked version too', () => {
    const marked = parseMarkedVersion('1.99999999999999999999.0-preview');
    assert.deepEqual(marked, { ok: false, problem: "'1.99999999999999999999.0-preview' has a number too large to compare" });
    assert.deepEqual(parseVersion('1.2.99999999999999999999'), {
      ok: false,
      problem: "'1.2.99999999999999999999' has a number too large to compare",
    });
  });

  test('the equal version is no bump; each component, alone, is its own bump', () => {
    assert.equal(bumpBetween(v(1, 2, 3), v(1, 2, 3)), 'none');
    assert.equal(bumpBetween(v(1, 2, 3), v(1, 2, 2)), 'none');
    assert.equal(bumpBetween(v(1, 2, 3), v(2, 0, 0)), 'major');
    assert.equal(bumpBetween(v(1, 2, 3), v(1, 3, 0)), 'minor');
    assert.equal(bumpBetween(v(1, 2, 3), v(1, 2, 4)), 'patch');
    assert.equal(compareVersions(v(1, 2, 3), v(1, 2, 3)), 0);
    assert.ok(compareVersions(v(2, 0, 0), v(1, 9, 9)) > 0);
    assert.ok(compareVersions(v(1, 2, 3), v(1, 3, 0)) < 0);
    assert.ok(compareVersions(v(1, 2, 4), v(1, 2, 3)) > 0);
  });

  test('the next version for no change is the same version', () => {
    assert.deepEqual(nextVersion(v(1, 2, 3), 'none'), v(1, 2, 3));
    assert.equal(checkVersions('1.2.3', '1.2.3', 'none').suggested, '1.2.3');
  });

  test('the larger of two bumps, and what a bump is', () => {
    assert.equal(maxBump('patch', 'minor'), 'minor');
    assert.equal(maxBump('major', 'patch'), 'major');
    assert.equal(maxBump('none', 'none'), 'none');
    assert.equal(isBump('minor'), true);
    assert.equal(isBump('Minor'), false);
    assert.equal(isBump(undefined), false);
    assert.equal(isBump(['minor']), false, 'a list holding a bump is no bump');
  });
});

describe('the words of a failed or impossible check', () => {
  test('each side missing is named, and the suggestion is made from the old side when it has a version', () => {
    const source = "(properties.version, a version resource's name or metadata.version): the bump is reported, not checked";
    assert.deepEqual(checkVersions(undefined, undefined, 'minor'), {
      ok: null,
      suggested: undefined,
      problem: `Neither side has a version ${source}`,
      reason: 'missing',
    });
    assert.deepEqual(checkVersions(undefined, '2.0.0', 'minor'), {
      ok: null,
      suggested: undefined,
      problem: `The old side has no version ${source}`,
      reason: 'missing',
    });
    assert.deepEqual(checkVersions('1.2.3', undefined, 'minor'), {
      ok: null,
      suggested: '1.3.0',
      problem: `The new side has no version ${source}`,
      reason: 'missing',
    });
  });

  test('the same, when markers are read', () => {
    const source = "(properties.version, a version resource's name or metadata.version): the bump is reported, not checked";
    assert.deepEqual(checkVersions(undefined, undefined, 'minor', { markers: true }), {
      ok: null,
      suggested: undefined,
      problem: `Neither side has a version ${source}`,
    });
    assert.deepEqual(checkVersions(undefined, '2.0.0', 'minor', { markers: true }), {
      ok: null,
      suggested: undefined,
      problem: `The old side has no version ${source}`,
    });
    assert.deepEqual(checkVersions('1.2.3-preview', undefined, 'minor', { markers: true }), {
      ok: null,
      suggested: '1.3.0-preview',
      problem: `The new side has no version ${source}`,
      note: "'1.2.3-preview' carries a preview marker ('preview'): versions are compared on their numbers, and a marker is a state of the set, not a change to it",
    });
  });

  test('an invalid side, with markers read: the new side fails, the old one cannot be compared', () => {
    assert.deepEqual(checkVersions('1.2.3', 'v2', 'major', { markers: true }), {
      ok: false,
      suggested: '2.0.0',
      problem: "The new version 'v2' is not a version: use #.#.# (digits, like 1.2.0)",
    });
    assert.deepEqual(checkVersions('v1', '2.0.0', 'major', { markers: true }), {
      ok: null,
      suggested: undefined,
      problem: "The old version 'v1' is not a version: use #.#.# (digits, like 1.2.0)",
    });
  });

  test('a version not greater, and one bumped too little, say so with the suggestion', () => {
    assert.deepEqual(checkVersions('1.2.3', '1.2.3', 'patch'), {
      ok: false,
      suggested: '1.2.4',
      problem: "The new version '1.2.3' is not greater than the old version '1.2.3': use 1.2.4",
      reason: 'notGreater',
    });
    assert.deepEqual(checkVersions('1.2.3', '1.2.4', 'major'), {
      ok: false,
      suggested: '2.0.0',
      problem: "The change needs a major version, but '1.2.3' -> '1.2.4' is a patch bump: use 2.0.0",
      reason: 'notEnough',
    });
    assert.deepEqual(checkVersions('1.2.3', '1.3.0', 'minor'), { ok: true, suggested: '1.3.0', problem: undefined });
  });
});

describe('markers', () => {
  const note = (...parts: string[]) =>
    `${parts.join('; ')}: versions are compared on their numbers, and a marker is a state of the set, not a change to it`;

  test('each marker is named for what it is, in any case, with its suffix shown without its sign', () => {
    assert.equal(
      checkVersions('1.0.0-PREVIEW', '1.0.0-PREVIEW', 'none', { markers: true }).note,
      note("'1.0.0-PREVIEW' carries a preview marker ('PREVIEW')", "'1.0.0-PREVIEW' carries a preview marker ('PREVIEW')"),
    );
    assert.equal(
      checkVersions('1.0.0', '1.0.0-Deprecated', 'none', { markers: true }).note,
      note("'1.0.0-Deprecated' carries a deprecation marker ('Deprecated')"),
    );
    assert.equal(
      checkVersions('1.0.0+5', '1.0.0', 'none', { markers: true }).note,
      note("'1.0.0+5' carries a pre-release or build suffix ('5')"),
    );
    assert.equal(checkVersions('1.0.0', '1.0.1', 'patch', { markers: true }).note, undefined, 'no marker, no note');
  });

  test('a marker is read whatever follows it, and a suffix may carry dots, dashes and pluses', () => {
    const marked = parseMarkedVersion('1.2.0-rc.1+build-5');
    assert.deepEqual(marked, { ok: true, version: v(1, 2, 0), suffix: '-rc.1+build-5', marker: 'other' });
    assert.deepEqual(parseMarkedVersion('1.2.0'), { ok: true, version: v(1, 2, 0), suffix: undefined, marker: undefined });
    assert.deepEqual(parseMarkedVersion('1.2.0-deprecated-preview'), {
      ok: true,
      version: v(1, 2, 0),
      suffix: '-deprecated-preview',
      marker: 'deprecated',
    });
  });

  test('the same numbers with a marker changed: words pass, a minor change does not', () => {
    assert.equal(checkVersions('1.2.0-preview', '1.2.0', 'patch', { markers: true }).ok, true, 'a marker lost, with words');
    assert.equal(checkVersions('1.2.0-PREVIEW', '1.2.0-preview', 'patch', { markers: true }).ok, false, 'the same marker in another case');
    assert.equal(checkVersions('1.2.0', '1.2.0-deprecated', 'minor', { markers: true }).ok, false);
    assert.equal(checkVersions('1.2.0', '1.2.0-deprecated', 'minor', { markers: true }).suggested, '1.3.0-deprecated');
  });

  test('a marker changed does not let the numbers go back', () => {
    assert.equal(checkVersions('1.2.0-preview', '1.1.0', 'patch', { markers: true }).ok, false);
    assert.equal(checkVersions('1.2.0', '1.1.9-deprecated', 'patch', { markers: true }).ok, false);
  });
});

describe('the sets of two templates, paired', () => {
  /** A template holding sets named and versioned as given, in order (undefined: no name, no version). */
  const template = (...sets: Array<[string | undefined, string | undefined]>) =>
    JSON.stringify(
      {
        $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
        contentVersion: '1.0.0.0',
        resources: sets.map(([name, version]) => ({
          type: 'Microsoft.Authorization/policySetDefinitions',
          apiVersion: '2025-11-01',
          ...(name === undefined ? {} : { name }),
          properties: {
            displayName: name ?? 'nameless',
            ...(version === undefined ? {} : { version }),
            policyDefinitions: [
              {
                policyDefinitionReferenceId: 'ref1',
                policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d',
              },
            ],
          },
        })),
      },
      null,
      2,
    );
  /** Each report as 'old name@version -> new version' (the new side's name is its display name here). */
  const pairs = (oldText: string, newText: string) => {
    const result = compareTexts({ file: 'old.json', text: oldText }, { file: 'new.json', text: newText });
    assert.ok(result.ok, result.ok ? '' : result.problem);
    return result.ok ? result.reports.map((r) => `${r.old ? `${r.old.name}@${r.old.version}` : '-'} -> ${r.new?.version ?? '-'}`) : [];
  };

  test('by name, whatever the case and the order', () => {
    assert.deepEqual(pairs(template(['Alpha', '1.0.0'], ['beta', '2.0.0']), template(['BETA', '2.0.1'], ['alpha', '1.0.1'])), [
      'beta@2.0.0 -> 2.0.1',
      'Alpha@1.0.0 -> 1.0.1',
    ]);
  });

  test('a set held twice: the same version first, then in order', () => {
    assert.deepEqual(pairs(template(['twice', '1.0.0'], ['twice', '2.0.0']), template(['twice', '2.0.0'], ['twice', '1.0.0'])), [
      'twice@2.0.0 -> 2.0.0',
      'twice@1.0.0 -> 1.0.0',
    ]);
    assert.deepEqual(pairs(template(['twice', '1.0.0'], ['twice', '2.0.0']), template(['twice', '2.1.0'], ['twice', '1.0.0'])), [
      'twice@2.0.0 -> 2.1.0',
      'twice@1.0.0 -> 1.0.0',
    ]);
  });

  test('the name before the version segment: one set named by its versions', () => {
    assert.deepEqual(pairs(template(['Set/1.0.0', '1.0.0'], ['other', '1.0.0']), template(['other', '1.0.0'], ['set/1.1.0', '1.1.0'])), [
      'other@1.0.0 -> 1.0.0',
      'Set@1.0.0 -> 1.1.0',
    ]);
  });

  test('a set only on one side: removed (after the pairs), or new', () => {
    const result = compareTexts(
      { file: 'old.json', text: template(['gone', '1.0.0'], ['kept', '1.0.0']) },
      { file: 'new.json', text: template(['kept', '1.0.0'], ['added', '1.0.0']) },
    );
    assert.ok(result.ok);
    if (!result.ok) return;
    assert.deepEqual(
      result.reports.map((r) => [r.old?.name, r.new?.version, r.changes.map((c) => c.kind)]),
      [
        ['kept', '1.0.0', []],
        [undefined, '1.0.0', []],
        ['gone', undefined, ['set-removed']],
      ],
    );
  });

  test('one set on one side and two on the other are paired by name', () => {
    assert.deepEqual(pairs(template(['kept', '1.0.0']), template(['added', '1.0.0'], ['kept', '1.0.1'])), [
      '- -> 1.0.0',
      'kept@1.0.0 -> 1.0.1',
    ]);
    assert.deepEqual(pairs(template(['gone', '1.0.0'], ['kept', '1.0.0']), template(['kept', '1.0.1'])), [
      'kept@1.0.0 -> 1.0.1',
      'gone@1.0.0 -> -',
    ]);
  });

  test('a set held three times and twice: each old one paired once, the one left over removed', () => {
    assert.deepEqual(pairs(template(['x', '1.0.0'], ['x', '2.0.0'], ['x', '3.0.0']), template(['x', '1.0.0'], ['x', '4.0.0'])), [
      'x@1.0.0 -> 1.0.0',
      'x@2.0.0 -> 4.0.0',
      'x@3.0.0 -> -',
    ]);
  });

  test('sets without a name are paired in order, not by version', () => {
    assert.deepEqual(pairs(template([undefined, '1.0.0'], [undefined, '2.0.0']), template([undefined, '2.0.0'], [undefined, '1.0.0'])), [
      'undefined@1.0.0 -> 2.0.0',
      'undefined@2.0.0 -> 1.0.0',
    ]);
  });

  test('a set held twice, one of them without a version: the versioned one pairs by version', () => {
    assert.deepEqual(pairs(template(['x', undefined], ['x', '1.0.0']), template(['x', '1.0.0'], ['x', undefined])), [
      'x@1.0.0 -> 1.0.0',
      'x@undefined -> -',
    ]);
  });

  test('one set on each side is one pair, even under two names', () => {
    assert.deepEqual(pairs(template(['before', '1.0.0']), template(['after', '1.0.1'])), ['before@1.0.0 -> 1.0.1']);
  });
});

describe('reading the sides', () => {
  const set = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      name: 'side',
      ...extra,
      properties: {
        displayName: 'Side',
        policyDefinitions: [
          { policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d' },
        ],
        ...properties,
      },
    });

  test('a removed parameter is located by a JSON pointer with ~ and / escaped, its range on its key', () => {
    const oldText =
      '{\n  "properties": {\n    "displayName": "S",\n    "parameters": {\n      "a/b~c": { "type": "String" }\n    },\n    "policyDefinitions": []\n  }\n}';
    const newText = '{ "properties": { "displayName": "S", "parameters": {}, "policyDefinitions": [] } }';
    const result = compareTexts({ file: 'old.json', text: oldText }, { file: 'new.json', text: newText });
    assert.ok(result.ok);
    if (!result.ok) return;
    const [change] = result.reports[0].changes;
    assert.equal(change.kind, 'parameter-removed');
    assert.equal(change.location.pointer, '/properties/parameters/a~1b~0c');
    // Line 5 (0-based 4), "a/b~c" from column 6 to 13: the key with its quotes.
    assert.deepEqual(change.location.range, { start: { line: 4, character: 6 }, end: { line: 4, character: 13 } });
  });

  test('a change in a list is located by its index', () => {
    const refs = (ids: string[]) =>
      ids.map((id) => ({
        policyDefinitionReferenceId: id,
        policyDefinitionId: `/providers/Microsoft.Authorization/policyDefinitions/${id}`,
      }));
    const result = compareTexts(
      { file: 'old.json', text: set({ policyDefinitions: refs(['a', 'b']) }) },
      { file: 'new.json', text: set({ policyDefinitions: refs(['a', 'b', 'c']) }) },
    );
    assert.ok(result.ok);
    if (result.ok)
      assert.deepEqual(
        result.reports[0].changes.map((c) => [c.kind, c.location.pointer]),
        [['reference-added', '/properties/policyDefinitions/2']],
      );
  });

  test('nesting: 512 levels are read, 513 are not; closed brackets and escaped quotes do not count', () => {
    const nested = (levels: number) => compareTexts({ file: 'old.json', text: '['.repeat(levels) + ']'.repeat(levels) }, undefined);
    const at512 = nested(512);
    assert.equal(at512.ok, false);
    if (!at512.ok) assert.doesNotMatch(at512.problem, /nested deeper/);
    const at513 = nested(513);
    assert.equal(at513.ok, false);
    if (!at513.ok) assert.equal(at513.problem, 'old.json:1:513: nested deeper than 512 levels: not compared');
    // 600 lists side by side, each closed: never more than two levels.
    const wide = set({ metadata: { lists: Array.from({ length: 600 }, () => [[]]) } });
    assert.ok(compareTexts({ file: 'old.json', text: wide }, { file: 'new.json', text: wide }).ok, 'closed brackets close');
    // A string that holds an escaped quote, then brackets: still inside the string.
    const quoted = set({ description: '"' + '['.repeat(600) });
    assert.ok(
      compareTexts({ file: 'old.json', text: quoted }, { file: 'new.json', text: quoted }).ok,
      'an escaped quote does not end a string',
    );
    const backslash = set({ description: '\\', displayName: '['.repeat(600) });
    assert.ok(compareTexts({ file: 'old.json', text: backslash }, { file: 'new.json', text: backslash }).ok, 'an escaped backslash does');
  });

  test('the size limit: 8 MiB of text is read, one character more is not', () => {
    const limit = 8 * 1024 * 1024;
    const at = compareTexts({ file: 'old.json', text: ' '.repeat(limit) }, undefined);
    assert.equal(at.ok, false);
    if (!at.ok) assert.doesNotMatch(at.problem, /larger than/);
    const over = compareTexts({ file: 'old.json', text: ' '.repeat(limit + 1) }, undefined);
    assert.equal(over.ok, false);
    if (!over.ok) assert.equal(over.problem, 'old.json: larger than 8 MB of text: not compared');
  });

  test('a byte order mark is not part of the text', () => {
    const text = set({ version: '1.0.0' });
    const result = compareTexts({ file: 'old.json', text: '\uFEFF' + text }, { file: 'new.json', text });
    assert.ok(result.ok, result.ok ? '' : result.problem);
    if (result.ok) assert.deepEqual(result.reports[0].changes, []);
    const broken = compareTexts({ file: 'old.json', text: '\uFEFF{"properties": }' }, undefined);
    assert.equal(broken.ok, false);
    if (!broken.ok) assert.equal(broken.problem, 'old.json:1:16: not valid JSON (value expected): fix it before comparing');
  });

  test('not a set: said, and marked as such only when no policy key is in it', () => {
    assert.deepEqual(readSides('a.json', '{"a": 1}'), {
      ok: false,
      problem: 'a.json: not a policy set definition (nor a version of one, nor a template holding them)',
      notASet: 'not a policy set definition',
    });
    assert.deepEqual(readSides('a.txt', 'hello'), {
      ok: false,
      problem: 'a.txt:1:1: not valid JSON (invalid symbol): fix it before comparing',
      notASet: 'not JSON, and no policy key in it',
    });
    const broken = readSides('b.json', '{"properties": {"policyDefinitions": [}}');
    assert.equal(broken.ok, false);
    if (!broken.ok) assert.equal(broken.notASet, undefined);
    const empty = readSides('c.json', '');
    assert.equal(empty.ok, false);
    if (!empty.ok) assert.equal(empty.problem, 'c.json:1:1: not valid JSON (value expected): fix it before comparing');
  });

  test('the version: properties.version (a string), else a version resource name, else metadata.version', () => {
    const version = (text: string) => {
      const read = readSides('v.json', text);
      assert.ok(read.ok, read.ok ? '' : read.problem);
      return read.ok ? [read.sides[0].version?.text, read.sides[0].version?.source] : [];
    };
    assert.deepEqual(version(set({ version: '1.0.0', metadata: { version: '2.0.0' } })), ['1.0.0', 'properties.version']);
    assert.deepEqual(version(set({ version: 1, metadata: { version: '2.0.0' } })), ['2.0.0', 'metadata.version']);
    assert.deepEqual(version(set({ metadata: { version: 3 } })), [undefined, undefined]);
    const resource = (name: string, properties: Record<string, unknown> = {}) =>
      set(properties, { name, type: 'Microsoft.Authorization/policySetDefinitions/versions' });
    assert.deepEqual(version(resource('1.2.3')), ['1.2.3', 'name']);
    assert.deepEqual(version(resource('my-set/1.2.3')), ['1.2.3', 'name']);
    assert.deepEqual(
      version(resource('1.2')),
      ['1.2', 'name'],
      'a name that starts with a digit is a version (invalid-version says what is wrong)',
    );
    assert.deepEqual(version(resource('latest', { metadata: { version: '4.0.0' } })), ['4.0.0', 'metadata.version']);
    assert.deepEqual(version(resource("[concat('1.', '2.3')]", { metadata: { version: '4.0.0' } })), ['4.0.0', 'metadata.version']);
    assert.deepEqual(
      version(set({ metadata: { version: '4.0.0' } }, { name: '1.2.3', type: 'Microsoft.Authorization/policySetDefinitions' })),
      ['4.0.0', 'metadata.version'],
      'a set is not named by its version',
    );
  });
});

describe('split sets', () => {
  const DEF = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
  const parts = (references: number, groups: string[], dir: string, parameters = '{}') =>
    readSplitSide({
      definitions: {
        uri: `${dir}/s.definitions.json`,
        text: JSON.stringify(
          Array.from({ length: references }, (_, i) => ({ policyDefinitionReferenceId: `r${i}`, policyDefinitionId: `${DEF}${i}` })),
          null,
          2,
        ),
      },
      parameters: { uri: `${dir}/s.parameters.json`, text: parameters },
      groups: { uri: `${dir}/s.groups.json`, text: JSON.stringify(groups.map((name) => ({ name }))) },
    });

  test('without its definitions part, or with a part that is not JSON, a split set is refused with a sentence', () => {
    assert.deepEqual(readSplitSide({}), { ok: false, problem: 'a split set needs its <base>.definitions.json part' });
    const broken = parts(1, [], 'x', '{"a": }');
    assert.equal(broken.ok, false);
    if (!broken.ok) assert.equal(broken.problem, 'x/s.parameters.json:1:7: not valid JSON (value expected): fix it before comparing');
    assert.ok(parts(1, [], 'x', '\uFEFF{}').ok, 'a part with a byte order mark');
  });

  test('a change in the definitions or groups part is located in that part, by a pointer inside it', () => {
    const oldRead = parts(1, ['g1'], 'old');
    const newRead = parts(2, ['g1', 'g2'], 'new');
    assert.ok(oldRead.ok && newRead.ok);
    if (!oldRead.ok || !newRead.ok) return;
    const report = compareSets(oldRead.sides[0], newRead.sides[0]);
    assert.deepEqual(report.changes.map((c) => [c.kind, c.location.file, c.location.pointer]).sort(), [
      ['group-added', 'new/s.groups.json', '/1'],
      ['reference-added', 'new/s.definitions.json', '/1'],
    ]);
    const added = report.changes.find((c) => c.kind === 'reference-added')!;
    // The second reference of the definitions part starts on its line 6 (0-based 5): '[', '{', 2 properties, '},'.
    assert.equal(added.location.range.start.line, 5);
  });
});

describe('reading the sides: what the first run left', () => {
  const DEF = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
  const SCHEMA = 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#';
  const plain = (properties: Record<string, unknown> = {}) => ({
    name: 'plain',
    properties: { displayName: 'Plain', policyDefinitions: [{ policyDefinitionId: DEF }], ...properties },
  });
  const read = (text: string) => compareTexts({ file: 'old.json', text }, { file: 'new.json', text });

  test('comments and trailing commas are read, as the service tolerates them', () => {
    const text =
      '{ // a set\n "name": "c", /* its words */ "properties": { "displayName": "C", "policyDefinitions": [ { "policyDefinitionId": "' +
      DEF +
      '" }, ], }, }';
    const result = read(text);
    assert.ok(result.ok, result.ok ? '' : result.problem);
  });

  test('a range is the key of an object or a list, and the value itself otherwise', () => {
    const oldText = JSON.stringify(plain({ parameters: { p: { type: 'String', allowedValues: ['a', 'b'] } } }), null, 2);
    const newText = JSON.stringify(plain({ displayName: 'Plainer', parameters: { p: { type: 'String', allowedValues: ['a'] } } }), null, 2);
    const lines = newText.split('\n');
    const where = (needle: string) => {
      const line = lines.findIndex((l) => l.includes(needle));
      return { line, character: lines[line].indexOf(needle) };
    };
    const result = compareTexts({ file: 'old.json', text: oldText }, { file: 'new.json', text: newText });
    assert.ok(result.ok);
    if (!result.ok) return;
    const range = (kind: string) => result.reports[0].changes.find((c) => c.kind === kind)?.location.range;
    const key = where('"allowedValues"');
    assert.deepEqual(range('allowed-values-narrowed'), {
      start: key,
      end: { line: key.line, character: key.character + '"allowedValues"'.length },
    });
    const value = where('"Plainer"');
    assert.deepEqual(range('display-name-changed'), {
      start: value,
      end: { line: value.line, character: value.character + '"Plainer"'.length },
    });
  });

  test('deep nesting after a string, and objects nested as deep as lists, are refused', () => {
    const afterString = read('{"a": ' + '['.repeat(600) + ']'.repeat(600) + '}');
    assert.equal(afterString.ok, false);
    if (!afterString.ok) assert.equal(afterString.problem, 'old.json:1:518: nested deeper than 512 levels: not compared');
    const afterStrings = read('{"a": "xy", "b": "\\\\", "c": ' + '['.repeat(600) + ']'.repeat(600) + '}');
    assert.equal(afterStrings.ok, false);
    if (!afterStrings.ok) assert.match(afterStrings.problem, /: nested deeper than 512 levels: not compared$/);
    const objects = read('{"a":'.repeat(513) + '1' + '}'.repeat(513));
    assert.equal(objects.ok, false);
    if (!objects.ok) assert.equal(objects.problem, 'old.json:1:2561: nested deeper than 512 levels: not compared');
  });

  test('a line break inside a string is read as one only in a template, whatever the spacing of its $schema', () => {
    const set = JSON.stringify(plain({ description: 'one LINEBREAK two' }), null, 2).replace('LINEBREAK', '\n');
    const refused = read(set);
    assert.equal(refused.ok, false, 'not a template: a line break in a string is not JSON');
    if (!refused.ok) assert.match(refused.problem, /^old\.json:\d+:\d+: not valid JSON/);
    const template = (schema: string) =>
      `{ ${schema}, "contentVersion": "1.0.0.0", "resources": [ { "type": "Microsoft.Authorization/policySetDefinitions", "apiVersion": "2021-06-01", "name": "t", "properties": { "description": "one\ntwo", "policyDefinitions": [ { "policyDefinitionId": "${DEF}" } ] } } ] }`;
    for (const schema of [`"$schema" :"${SCHEMA}"`, `"$schema":"${SCHEMA}"`, `"$schema":  "${SCHEMA}"`]) {
      const result = read(template(schema));
      assert.ok(result.ok, `${schema}: ${result.ok ? '' : result.problem}`);
    }
  });

  test('a template with a line break in a string and another error: the error named is the first in the text', () => {
    // Line 1: '{ "$schema": ..., "resources": [ { ... "description": "one' / line 2: 'two" } ...' and no closing brace.
    const text = `{ "$schema": "${SCHEMA}", "resources": [ { "type": "Microsoft.Authorization/policySetDefinitions", "name": "t", "properties": { "description": "one\ntwo", "policyDefinitions": [] } } ]`;
    const result = read(text);
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.problem, /^old\.json:1:\d+: not valid JSON/);
  });

  test('a template holding a set resource beside one built from a variable that holds none: both are read', () => {
    const text = JSON.stringify({
      $schema: SCHEMA,
      contentVersion: '1.0.0.0',
      variables: { none: 'nothing' },
      resources: [
        { type: 'Microsoft.Authorization/policySetDefinitions', apiVersion: '2021-06-01', name: 'direct', properties: plain().properties },
        {
          type: 'Microsoft.Authorization/policySetDefinitions',
          apiVersion: '2021-06-01',
          name: 'built',
          properties: { displayName: 'Built', policyDefinitions: "[variables('none')]" },
        },
      ],
    });
    const sides = readSides('t.json', text);
    assert.ok(sides.ok, sides.ok ? '' : sides.problem);
    if (sides.ok)
      assert.deepEqual(
        sides.sides.map((s) => s.name),
        ['direct', 'built'],
      );
  });

  test('the version from a name: a digit first, never an expression, never a name without one', () => {
    const version = (resource: Record<string, unknown>) => {
      const sides = readSides('v.json', JSON.stringify({ type: 'Microsoft.Authorization/policySetDefinitions/versions', ...resource }));
      assert.ok(sides.ok, sides.ok ? '' : sides.problem);
      return sides.ok ? sides.sides[0].version?.text : undefined;
    };
    const properties = { policyDefinitions: [{ policyDefinitionId: DEF }], metadata: { version: '9.9.9' } };
    assert.equal(version({ name: 'v1.2.3', properties }), '9.9.9');
    assert.equal(version({ name: 'x.1.2', properties }), '9.9.9');
    const inTemplate = readSides(
      't.json',
      JSON.stringify({
        $schema: SCHEMA,
        contentVersion: '1.0.0.0',
        resources: [
          {
            type: 'Microsoft.Authorization/policySetDefinitions/versions',
            apiVersion: '2024-05-01',
            name: "[concat(parameters('set'), '/1.2.3')]",
            properties,
          },
        ],
      }),
    );
    assert.ok(inTemplate.ok, inTemplate.ok ? '' : inTemplate.problem);
    if (inTemplate.ok) assert.equal(inTemplate.sides[0].version?.text, '9.9.9', 'a name built by an expression');
    assert.equal(version({ properties }), '9.9.9', 'no name');
  });

  test('split sets: the definitions part alone; a definitions part nested too deep; a place outside every part', () => {
    const definitions = { uri: 'd/s.definitions.json', text: JSON.stringify([{ policyDefinitionId: DEF }]) };
    const alone = readSplitSide({ definitions });
    assert.ok(alone.ok, alone.ok ? '' : alone.problem);
    const deep = readSplitSide({ definitions: { uri: 'd/s.definitions.json', text: '['.repeat(600) + ']'.repeat(600) } });
    assert.equal(deep.ok, false);
    if (!deep.ok) assert.match(deep.problem, /^d\/s\.definitions\.json:\d+:\d+: nested deeper than 512 levels: not compared$/);
    // A parameter removed with the whole parameters part: in the new set it was taken from no part.
    const before = readSplitSide({ definitions, parameters: { uri: 'd/s.parameters.json', text: '{ "p": { "type": "String" } }' } });
    assert.ok(before.ok && alone.ok);
    if (!before.ok || !alone.ok) return;
    const [removed] = compareSets(before.sides[0], alone.sides[0]).changes;
    assert.equal(removed.kind, 'parameter-removed');
    assert.equal(removed.inNew?.file, 'd/s.definitions.json');
    assert.deepEqual(removed.inNew?.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  });
});

describe('sets embedded in template variables', () => {
  const DEF = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
  const SCHEMA = 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#';
  const set = (parameters: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
    name: 'embedded',
    type: 'Microsoft.Authorization/policySetDefinitions',
    properties: { displayName: 'E', parameters, metadata, policyDefinitions: [{ policyDefinitionId: DEF }] },
  });
  /** A template whose one set resource reads variables('$fxv#0'), which holds the set as a string or as an object. */
  const template = (variable: unknown) =>
    JSON.stringify({
      $schema: SCHEMA,
      contentVersion: '1.0.0.0',
      variables: { $fxv$0: variable },
      resources: [
        {
          type: 'Microsoft.Authorization/policySetDefinitions',
          apiVersion: '2021-06-01',
          name: 'embedded',
          properties: "[json(variables('$fxv$0')).properties]",
        },
      ],
    }).replace(/\$fxv\$0/g, '$fxv#0');

  test('a change inside a string is shown on the string', () => {
    const oldText = template(JSON.stringify(set({ p: { type: 'String' } })));
    const newText = template(JSON.stringify(set({})));
    const result = compareTexts({ file: 'old.json', text: oldText }, { file: 'new.json', text: newText });
    assert.ok(result.ok, result.ok ? '' : result.problem);
    if (!result.ok) return;
    const [removed] = result.reports[0].changes;
    assert.equal(removed.kind, 'parameter-removed');
    assert.equal(removed.location.pointer, '/variables/$fxv#0/properties/parameters/p');
    // The string: from its opening quote after '"$fxv#0":' to its closing quote, on the one line of the text.
    const start = oldText.indexOf('"$fxv#0":') + '"$fxv#0":'.length;
    const end = oldText.indexOf('"},"resources"') + 1;
    assert.deepEqual(removed.location.range, { start: { line: 0, character: start }, end: { line: 0, character: end } });
  });

  test('a change inside an object variable is shown where it is', () => {
    const oldText = template(set({ p: { type: 'String' } }));
    const newText = template(set({}));
    const result = compareTexts({ file: 'old.json', text: oldText }, { file: 'new.json', text: newText });
    assert.ok(result.ok, result.ok ? '' : result.problem);
    if (!result.ok) return;
    const [removed] = result.reports[0].changes;
    assert.equal(removed.kind, 'parameter-removed');
    assert.equal(removed.location.pointer, '/variables/$fxv#0/properties/parameters/p');
    // The declaration's value, {"type":"String"}, in the old text.
    const start = oldText.indexOf('{"type":"String"}');
    assert.deepEqual(removed.location.range, {
      start: { line: 0, character: start },
      end: { line: 0, character: start + '{"type":"String"}'.length },
    });
  });

  test('a string that holds a set that cannot be read: the template is refused, the string named', () => {
    const deep = JSON.stringify(set({}, { deep: JSON.parse('['.repeat(600) + ']'.repeat(600)) }));
    const result = readSides('t.json', template(deep));
    assert.equal(result.ok, false);
    if (!result.ok)
      assert.match(
        result.problem,
        /^t\.json: variables\('\$fxv#0'\) holds a set that cannot be read \(the string:1:\d+: nested deeper than 512 levels: not compared\)$/,
      );
  });
});

describe('the change model: what the first run of changes.ts left', () => {
  const DEF = '/providers/Microsoft.Authorization/policyDefinitions/';
  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const setOf = (properties: Json): Json => ({ name: 's', properties: { displayName: 'S', policyDefinitions: [], ...properties } });
  const report = (oldSet: Json, newSet: Json) => {
    const result = compareTexts(
      { file: 'old.json', text: JSON.stringify(oldSet, null, 2) },
      { file: 'new.json', text: JSON.stringify(newSet, null, 2) },
    );
    assert.ok(result.ok, result.ok ? '' : result.problem);
    return result.ok ? result.reports[0] : (undefined as never);
  };
  const kinds = (oldSet: Json, newSet: Json) => report(oldSet, newSet).changes.map((c) => c.kind);

  test('showPair: short values whole; long ones cut to a window around the first difference', () => {
    const x = (n: number) => 'x'.repeat(n);
    assert.deepEqual(showPair(x(78), 'y'.repeat(78)), [`"${x(78)}"`, `"${'y'.repeat(78)}"`], '80 characters each: whole');
    assert.deepEqual(showPair(x(79), 'y'.repeat(79)), [`"${x(73)}...`, `"${'y'.repeat(73)}...`], '81: cut');
    assert.deepEqual(showPair(x(100) + 'A', x(100) + 'B'), [`...${x(30)}A"`, `...${x(30)}B"`]);
    assert.deepEqual(showPair('A' + x(100), 'B' + x(100)), [`"A${x(72)}...`, `"B${x(72)}...`]);
    assert.deepEqual(showPair('short', x(100)), ['"short"', `"${x(73)}...`]);
    assert.deepEqual(showPair(x(40) + 'A' + x(100), x(40) + 'B' + x(100)), [`...${x(30)}A${x(43)}...`, `...${x(30)}B${x(43)}...`]);
  });

  test('a value longer than 80 characters is shown cut to 77 and "..."', () => {
    const values = Array.from({ length: 20 }, (_, i) => `v${i}`);
    const [change] = report(
      setOf({ parameters: { p: { type: 'String' } } }),
      setOf({ parameters: { p: { type: 'String', allowedValues: values } } }),
    ).changes;
    const shown = JSON.stringify(values).slice(0, 77) + '...';
    assert.equal(change.message, `Parameter 'p' now restricts its values to ${shown}: assignments that pass other values fail`);
    const short = ['a'.repeat(76)]; // ["aaa…"]: exactly 80 characters
    const [whole] = report(
      setOf({ parameters: { p: { type: 'String' } } }),
      setOf({ parameters: { p: { type: 'String', allowedValues: short } } }),
    ).changes;
    assert.equal(
      whole.message,
      `Parameter 'p' now restricts its values to ${JSON.stringify(short)}: assignments that pass other values fail`,
    );
  });

  test('numbers and key order inside values: 5 to 6 is a change, keys reordered are not', () => {
    assert.deepEqual(
      kinds(
        setOf({ parameters: { n: { type: 'Integer', defaultValue: 5 } } }),
        setOf({ parameters: { n: { type: 'Integer', defaultValue: 6 } } }),
      ),
      ['default-value-changed'],
    );
    assert.deepEqual(
      kinds(
        setOf({ parameters: { n: { type: 'String', metadata: { displayName: 'N', description: 'd' } } } }),
        setOf({ parameters: { n: { type: 'String', metadata: { description: 'd', displayName: 'N' } } } }),
      ),
      [],
    );
  });

  test('a reference is named by its reference ID, else the last segment of what it references, else its place', () => {
    const messages = (oldRefs: Json[]) =>
      report(setOf({ policyDefinitions: oldRefs }), setOf({ policyDefinitions: [] })).changes.map((c) => c.message);
    const tail = ": assignments' overrides, exemptions and non-compliance messages that name it lose it";
    assert.deepEqual(messages([{ policyDefinitionReferenceId: 'r1', policyDefinitionId: `${DEF}d1` }]), [
      `Reference 'r1' is removed${tail}`,
    ]);
    assert.deepEqual(messages([{ policyDefinitionId: `${DEF}d1` }]), [`Reference of 'd1' is removed${tail}`]);
    assert.deepEqual(messages([{ policyDefinitionName: 'pac-name' }]), [`Reference of 'pac-name' is removed${tail}`]);
    assert.deepEqual(messages([{ parameters: {} }, { parameters: {} }]), [
      `Reference #1 is removed${tail}`,
      `Reference #2 is removed${tail}`,
    ]);
  });

  test('references that name no definition and are known by no other: one removed, one added (no throw)', () => {
    assert.deepEqual(
      kinds(
        setOf({ policyDefinitions: [{ policyDefinitionReferenceId: 'a' }] }),
        setOf({ policyDefinitions: [{ policyDefinitionReferenceId: 'b' }] }),
      ),
      ['reference-removed', 'reference-added'],
    );
  });

  test('a rename: the same uses, in any order and spacing of the call; not when the other parameters of the expression differ', () => {
    const withUses = (name: string, other: string, call = (p: string) => `[parameters('${p}')]`) =>
      setOf({
        parameters: { [name]: { type: 'String' }, [other]: { type: 'String' } },
        policyDefinitions: [
          { policyDefinitionReferenceId: 'r1', policyDefinitionId: `${DEF}d1`, parameters: { effect: { value: call(name) } } },
          { policyDefinitionReferenceId: 'r2', policyDefinitionId: `${DEF}d2`, parameters: { effect: { value: call(name) } } },
          {
            policyDefinitionReferenceId: 'r3',
            policyDefinitionId: `${DEF}d3`,
            parameters: { both: { value: `[concat(parameters('${name}'), parameters('${other}'))]` } },
          },
        ],
      });
    assert.deepEqual(kinds(withUses('a', 'o'), withUses('b', 'o')), ['parameter-renamed']);
    const reordered = withUses('b', 'o');
    reordered.properties.policyDefinitions.reverse();
    assert.deepEqual(kinds(withUses('a', 'o'), reordered), ['parameter-renamed'], 'references reordered');
    // Spaces in the call: still a rename, and nothing else (the references that pass it pass the same values).
    for (const call of [
      (p: string) => `[parameters( '${p}')]`,
      (p: string) => `[parameters('${p}' )]`,
      (p: string) => `[Parameters(  '${p}'\t)]`,
    ]) {
      assert.deepEqual(kinds(withUses('a', 'o', call), withUses('b', 'o', call)), ['parameter-renamed'], call('x'));
    }
    // The call's spacing and casing changed too: the references pass the same values, written differently.
    assert.deepEqual(
      kinds(
        withUses('a', 'o', (p) => `[parameters( '${p}')]`),
        withUses('b', 'o', (p) => `[PARAMETERS('${p.toUpperCase()}')]`),
      ),
      ['parameter-renamed'],
    );
    const another = kinds(withUses('a', 'o'), withUses('b', 'q'));
    assert.ok(!another.includes('parameter-renamed'), `another parameter beside it: ${another}`);
  });

  test('a parameter that now feeds another definition parameter is removed and added, not renamed', () => {
    const feeding = (name: string, holder: string) =>
      setOf({
        parameters: { [name]: { type: 'String' } },
        policyDefinitions: [
          {
            policyDefinitionReferenceId: 'r1',
            policyDefinitionId: `${DEF}d1`,
            parameters: { [holder]: { value: `[parameters('${name}')]` } },
          },
        ],
      });
    assert.deepEqual(kinds(feeding('a', 'effect'), feeding('b', 'effect')), ['parameter-renamed']);
    assert.ok(!kinds(feeding('a', 'effect'), feeding('b', 'tagName')).includes('parameter-renamed'));
  });

  test('each change says where it shows in the new file, what it takes away, and its other end', () => {
    const old = setOf({
      parameters: { gone: { type: 'String' }, kept: { type: 'String' } },
      policyDefinitionGroups: [{ name: 'g' }],
      policyDefinitions: [{ policyDefinitionReferenceId: 'r1', policyDefinitionId: `${DEF}d1` }],
    });
    const next = setOf({ parameters: { kept: { type: 'String' } }, policyDefinitionGroups: [], policyDefinitions: [] });
    const byKind = Object.fromEntries(report(old, next).changes.map((c) => [c.kind, c]));
    assert.deepEqual(Object.keys(byKind).sort(), ['group-removed', 'parameter-removed', 'reference-removed']);
    assert.equal(byKind['parameter-removed'].side, 'old');
    assert.equal(byKind['parameter-removed'].location.pointer, '/properties/parameters/gone');
    assert.equal(byKind['parameter-removed'].inNew?.pointer, '/properties/parameters');
    assert.deepEqual(byKind['parameter-removed'].subject, { what: 'parameter', name: 'gone' });
    assert.equal(byKind['reference-removed'].inNew?.pointer, '/properties/policyDefinitions');
    assert.deepEqual(byKind['reference-removed'].subject, { what: 'referenceId', name: 'r1' });
    assert.equal(byKind['group-removed'].inNew?.pointer, '/properties/policyDefinitionGroups');
    // Without a parameters object in the new set: the set's properties.
    const bare = setOf({ policyDefinitions: [] });
    const [removed] = report(setOf({ parameters: { gone: { type: 'String' } } }), bare).changes;
    assert.equal(removed.inNew?.pointer, '/properties');
    // A change on the new side shows where it is; a rename names its old end.
    const renamedFrom = setOf({
      parameters: { a: { type: 'String' } },
      policyDefinitions: [
        { policyDefinitionReferenceId: 'r1', policyDefinitionId: `${DEF}d1`, parameters: { effect: { value: "[parameters('a')]" } } },
      ],
    });
    const renamedTo = structuredClone(renamedFrom);
    renamedTo.properties.parameters = { b: { type: 'String' } };
    renamedTo.properties.policyDefinitions[0].parameters.effect.value = "[parameters('b')]";
    const [renamed] = report(renamedFrom, renamedTo).changes;
    assert.equal(renamed.kind, 'parameter-renamed');
    assert.equal(renamed.inNew?.pointer, '/properties/parameters/b');
    assert.equal(renamed.previous?.pointer, '/properties/parameters/a');
    assert.deepEqual(renamed.subject, { what: 'parameter', name: 'a' });
    const [added] = report(setOf({}), setOf({ parameters: { p: { type: 'String', defaultValue: 'x' } } })).changes;
    assert.deepEqual(
      [added.side, added.inNew?.pointer, added.previous, added.subject],
      ['new', '/properties/parameters/p', undefined, undefined],
    );
  });

  test('showPair: a short value ending exactly at the window is shown whole beside a long one', () => {
    const x = (n: number) => 'x'.repeat(n);
    // The window is 74 characters from the start: a 74-character text fits it, so no '...' after it.
    assert.deepEqual(showPair(x(100), 'y'.repeat(72)), [`"${x(73)}...`, `"${'y'.repeat(72)}"`]);
    assert.deepEqual(showPair(x(100), 'y'.repeat(73)), [`"${x(73)}...`, `"${'y'.repeat(73)}...`]);
  });

  test("references without reference IDs: matched by the policy-as-code framework's name, and a rename seen through a reorder", () => {
    const byName = (...names: string[]) =>
      setOf({ policyDefinitions: names.map((name) => ({ policyDefinitionName: name, parameters: {} })) });
    assert.deepEqual(kinds(byName('alpha', 'beta'), byName('beta', 'alpha')), [], 'reordered: nothing changed');
    assert.deepEqual(kinds(byName('alpha', 'beta'), byName('beta', 'Alpha')), [], 'a name in another casing is the same name');
    const uses = (name: string, reversed: boolean) => {
      const references = [
        { policyDefinitionId: `${DEF}d1`, parameters: { effect: { value: `[parameters('${name}')]` } } },
        { policyDefinitionId: `${DEF}d2` },
      ];
      return setOf({ parameters: { [name]: { type: 'String' } }, policyDefinitions: reversed ? references.reverse() : references });
    };
    assert.deepEqual(kinds(uses('effectOld', false), uses('effectNew', true)), ['parameter-renamed'], 'matched by what they reference');
  });

  test("a group removed while the new references name it shows on the new file's groups, as a group removed does", () => {
    const grouped = (groups: Json[]) =>
      setOf({
        policyDefinitionGroups: groups,
        policyDefinitions: [{ policyDefinitionReferenceId: 'r1', policyDefinitionId: `${DEF}d1`, groupNames: ['g'] }],
      });
    const [change] = report(grouped([{ name: 'g' }, { name: 'h' }]), grouped([{ name: 'h' }])).changes;
    assert.equal(change.kind, 'group-removed-while-named');
    assert.equal(change.location.pointer, '/properties/policyDefinitionGroups/0');
    assert.equal(change.inNew?.pointer, '/properties/policyDefinitionGroups');
  });

  test('changes of one bump: those in the new file first, each side by line', () => {
    const old = setOf({ parameters: { q: { type: 'String' }, p1: { type: 'String' }, p2: { type: 'String' } } });
    const next = setOf({ parameters: { p1: { type: 'Integer' }, p2: { type: 'Integer' } } });
    assert.deepEqual(
      report(old, next).changes.map((c) => `${c.kind} ${c.location.pointer}`),
      [
        'parameter-type-changed /properties/parameters/p1/type',
        'parameter-type-changed /properties/parameters/p2/type',
        'parameter-removed /properties/parameters/q',
      ],
    );
  });

  test('a set new in the change: no check made', () => {
    const result = compareTexts(undefined, { file: 'new.json', text: JSON.stringify(setOf({ version: '1.0.0' })) });
    assert.ok(result.ok);
    if (result.ok) {
      assert.strictEqual(result.reports[0].versionOk, null);
      assert.strictEqual(result.reports[0].versionProblem, undefined);
      assert.ok(!('versionNote' in result.reports[0]));
    }
  });
});

describe("what changes.ts's second half reports: the set's metadata, a parameter's allowed values", () => {
  const REF = { policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d' };
  const text = (properties: Record<string, unknown>) =>
    JSON.stringify({ name: 's', properties: { displayName: 'S', policyDefinitions: [REF], ...properties } });
  const changes = (before: Record<string, unknown>, after: Record<string, unknown>) => {
    const result = compareTexts({ file: 'old.json', text: text(before) }, { file: 'new.json', text: text(after) });
    assert.ok(result.ok);
    return result.ok ? result.reports[0].changes.map((c) => [c.kind, c.message]) : [];
  };

  test("the set's metadata: the keys that changed are named, its version key (in any case) is not a change", () => {
    assert.deepEqual(changes({ metadata: { category: 'A', keep: 1 } }, { metadata: { category: 'B', keep: 1, added: true } }), [
      ['metadata-changed', "The set's metadata changed ('category', 'added')"],
    ]);
    assert.deepEqual(changes({ metadata: { gone: 1 } }, {}), [['metadata-changed', "The set's metadata changed ('gone')"]]);
    assert.deepEqual(changes({}, { metadata: { new: 1 } }), [['metadata-changed', "The set's metadata changed ('new')"]]);
    for (const key of ['version', 'Version', 'VERSION'])
      assert.deepEqual(
        changes({ metadata: { [key]: '1.0.0', a: 1 } }, { metadata: { [key]: '2.0.0', a: 1 } }).filter(([k]) => k === 'metadata-changed'),
        [],
        key,
      );
    assert.deepEqual(changes({ metadata: {} }, {}), [], 'an empty object and none are the same');
    assert.deepEqual(changes({ metadata: { null: null } }, { metadata: { null: null } }), [], 'the same on both sides');
  });

  test("the set's metadata that is no object: what it was and is, never the keys of a string", () => {
    assert.deepEqual(changes({ metadata: 'ab' }, { metadata: { category: 'A' } }), [
      ['metadata-changed', `The set's metadata changed from "ab" to {"category":"A"}`],
    ]);
    assert.deepEqual(changes({ metadata: { category: 'A' } }, { metadata: ['x'] }), [
      ['metadata-changed', `The set's metadata changed from {"category":"A"} to ["x"]`],
    ]);
    assert.deepEqual(changes({}, { metadata: 7 }), [['metadata-changed', "The set's metadata changed from undefined to 7"]]);
    assert.deepEqual(changes({ metadata: 'same' }, { metadata: 'same' }), [], 'the same string on both sides');
    assert.deepEqual(changes({ metadata: null }, {}), [], 'null and none are the same');
  });

  test('allowed values: one value removed or several, a list added, the list removed, values added (no definitions known)', () => {
    const parameter = (allowedValues?: unknown[]) => ({
      parameters: { effect: { type: 'String', ...(allowedValues ? { allowedValues } : {}) } },
    });
    assert.deepEqual(changes(parameter(['Audit', 'Deny']), parameter(['Audit'])), [
      ['allowed-values-narrowed', `Parameter 'effect' no longer allows "Deny": assignments that pass it fail`],
    ]);
    assert.deepEqual(changes(parameter(['Audit', 'Deny', 'Disabled']), parameter(['Audit'])), [
      ['allowed-values-narrowed', `Parameter 'effect' no longer allows "Deny", "Disabled": assignments that pass them fail`],
    ]);
    assert.deepEqual(changes(parameter(), parameter(['Audit'])), [
      ['allowed-values-narrowed', `Parameter 'effect' now restricts its values to ["Audit"]: assignments that pass other values fail`],
    ]);
    assert.deepEqual(changes(parameter(['Audit']), parameter()), [
      ['allowed-values-widened', "Parameter 'effect' no longer restricts its values"],
    ]);
    assert.deepEqual(
      changes(parameter(['Audit']), parameter(['Audit', 'Deny'])).map(([kind]) => kind),
      ['allowed-values-widened'],
    );
    assert.deepEqual(changes(parameter(['Audit', 'Deny']), parameter(['Deny', 'Audit'])), [], 'the same values in another order');
  });
});

describe("what changes.ts's second half reports: references matched, definition versions, values passed, definitions replaced", () => {
  const GUID = '06a78e20-9358-41c9-923c-fb736d382a4d';
  const BUILT_IN = `/providers/Microsoft.Authorization/policyDefinitions/${GUID}`;
  const OTHER = '/providers/Microsoft.Authorization/policyDefinitions/0a914e76-4921-4c19-b460-a2d36003525a';
  // Printed two spaces deep: line 5 (0-based) opens the first reference, line 6 holds its first key.
  const textOf = (properties: Record<string, unknown>) =>
    JSON.stringify({ name: 's', properties: { displayName: 'S', ...properties } }, null, 2);
  const compare = (before: Record<string, unknown>, after: Record<string, unknown>, options: CompareOptions = {}) => {
    const result = compareTexts({ file: 'old.json', text: textOf(before) }, { file: 'new.json', text: textOf(after) }, options);
    assert.ok(result.ok);
    return result.ok ? result.reports[0].changes : [];
  };
  const refs = (...references: Array<Record<string, unknown>>) => ({ policyDefinitions: references });
  const kinds = (changes: ReturnType<typeof compare>) => changes.map((c) => [c.kind, c.message]);
  const catalog = (definitions: Array<{ id: string; parameters: Record<string, unknown> }>) => {
    const known = new DefinitionCatalog();
    known.addIndex(definitions.map((d) => ({ ...d, name: d.id.split('/').pop() })));
    return known;
  };

  test('a reference matched by its definition gains, loses or renames its reference ID: what consumers lose, and where', () => {
    const without = refs({ policyDefinitionId: BUILT_IN });
    const withId = (id: string) => refs({ policyDefinitionReferenceId: id, policyDefinitionId: BUILT_IN });
    const [gained] = compare(without, withId('r'));
    assert.equal(
      gained.message,
      `The reference to '${GUID}' gains the reference ID 'r': the ID the service generated, which assignments' overrides, exemptions and non-compliance messages name, is replaced`,
    );
    assert.equal(gained.subject, undefined, 'no ID consumers could name was taken away');
    assert.deepEqual([gained.location.range.start.line, gained.previous?.range.start.line], [6, 5]);
    const [removed] = compare(withId('r'), without);
    assert.equal(
      removed.message,
      "Reference ID 'r' is removed: the service generates another one, and assignments' overrides, exemptions and non-compliance messages that name 'r' lose it",
    );
    assert.deepEqual(removed.subject, { what: 'referenceId', name: 'r' });
    assert.deepEqual([removed.location.range.start.line, removed.previous?.range.start.line], [5, 6]);
    const [renamed] = compare(withId('r'), withId('q'));
    assert.equal(
      renamed.message,
      "Reference ID 'r' is renamed to 'q': assignments' overrides, exemptions and non-compliance messages that name 'r' lose it",
    );
    assert.deepEqual(renamed.subject, { what: 'referenceId', name: 'r' });
  });

  test('a reference removed names its reference ID as what consumers lose, when it has one; a reference added says the setting', () => {
    const kept = { policyDefinitionReferenceId: 'kept', policyDefinitionId: OTHER };
    const [removedWithout] = compare(refs(kept, { policyDefinitionId: BUILT_IN }), refs(kept));
    assert.deepEqual([removedWithout.kind, removedWithout.subject], ['reference-removed', undefined]);
    const [removedWith] = compare(refs(kept, { policyDefinitionReferenceId: 'r', policyDefinitionId: BUILT_IN }), refs(kept));
    assert.deepEqual(removedWith.subject, { what: 'referenceId', name: 'r' });
    const added = (options: CompareOptions) =>
      compare(refs(kept), refs(kept, { policyDefinitionReferenceId: 'new', policyDefinitionId: BUILT_IN }), options)[0];
    assert.deepEqual(
      [added({}).bump, added({}).message],
      ['minor', "Reference 'new' is added: every assignment of the set now evaluates it"],
    );
    assert.deepEqual(
      [added({ referenceAdded: 'major' }).bump, added({ referenceAdded: 'major' }).message],
      ['major', "Reference 'new' is added: every assignment of the set now evaluates it (a major change by this project's setting)"],
    );
  });

  test('definitionVersion: another major version, a change within one, one side without, and values that are no version', () => {
    const at = (version?: string) =>
      refs({
        policyDefinitionReferenceId: 'r',
        policyDefinitionId: BUILT_IN,
        ...(version === undefined ? {} : { definitionVersion: version }),
      });
    const major = "Reference 'r' moves from definitionVersion";
    assert.deepEqual(kinds(compare(at('1.*.*'), at('2.*.*'))), [
      ['definition-version-major-changed', `${major} '1.*.*' to '2.*.*', another major version of the definition`],
    ]);
    assert.equal(compare(at('1.*.*'), at('2.*.*'))[0].location.range.start.line, 8, 'at the new definitionVersion');
    assert.deepEqual(kinds(compare(at('10.*.*'), at('11.*.*'))), [
      ['definition-version-major-changed', `${major} '10.*.*' to '11.*.*', another major version of the definition`],
    ]);
    assert.deepEqual(kinds(compare(at('1.0.*'), at('1.1.*'))), [
      ['definition-version-changed', `Reference 'r' changes its definitionVersion from "1.0.*" to "1.1.*"`],
    ]);
    const gained = compare(at(), at('1.*.*'));
    assert.deepEqual(kinds(gained), [['definition-version-changed', `Reference 'r' changes its definitionVersion from null to "1.*.*"`]]);
    assert.equal(gained[0].location.range.start.line, 8, 'at the definitionVersion');
    const lost = compare(at('1.*.*'), at());
    assert.deepEqual(kinds(lost), [['definition-version-changed', `Reference 'r' changes its definitionVersion from "1.*.*" to null`]]);
    assert.equal(lost[0].location.range.start.line, 5, 'at the reference, which no longer has one');
    // No major version to read on one side: a change, not another major version (and no failure).
    assert.deepEqual(kinds(compare(at('latest'), at('2.*.*'))), [
      ['definition-version-changed', `Reference 'r' changes its definitionVersion from "latest" to "2.*.*"`],
    ]);
    assert.deepEqual(kinds(compare(at('1.*.*'), at('v2.*.*'))), [
      ['definition-version-changed', `Reference 'r' changes its definitionVersion from "1.*.*" to "v2.*.*"`],
    ]);
  });

  test('the values a reference passes: a number or a list changed is a change, the same list is not', () => {
    const passing = (value: unknown) =>
      refs({ policyDefinitionReferenceId: 'r', policyDefinitionId: BUILT_IN, parameters: { p: { value } } });
    const changed = [['reference-parameters-changed', "Reference 'r' passes other parameter values to its definition"]];
    assert.deepEqual(kinds(compare(passing(1), passing(2))), changed);
    assert.deepEqual(kinds(compare(passing(['a']), passing(['b']))), changed);
    assert.deepEqual(kinds(compare(passing(["[parameters('x')]"]), passing(['x']))), changed);
    assert.deepEqual(kinds(compare(passing(['a', { b: 1 }]), passing(['a', { b: 1 }]))), []);
  });

  test('names are compared folded to lower case, as the service compares them: ß is not SS', () => {
    // Upper-casing would fold 'ß' into 'SS' and call two names the same that the service keeps apart.
    const ref = (more: Record<string, unknown>) => refs({ policyDefinitionReferenceId: 'r', policyDefinitionId: BUILT_IN, ...more });
    const changed = (kind: string) => (changes: ReturnType<typeof compare>) => changes.some((c) => c.kind === kind);
    assert.ok(changed('reference-groups-changed')(compare(ref({ groupNames: ['Straße'] }), ref({ groupNames: ['STRASSE'] }))));
    assert.ok(!changed('reference-groups-changed')(compare(ref({ groupNames: ['Straße', 'b'] }), ref({ groupNames: ['B', 'STRAßE'] }))));
    const passes = 'reference-parameters-changed';
    assert.ok(changed(passes)(compare(ref({ parameters: { ß: { value: 1 } } }), ref({ parameters: { SS: { value: 1 } } }))));
    assert.ok(!changed(passes)(compare(ref({ parameters: { ß: { value: 1 } } }), ref({ parameters: { ß: { value: 1 } } }))));
    const calling = (name: string) => ref({ parameters: { p: { value: `[parameters('${name}')]` } } });
    assert.ok(changed(passes)(compare(calling('ß'), calling('SS'))));
    assert.ok(!changed(passes)(compare(calling('Straße'), calling('STRAßE'))));
  });

  test('a reference with neither ID nor name paired by its reference ID, and one by policy-as-code name: no definition compared', () => {
    const bare = refs({ policyDefinitionReferenceId: 'r' });
    assert.deepEqual(kinds(compare(bare, refs({ policyDefinitionReferenceId: 'r', policyDefinitionId: BUILT_IN }))), []);
    assert.deepEqual(kinds(compare(refs({ policyDefinitionReferenceId: 'r', policyDefinitionId: BUILT_IN }), bare)), []);
    const byName = refs({ policyDefinitionReferenceId: 'r', policyDefinitionName: 'Deny-Public-IP' });
    const byId = refs({ policyDefinitionReferenceId: 'r', policyDefinitionId: BUILT_IN });
    assert.deepEqual(kinds(compare(byName, byId)), []);
    assert.deepEqual(kinds(compare(byId, byName)), []);
  });

  describe('a definition replaced under a kept reference ID, with the definitions known', () => {
    const pointing = (id: string, more: Record<string, unknown> = {}) => ({
      parameters: { eff: { type: 'String', defaultValue: 'Deny' }, ...((more.setParameters as object) ?? {}) },
      ...refs({ policyDefinitionReferenceId: 'r', policyDefinitionId: id, ...((more.reference as object) ?? {}) }),
    });
    // What the replacement is classified as (the values a reference passes, changed too in some cases, aside).
    const replacing = (changes: ReturnType<typeof compare>) => kinds(changes).filter(([kind]) => kind !== 'reference-parameters-changed');
    const effect = (defaultValue?: string) => ({ effect: { type: 'String', ...(defaultValue ? { defaultValue } : {}) } });
    // Both IDs shown from 30 characters before where they differ (showPair), each cut to 74.
    const base = () =>
      `Reference 'r' now points at ...horization/policyDefinitions/0a914e76-4921-4c19-b460-a2d36003525a" instead of ...horization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d": its compliance results are about another definition`;

    test('one side not among the definitions: said which, the effect not compared; the old ID is where it was', () => {
      const onlyOld = catalog([{ id: BUILT_IN, parameters: effect('Audit') }]);
      const onlyNew = catalog([{ id: OTHER, parameters: effect('Deny') }]);
      const [newMissing] = compare(pointing(BUILT_IN), pointing(OTHER), { definitions: onlyOld });
      assert.deepEqual(
        [newMissing.kind, newMissing.message],
        [
          'definition-id-changed',
          `${base()} (a definition moved within the set; the new definition is not among those given, so its default effect was not compared)`,
        ],
      );
      assert.equal(newMissing.previous?.range.start.line, 13, "the old reference's policyDefinitionId");
      const [oldMissing] = compare(pointing(BUILT_IN), pointing(OTHER), { definitions: onlyNew });
      assert.equal(
        oldMissing.message,
        `${base()} (a definition moved within the set; the old definition is not among those given, so its default effect was not compared)`,
      );
    });

    test("the effect each side evaluates: the definition's default, a value passed, the set parameter it is passed", () => {
      const both = (oldEffect?: string, newEffect?: string) =>
        catalog([
          { id: BUILT_IN, parameters: oldEffect === undefined ? {} : effect(oldEffect) },
          { id: OTHER, parameters: newEffect === undefined ? {} : effect(newEffect) },
        ]);
      const added = (from: string, to: string) => [
        'enforcement-default-added',
        `${base()}, whose default effect is ${to} where it was ${from}: assignments start to enforce it (an enforcement effect added by default)`,
      ];
      const quiet = (to: string) => [
        'definition-id-changed',
        `${base()} (a definition moved within the set; its default effect ${to} adds no enforcement)`,
      ];
      assert.deepEqual(replacing(compare(pointing(BUILT_IN), pointing(OTHER), { definitions: both('Audit', 'Deny') })), [
        added('"Audit"', '"Deny"'),
      ]);
      assert.deepEqual(replacing(compare(pointing(BUILT_IN), pointing(OTHER), { definitions: both('Deny', 'Deny') })), [quiet('"Deny"')]);
      assert.deepEqual(replacing(compare(pointing(BUILT_IN), pointing(OTHER), { definitions: both('Audit', 'Audit') })), [
        quiet('"Audit"'),
      ]);
      // A definition without an effect parameter evaluates none.
      assert.deepEqual(replacing(compare(pointing(BUILT_IN), pointing(OTHER), { definitions: both(undefined, undefined) })), [
        quiet('null'),
      ]);
      // A value passed decides over the definition's default: literally, or the set parameter it names (spaces, any case).
      const passing = (value: unknown) => ({ reference: { parameters: { Effect: { value } } } });
      assert.deepEqual(replacing(compare(pointing(BUILT_IN), pointing(OTHER, passing('Audit')), { definitions: both('Audit', 'Deny') })), [
        quiet('"Audit"'),
      ]);
      assert.deepEqual(
        replacing(
          compare(pointing(BUILT_IN), pointing(OTHER, passing("[ parameters( 'EFF' ) ]")), { definitions: both('Audit', 'Audit') }),
        ),
        [added('"Audit"', '"Deny"')],
      );
      // A set parameter it names that the set does not declare: no effect known.
      assert.deepEqual(
        replacing(compare(pointing(BUILT_IN), pointing(OTHER, passing("[parameters('missing')]")), { definitions: both('Audit', 'Deny') })),
        [quiet('null')],
      );
      // A value that is no string is the effect as it is (no call to read).
      assert.deepEqual(
        replacing(compare(pointing(BUILT_IN), pointing(OTHER, passing(['Deny'])), { definitions: both('Audit', 'Audit') })),
        [quiet('["Deny"]')],
      );
      // A list holding the call is the list, not the call.
      assert.deepEqual(
        replacing(compare(pointing(BUILT_IN), pointing(OTHER, passing(["[parameters('eff')]"])), { definitions: both('Audit', 'Audit') })),
        [quiet(`["[parameters('eff')]"]`)],
      );
      // An expression around the call is not the call: the text itself.
      assert.deepEqual(
        replacing(compare(pointing(BUILT_IN), pointing(OTHER, passing("[parameters('eff')] ")), { definitions: both('Audit', 'Audit') })),
        [quiet(`"[parameters('eff')] "`)],
      );
      assert.deepEqual(
        replacing(compare(pointing(BUILT_IN), pointing(OTHER, passing("x[parameters('eff')]")), { definitions: both('Audit', 'Audit') })),
        [quiet(`"x[parameters('eff')]"`)],
      );
    });
  });

  describe('allowed values removed or added, with the definitions the parameter feeds known', () => {
    const setWith = (allowedValues: unknown[] | undefined, references: Array<Record<string, unknown>>) => ({
      parameters: { eff: { type: 'String', ...(allowedValues ? { allowedValues } : {}) } },
      policyDefinitions: references,
    });
    const feeding = (id: string, holder = 'effect', value: unknown = "[parameters('eff')]") => ({
      policyDefinitionReferenceId: id.slice(-4),
      policyDefinitionId: id,
      parameters: { [holder]: { value } },
    });
    const accepting = (id: string, allowedValues?: unknown[], name = 'effect') => ({
      id,
      parameters: { [name]: { type: 'String', ...(allowedValues ? { allowedValues } : {}) } },
    });
    const kindOf = (
      before: unknown[] | undefined,
      after: unknown[] | undefined,
      references: Array<Record<string, unknown>>,
      definitions: DefinitionCatalog,
    ) => compare(setWith(before, references), setWith(after, references), { definitions }).map((c) => [c.kind, c.bump]);
    const NARROWED = [['allowed-values-narrowed', 'major']];
    const UNUSABLE = [['allowed-values-unusable-removed', 'patch']];

    test('values removed: unusable only when every definition fed refuses every value removed', () => {
      const one = [feeding(BUILT_IN)];
      const two = [feeding(BUILT_IN), feeding(OTHER)];
      const known = catalog([accepting(BUILT_IN, ['Audit', 'Deny']), accepting(OTHER, ['Audit', 'Disabled'])]);
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], one, known), UNUSABLE);
      assert.deepEqual(kindOf(['Audit', 'Deny', 'Bogus'], ['Audit'], one, known), NARROWED, 'Deny was accepted');
      assert.deepEqual(kindOf(['Audit', 'Disabled'], ['Audit'], two, known), NARROWED, 'the second definition accepts it');
      assert.deepEqual(kindOf(['Audit', 'bogus', 'BOGUS2'], ['Audit'], one, known), UNUSABLE);
      assert.deepEqual(kindOf(['Audit', 'deny'], ['Audit'], one, known), NARROWED, 'compared in any case');
      const numbers = catalog([accepting(BUILT_IN, [1, 2])]);
      assert.deepEqual(kindOf([1, 2, 3], [1, 2], one, numbers), UNUSABLE);
      assert.deepEqual(kindOf([1, 2, '2'], [1, 2], one, numbers), UNUSABLE, 'the string "2" is not the number 2');
      assert.deepEqual(kindOf(['Audit', 3], ['Audit'], one, known), UNUSABLE, 'a number removed, strings accepted');
      const [single] = compare(setWith(['Audit', 'Bogus'], one), setWith(['Audit'], one), { definitions: known });
      assert.equal(
        single.message,
        `Parameter 'eff' no longer allows "Bogus", which no definition it feeds accepts: no assignment could pass it and work`,
      );
      const [several] = compare(setWith(['Audit', 'X', 'Y'], one), setWith(['Audit'], one), { definitions: known });
      assert.equal(
        several.message,
        `Parameter 'eff' no longer allows "X", "Y", which no definition it feeds accepts: no assignment could pass them and work`,
      );
    });

    test('a list added: unusable-removed only when it holds every value each definition fed accepts', () => {
      const one = [feeding(BUILT_IN)];
      const two = [feeding(BUILT_IN), feeding(OTHER)];
      const known = catalog([accepting(BUILT_IN, ['Audit', 'Deny']), accepting(OTHER, ['Audit', 'Disabled'])]);
      assert.deepEqual(kindOf(undefined, ['Audit', 'Deny'], one, known), UNUSABLE);
      assert.deepEqual(kindOf(undefined, ['Audit'], one, known), NARROWED);
      assert.deepEqual(kindOf(undefined, ['Audit', 'Deny'], two, known), NARROWED, "the second definition's Disabled is left out");
      assert.deepEqual(kindOf(undefined, ['Audit', 'Deny', 'Disabled'], two, known), UNUSABLE);
    });

    test('what the definitions accept is not known: a break as without definitions, never a failure', () => {
      const known = catalog([accepting(BUILT_IN, ['Audit', 'Deny']), accepting(OTHER, undefined)]);
      // Not among the definitions, no such parameter there, a parameter without allowedValues.
      assert.deepEqual(
        kindOf(['Audit', 'Bogus'], ['Audit'], [feeding('/providers/Microsoft.Authorization/policyDefinitions/unknown')], known),
        NARROWED,
      );
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(BUILT_IN, 'other')], known), NARROWED);
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(OTHER)], known), NARROWED);
      // The call inside a list, with spaces, with an expression around it or text after it.
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(BUILT_IN, 'effect', ["[parameters('eff')]"])], known), NARROWED);
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(BUILT_IN, 'effect', "[ parameters( 'eff' ) ]")], known), UNUSABLE);
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(BUILT_IN, 'effect', "[parameters('eff')] ")], known), NARROWED);
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(BUILT_IN, 'effect', "x[parameters('eff')]")], known), NARROWED);
      assert.deepEqual(
        kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(BUILT_IN, 'effect', "[concat('a')][parameters('eff')]")], known),
        NARROWED,
      );
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], [feeding(BUILT_IN, 'effect', "[parameters('eff')][0]")], known), NARROWED);
      // A reference by policy-as-code name only (no ID): looked up by that name.
      const byName = [
        { policyDefinitionReferenceId: 'n', policyDefinitionName: GUID, parameters: { effect: { value: "[parameters('eff')]" } } },
      ];
      assert.deepEqual(kindOf(['Audit', 'Bogus'], ['Audit'], byName, known), UNUSABLE);
    });
  });

  test('names the set declares twice (in other cases) are compared once, and a group list given by an expression is not compared', () => {
    const param = (type: string) => ({ type });
    const member = refs({ policyDefinitionId: BUILT_IN });
    const twice = compare(
      { ...member, parameters: { p: param('String') } },
      { ...member, parameters: { p: param('Integer'), P: param('Integer') } },
    );
    assert.deepEqual(twice.filter((c) => c.kind === 'parameter-type-changed').length, 1);
    const groups = (...names: string[]) => ({ policyDefinitionGroups: names.map((name) => ({ name })) });
    assert.deepEqual(
      compare(groups('g', 'G', 'kept'), groups('kept')).map((c) => c.kind),
      ['group-removed'],
    );
    assert.deepEqual(
      compare(groups('kept'), groups('kept', 'n', 'N')).map((c) => c.kind),
      ['group-added'],
    );
  });
});

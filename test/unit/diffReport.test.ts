// The outputs of `policyset diff` (server/src/cli/versions/diffReport.ts) over hand-made change reports,
// in-process: text, markdown, SARIF and JSON, each expected output written out by hand from docs/cli.md and
// docs/versions.md (which sets are listed, the verdict's words, what is escaped). The CLI process tests check
// the same through `policyset diff`; these let the `cli` mutation target kill a mutant in about a second.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { diffSummary, formatDiffMarkdown, formatDiffSarif, formatDiffText, toJson } from '#server/cli/versions/diffReport';
import type { ChangeReport } from '#service';

const CWD = path.resolve('/work/repo');
const range = (line: number, character: number, length = 3) => ({
  start: { line, character },
  end: { line, character: character + length },
});
const at = (file: string, pointer: string, line: number, character: number) => ({ file, pointer, range: range(line, character) });

function reports(): ChangeReport[] {
  const changed: ChangeReport = {
    old: { file: 'sets/a.json', version: '1.0.0' },
    new: { file: 'sets/a.json', version: '1.0.1' },
    requiredBump: 'major',
    suggestedVersion: '2.0.0',
    versionOk: false,
    versionProblem: 'version 1.0.1 needs 2.0.0 or later',
    versionLocation: at('sets/a.json', '/properties/version', 2, 15),
    versionNote: 'a note \u001b[31m',
    changes: [
      {
        kind: 'parameter-removed',
        bump: 'major',
        message: "Parameter 'effect' is removed",
        side: 'old',
        location: at('sets/a.json', '/properties/parameters/effect', 4, 6),
        inNew: at('sets/a.json', '/properties/parameters', 3, 4),
        breaks: [{ file: 'assign/x.json', line: 7 }],
      },
      {
        kind: 'reference-added',
        bump: 'minor',
        message: 'Reference [r2] is added | pipe',
        side: 'new',
        location: at('sets/a.json', '/properties/policyDefinitions/1', 20, 8),
        inNew: at('sets/a.json', '/properties/policyDefinitions/1', 20, 8),
      },
    ],
  };
  const unchanged: ChangeReport = {
    old: { file: 'sets/b.json', version: '1.0.0' },
    new: { file: 'sets/b.json', version: '1.0.0' },
    requiredBump: 'none',
    suggestedVersion: undefined,
    versionOk: true,
    versionProblem: undefined,
    versionLocation: undefined,
    changes: [],
  };
  const added: ChangeReport = {
    old: undefined,
    new: { file: 'sets/new.json', version: '1.0.0' },
    requiredBump: 'none',
    suggestedVersion: undefined,
    versionOk: null,
    versionProblem: undefined,
    versionLocation: undefined,
    changes: [],
  };
  return [changed, unchanged, added];
}

describe('text', () => {
  test('the changed and the new sets, each change with its bump and place, the consumers it breaks; the unchanged counted', () => {
    assert.equal(
      formatDiffText(reports(), CWD, false),
      [
        'sets/a.json (1.0.0) -> sets/a.json (1.0.1): version 1.0.1 needs 2.0.0 or later',
        '  a note \\u001b[31m',
        "  major  Parameter 'effect' is removed  parameter-removed sets/a.json:5:7",
        '         breaks assign/x.json:7',
        '  minor  Reference [r2] is added | pipe  reference-added sets/a.json:21:9',
        '(none) -> sets/new.json (1.0.0): new: nothing to compare',
        '3 sets compared, 1 with changes',
        '',
      ].join('\n'),
    );
  });

  test('one set is always shown; each verdict in its words', () => {
    const [changed, unchanged, added] = reports();
    const first = (r: ChangeReport) => formatDiffText([r], CWD, false).split('\n')[0];
    assert.equal(first(unchanged), 'sets/b.json (1.0.0) -> sets/b.json (1.0.0): no version change needed; version ok');
    assert.equal(formatDiffText([unchanged], CWD, false).split('\n')[1], '1 set compared, 0 with changes');
    assert.equal(first({ ...changed, versionOk: true }), 'sets/a.json (1.0.0) -> sets/a.json (1.0.1): needs a major version; version ok');
    assert.equal(
      first({ ...changed, versionProblem: undefined }),
      'sets/a.json (1.0.0) -> sets/a.json (1.0.1): needs a major version; version not bumped enough',
    );
    assert.equal(
      first({ ...changed, versionOk: null, versionProblem: undefined }),
      'sets/a.json (1.0.0) -> sets/a.json (1.0.1): needs a major version (suggested: 2.0.0)',
    );
    assert.equal(
      first({ ...changed, versionOk: null, versionProblem: 'the old side has no version' }),
      'sets/a.json (1.0.0) -> sets/a.json (1.0.1): needs a major version (suggested: 2.0.0); the old side has no version',
    );
    assert.equal(
      first({ ...unchanged, versionOk: null, suggestedVersion: '1.0.0' }),
      'sets/b.json (1.0.0) -> sets/b.json (1.0.0): no version change needed',
    );
    assert.equal(
      first({ ...changed, versionOk: null, suggestedVersion: undefined, versionProblem: undefined }),
      'sets/a.json (1.0.0) -> sets/a.json (1.0.1): needs a major version',
    );
    assert.equal(first({ ...changed, new: undefined }), 'sets/a.json (1.0.0) -> (none): removed');
    assert.equal(first({ ...added, new: { file: 'x.json', version: undefined } }), '(none) -> x.json: new: nothing to compare');
    assert.equal(
      first({ ...unchanged, old: { file: 'builtin:abc', version: '1.0.0' } }),
      'builtin:abc (1.0.0) -> sets/b.json (1.0.0): no version change needed; version ok',
    );
    assert.equal(
      first({ ...unchanged, new: { file: path.join(CWD, 'abs.json'), version: '1.0.0' } }),
      'sets/b.json (1.0.0) -> abs.json (1.0.0): no version change needed; version ok',
    );
  });

  test('many sets: an unchanged one is not listed, but one whose version fails is; the note only beside changes or a failure', () => {
    const [changed, unchanged] = reports();
    const failing = { ...unchanged, versionOk: false, versionProblem: 'version went down', versionNote: 'note' };
    const text = formatDiffText([unchanged, failing], CWD, false);
    assert.equal(
      text,
      ['sets/b.json (1.0.0) -> sets/b.json (1.0.0): version went down', '  note', '2 sets compared, 0 with changes', ''].join('\n'),
    );
    const quiet = formatDiffText([{ ...unchanged, versionNote: 'unsaid' }], CWD, false);
    assert.equal(quiet.includes('unsaid'), false);
    const noBreaks = { ...changed, changes: [{ ...changed.changes[0], breaks: [] }] };
    assert.equal(formatDiffText([noBreaks], CWD, false).includes('breaks'), false, 'no consumers broken: no line');
  });

  test('colours: the bump by how breaking, never inside the files’ text', () => {
    const lines = formatDiffText(reports().slice(0, 1), CWD, true).split('\n');
    assert.equal(lines[0], '\u001b[4msets/a.json (1.0.0) -> sets/a.json (1.0.1)\u001b[0m: version 1.0.1 needs 2.0.0 or later');
    assert.equal(lines[1], '  \u001b[2ma note \\u001b[31m\u001b[0m');
    assert.equal(
      lines[2],
      "  \u001b[31mmajor\u001b[0m  Parameter 'effect' is removed  \u001b[2mparameter-removed sets/a.json:5:7\u001b[0m",
    );
    assert.equal(
      lines[4],
      '  \u001b[33mminor\u001b[0m  Reference [r2] is added | pipe  \u001b[2mreference-added sets/a.json:21:9\u001b[0m',
    );
    const patch = { ...reports()[0], changes: [{ ...reports()[0].changes[1], bump: 'patch' as const }] };
    assert.equal(formatDiffText([patch], CWD, true).split('\n')[2].startsWith('  \u001b[36mpatch\u001b[0m  '), true);
    const none = { ...reports()[0], changes: [{ ...reports()[0].changes[1], bump: 'none' as const }] };
    assert.equal(formatDiffText([none], CWD, true).split('\n')[2].startsWith('  \u001b[2mnone \u001b[0m  '), true);
  });
});

describe('summary and markdown', () => {
  test('the one-line summary', () => {
    const [changed, unchanged, added] = reports();
    assert.equal(diffSummary(reports()), '3 sets compared, 1 with changes (1 major), 1 with a version bumped too little.');
    assert.equal(diffSummary([unchanged]), '1 set compared, 0 with changes, every version bumped enough.');
    const minor = { ...changed, requiredBump: 'minor' as const, versionOk: true };
    const patch = { ...changed, requiredBump: 'patch' as const, versionOk: true };
    assert.equal(
      diffSummary([changed, minor, minor, patch, added]),
      '5 sets compared, 4 with changes (1 major, 2 minor, 1 patch), 1 with a version bumped too little.',
    );
    assert.equal(
      diffSummary([changed, { ...changed, versionOk: false }]),
      '2 sets compared, 2 with changes (2 major), 2 with a version bumped too little.',
    );
  });

  test('a pull-request comment: the sets worth a section, a table per bump, cells escaped', () => {
    assert.equal(
      formatDiffMarkdown(reports(), CWD),
      [
        '## Policy set changes',
        '',
        '3 sets compared, 1 with changes (1 major), 1 with a version bumped too little.',
        '',
        '### sets/a.json (1.0.0) -> sets/a.json (1.0.1)',
        '',
        '❌ **major** change: version 1.0.1 needs 2.0.0 or later',
        '',
        '_a note \\u001b[31m_',
        '',
        '#### Major (1)',
        '',
        '| Change | Kind | Where | Breaks |',
        '|---|---|---|---|',
        "| Parameter 'effect' is removed | `parameter-removed` | sets/a.json:5 `/properties/parameters/effect` | assign/x.json:7 |",
        '',
        '#### Minor (1)',
        '',
        '| Change | Kind | Where |',
        '|---|---|---|',
        '| Reference [r2] is added \\| pipe | `reference-added` | sets/a.json:21 `/properties/policyDefinitions/1` |',
        '',
        '### (none) -> sets/new.json (1.0.0)',
        '',
        '➖ **none** change: new: nothing to compare',
        '',
        'No changes that assignments can see.',
        '',
      ].join('\n'),
    );
  });

  test('markdown: ✅ for a version that is enough, a removed set listed, consumers looked for and none found, a patch table, line breaks in a cell', () => {
    const [changed, unchanged] = reports();
    const ok = {
      ...changed,
      versionOk: true,
      versionNote: undefined,
      changes: [
        { ...changed.changes[0], breaks: [], message: 'two\r\nlines\nand\rmore' },
        { ...changed.changes[1], bump: 'patch' as const },
      ],
    };
    const text = formatDiffMarkdown([ok, { ...unchanged, new: undefined, versionOk: null }], CWD);
    assert.ok(text.includes('✅ **major** change: needs a major version; version ok\n'), text);
    assert.ok(
      text.includes('| two lines and more | `parameter-removed` | sets/a.json:5 `/properties/parameters/effect` | none found |'),
      text,
    );
    assert.ok(text.includes('#### Patch (1)\n\n| Change | Kind | Where |\n'), text);
    assert.ok(!text.includes('#### Minor'), text);
    assert.ok(
      text.includes('### sets/b.json (1.0.0) -> (none)\n\n➖ **none** change: removed\n\nNo changes that assignments can see.\n'),
      text,
    );
    // A set without changes whose version fails has a section; two changes in one table, one breaking consumers.
    const failing = { ...unchanged, versionOk: false, versionProblem: 'version went down' };
    const twoInTable = {
      ...changed,
      versionNote: undefined,
      changes: [changed.changes[0], { ...changed.changes[0], message: 'another', breaks: undefined }],
    };
    const more = formatDiffMarkdown([failing, twoInTable], CWD);
    assert.ok(
      more.includes(
        '### sets/b.json (1.0.0) -> sets/b.json (1.0.0)\n\n❌ **none** change: version went down\n\nNo changes that assignments can see.\n',
      ),
      more,
    );
    assert.ok(
      more.includes(
        "| Change | Kind | Where | Breaks |\n|---|---|---|---|\n| Parameter 'effect' is removed | `parameter-removed` | sets/a.json:5 `/properties/parameters/effect` | assign/x.json:7 |\n| another | `parameter-removed` | sets/a.json:5 `/properties/parameters/effect` |  |\n",
      ),
      more,
    );
  });
});

describe('SARIF and JSON', () => {
  test('each change on its line of the new file, the consumers it breaks linked, the version check; nothing for what has no place or no bump', () => {
    const [changed, unchanged] = reports();
    const withExtras = {
      ...changed,
      changes: [
        ...changed.changes,
        { ...changed.changes[1], kind: 'description-changed' as const, bump: 'none' as const, message: 'not reported' },
        { ...changed.changes[1], inNew: undefined, message: 'nowhere in the new file' },
      ],
    };
    const log = JSON.parse(formatDiffSarif([withExtras, unchanged], CWD, '1.2.3'));
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'policyset diff');
    assert.equal(run.tool.driver.version, '1.2.3');
    assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, `file://${CWD}/`);
    const rules = run.tool.driver.rules;
    assert.equal(rules.at(-1).id, 'version-not-bumped');
    assert.equal(rules.at(-1).defaultConfiguration.level, 'error');
    assert.deepEqual(rules.at(-1).shortDescription, { text: 'The version is not bumped as far as the change requires' });
    const removed = rules.find((r: { id: string }) => r.id === 'parameter-removed');
    assert.deepEqual(removed, {
      id: 'parameter-removed',
      name: 'parameter-removed',
      shortDescription: { text: 'parameter removed (major)' },
      defaultConfiguration: { level: 'error' },
    });
    assert.equal(rules.find((r: { id: string }) => r.id === 'reference-added').defaultConfiguration.level, 'warning');
    assert.equal(run.results.length, 3);
    for (const r of run.results) assert.equal(rules[r.ruleIndex].id, r.ruleId);
    assert.deepEqual(run.results[0], {
      ruleId: 'parameter-removed',
      ruleIndex: rules.indexOf(removed),
      level: 'error',
      message: { text: "Parameter 'effect' is removed (major) It breaks this consumer: [assign/x.json:7](1)." },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'sets/a.json', uriBaseId: '%SRCROOT%' },
            region: { startLine: 4, startColumn: 5, endLine: 4, endColumn: 8 },
          },
        },
      ],
      relatedLocations: [
        {
          id: 1,
          physicalLocation: { artifactLocation: { uri: 'assign/x.json', uriBaseId: '%SRCROOT%' }, region: { startLine: 7 } },
          message: { text: 'consumer that names it' },
        },
      ],
      properties: { bump: 'major', path: '/properties/parameters/effect', breaks: 1 },
    });
    assert.deepEqual(run.results[1].message, { text: 'Reference [r2] is added | pipe (minor)' });
    assert.equal(run.results[1].level, 'warning');
    assert.equal('relatedLocations' in run.results[1], false);
    assert.deepEqual(run.results[1].properties, { bump: 'minor', path: '/properties/policyDefinitions/1' });
    assert.deepEqual(run.results[2], {
      ruleId: 'version-not-bumped',
      ruleIndex: rules.length - 1,
      level: 'error',
      message: { text: 'version 1.0.1 needs 2.0.0 or later' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'sets/a.json', uriBaseId: '%SRCROOT%' },
            region: { startLine: 3, startColumn: 16, endLine: 3, endColumn: 19 },
          },
        },
      ],
      properties: { suggestedVersion: '2.0.0' },
    });
  });

  test('SARIF: several consumers, brackets of the text escaped beside links, a file outside the root by its address, a patch as a note', () => {
    const [changed] = reports();
    const change = {
      ...changed.changes[1],
      bump: 'patch' as const,
      inNew: at('../elsewhere/s.json', '/x', 0, 0),
      breaks: [
        { file: 'a [1].json', line: 2 },
        { file: 'b.json', line: 3 },
      ],
    };
    const run = JSON.parse(formatDiffSarif([{ ...changed, versionOk: true, changes: [change] }], CWD, '1')).runs[0];
    assert.equal(run.results.length, 1);
    const result = run.results[0];
    assert.equal(result.level, 'note');
    assert.equal(
      result.message.text,
      'Reference \\[r2\\] is added | pipe (patch) It breaks these 2 consumers: [a \\[1\\].json:2](1), [b.json:3](2).',
    );
    assert.deepEqual(result.locations[0].physicalLocation.artifactLocation, { uri: `file://${path.resolve(CWD, '../elsewhere/s.json')}` });
    assert.deepEqual(
      result.relatedLocations.map((r: { id: number; physicalLocation: { artifactLocation: unknown } }) => [
        r.id,
        r.physicalLocation.artifactLocation,
      ]),
      [
        [1, { uri: 'a%20%5B1%5D.json', uriBaseId: '%SRCROOT%' }],
        [2, { uri: 'b.json', uriBaseId: '%SRCROOT%' }],
      ],
    );
    const noLocation = JSON.parse(formatDiffSarif([{ ...changed, changes: [], versionLocation: undefined }], CWD, '1')).runs[0];
    assert.deepEqual(noLocation.results, [], 'a failing version without a place is not a result');
  });

  test('JSON: the documented shape', () => {
    const [changed, , added] = reports();
    assert.deepEqual(toJson(changed), {
      old: { file: 'sets/a.json', version: '1.0.0' },
      new: { file: 'sets/a.json', version: '1.0.1' },
      requiredBump: 'major',
      suggestedVersion: '2.0.0',
      versionOk: false,
      versionProblem: 'version 1.0.1 needs 2.0.0 or later',
      versionNote: 'a note \u001b[31m',
      changes: [
        {
          kind: 'parameter-removed',
          bump: 'major',
          path: '/properties/parameters/effect',
          message: "Parameter 'effect' is removed",
          line: 5,
          file: 'sets/a.json',
          breaks: [{ file: 'assign/x.json', line: 7 }],
        },
        {
          kind: 'reference-added',
          bump: 'minor',
          path: '/properties/policyDefinitions/1',
          message: 'Reference [r2] is added | pipe',
          line: 21,
          file: 'sets/a.json',
        },
      ],
    });
    assert.deepEqual(toJson({ ...added, new: { file: 'n.json', version: undefined } }), {
      old: null,
      new: { file: 'n.json', version: null },
      requiredBump: 'none',
      suggestedVersion: null,
      versionOk: null,
      changes: [],
    });
    assert.equal(toJson({ ...changed, old: undefined, new: undefined }).new, null);
  });
});

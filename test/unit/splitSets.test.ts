// The cloud CLI's split layout in `lint` (server/src/cli/lint/splitSets.ts), in-process: the parts of a set
// found from any one of them (named, or beside it on disk), assembled once, checked as one set, and each
// problem given back to its part. The set is test/fixtures/dialects/split-layout/tagging (copied); where its
// problems are was worked out by hand from its text: the group 'Cost' is named in the references (line 6,
// column 31) but not declared, the references pass `costCentreTag` (line 11, column 57) where the parameter is
// `costCenterTag`, which no reference uses (the parameters part, line 3, column 3), and the group 'Billing' is
// declared (the groups part, line 3, column 13) but no reference names it (PS5003, a hint the CLI's text hides).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lintSplitSets } from '#server/cli/lint/splitSets';
import type { LintSettings } from '#server/cli/lint/lintFile';
import { REPO_ROOT } from '../support/corpus';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'dialects', 'split-layout', 'tagging');
const SETTINGS: LintSettings = { severities: {}, identities: true };
let dir: string;
let counter = 0;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-split-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of the fixture's three parts in a folder of their own; `edit` changes a part's text first. */
function copy(edit: Partial<Record<'definitions' | 'parameters' | 'groups', string | null>> = {}, extension = 'json') {
  const folder = path.join(dir, `set-${++counter}`);
  fs.mkdirSync(folder);
  const paths: Record<string, string> = {};
  for (const part of ['definitions', 'parameters', 'groups'] as const) {
    const text = edit[part] === undefined ? fs.readFileSync(path.join(FIXTURE, `tags.${part}.json`), 'utf8') : edit[part];
    paths[part] = path.join(folder, `tags.${part}.${extension}`);
    if (text !== null) fs.writeFileSync(paths[part], text);
  }
  return paths as Record<'definitions' | 'parameters' | 'groups', string>;
}

const task = (file: string, read: () => Uint8Array = () => fs.readFileSync(file)) => ({ file, read });
const where = (d: { code: string; range: { start: { line: number; character: number } } }) =>
  `${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}`;

test('one part named: the set found from it, the others read beside it, each problem on its part', () => {
  const parts = copy();
  const other = task(path.join(dir, 'unrelated.json'));
  const named = task(parts.definitions);
  const { results, rest } = lintSplitSets([named, other], undefined, SETTINGS);
  assert.deepEqual(
    results.map((r) => [r.file, r.kind, r.skipped, r.diagnostics.map(where)]),
    [
      [parts.definitions, 'policySetPart', false, ['PS5001@6:31', 'PS7001@11:57']],
      [parts.parameters, 'policySetPart', false, ['PS7003@3:3']],
      [parts.groups, 'policySetPart', false, ['PS5003@3:13']],
    ],
  );
  // The named part is claimed; the file that is no part is left for the ordinary lint.
  assert.deepEqual(rest, [other]);
  for (const result of results) {
    assert.equal(result.identities.length, result.diagnostics.length, 'one identity per diagnostic');
    assert.deepEqual(result.internalErrors, []);
    assert.equal(result.notFixed, undefined, 'no --fix: nothing said about fixing');
  }
});

test('every part named: the set assembled once, every part claimed, in any order', () => {
  const parts = copy();
  const tasks = [task(parts.groups), task(parts.parameters), task(parts.definitions)];
  const { results, rest } = lintSplitSets(tasks, undefined, SETTINGS);
  assert.equal(results.length, 3, 'one result per part, not one set per part named');
  assert.deepEqual(rest, []);
  assert.deepEqual(
    results.map((r) => r.file),
    [parts.definitions, parts.parameters, parts.groups],
  );
});

test("a named part's text is the task's (an editor's or standard input's), not the disk's", () => {
  const parts = copy();
  const fixedText = fs.readFileSync(parts.definitions, 'utf8').replace("'costCentreTag'", "'costCenterTag'");
  const { results } = lintSplitSets([task(parts.definitions, () => Buffer.from(fixedText))], undefined, SETTINGS);
  assert.deepEqual(
    results.map((r) => r.diagnostics.map(where)),
    [['PS5001@6:31'], [], ['PS5003@3:13']],
  );
});

test('--fix: a part with problems is not fixed, and says why; a part without says nothing', () => {
  const parts = copy({ groups: '[{ "name": "Tagging" }, { "name": "Cost" }]' });
  const { results } = lintSplitSets([task(parts.definitions)], undefined, { ...SETTINGS, fix: {} });
  const reason =
    'a part of a set in the split layout: its problems are found in the set assembled from its parts, and --fix writes no part';
  assert.deepEqual(
    results.map((r) => r.notFixed),
    [reason, reason, undefined],
  );
});

test('identities are left out when the report does not use them', () => {
  const parts = copy();
  const { results } = lintSplitSets([task(parts.definitions)], undefined, { ...SETTINGS, identities: false });
  assert.deepEqual(
    results.map((r) => r.identities),
    [[], [], []],
  );
  assert.ok(results[0].diagnostics.length > 0);
});

test('.jsonc parts, and a set without its groups part: checked with what there is', () => {
  const parts = copy({ groups: null }, 'jsonc');
  const { results, rest } = lintSplitSets([task(parts.parameters)], undefined, SETTINGS);
  assert.deepEqual(rest, []);
  assert.deepEqual(
    results.map((r) => r.file),
    [parts.definitions, parts.parameters],
  );
});

test('a part that cannot be read: the set is checked without it (the named part reports it when linted alone)', () => {
  const parts = copy();
  const unreadable = task(parts.parameters, () => {
    throw new Error('EIO');
  });
  const { results, rest } = lintSplitSets([task(parts.definitions), unreadable], undefined, SETTINGS);
  assert.deepEqual(
    results.map((r) => r.file),
    [parts.definitions, parts.groups],
  );
  assert.deepEqual(rest, [unreadable], 'the unreadable part is left to the ordinary lint, which says why');
  // Without its parameters every parameter the references pass is undeclared.
  assert.deepEqual(results[0].diagnostics.map(where), ['PS7001@5:57', 'PS5001@6:31', 'PS7001@11:57']);
});

test('no set: a definitions part that is no array, or no definitions part at all, leaves every task to the ordinary lint', () => {
  for (const edit of [{ definitions: '{ "not": "an array" }' }, { definitions: null }]) {
    const parts = copy(edit);
    const tasks = [task(parts.parameters), task(parts.groups)];
    const { results, rest } = lintSplitSets(tasks, undefined, SETTINGS);
    assert.deepEqual(results, [], JSON.stringify(edit));
    assert.deepEqual(rest, tasks);
  }
});

test('files whose names only look like parts are no parts', () => {
  const folder = path.join(dir, `names-${++counter}`);
  fs.mkdirSync(folder);
  const tasks = ['tags.definitions.json.bak', 'tags.definition.json', 'definitions.json', 'tags.definitions.txt'].map((name) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, '[]');
    return task(file);
  });
  const { results, rest } = lintSplitSets(tasks, undefined, SETTINGS);
  assert.deepEqual(results, []);
  assert.deepEqual(rest, tasks);
});

test('the settings reach the check of the assembled set: rule severities, the lowest severity, the rule pages', () => {
  const parts = copy();
  const run = (settings: Partial<LintSettings>) =>
    lintSplitSets([task(parts.definitions)], undefined, { ...SETTINGS, ...settings }).results;
  assert.deepEqual(
    run({ severities: { PS7003: 'off' } }).map((r) => r.diagnostics.map(where)),
    [['PS5001@6:31', 'PS7001@11:57'], [], ['PS5003@3:13']],
  );
  assert.deepEqual(
    run({ minSeverity: 'warning' }).map((r) => r.diagnostics.map(where)),
    [['PS5001@6:31', 'PS7001@11:57'], ['PS7003@3:3'], []],
  );
  const [definitions] = run({ docsBaseUrl: 'https://docs.example.test/rules/' });
  assert.match(String(definitions.diagnostics[0].codeDescription?.href), /^https:\/\/docs\.example\.test\/rules\//);
});

// The lint engine (server/src/cli/lint/engine.ts) in-process: which files are linted (globs, folders, the
// ignore patterns, standard input), what is known as definitions (definition files among the inputs, the
// sets when a file imports groups or assigns a set), what is an input problem and what a note (--strict,
// unreadable files, nothing to lint), and the files a report or a fix must never be written over. The CLI's
// process tests (test/cli) cover the same through `policyset lint`; these cost a mutant about a second.
// Expected texts are written out by hand from docs/cli.md.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { lintFiles, scanForDefinitions, type LintOptions } from '#server/cli/lint/engine';

let dir: string;
let counter = 0;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-engine-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A folder of its own with these files. */
function tree(files: Record<string, string | Buffer>): string {
  const root = path.join(dir, `t${++counter}`);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  return root;
}

const DEFINITION_ID = '/providers/Microsoft.Management/managementGroups/mg/providers/Microsoft.Authorization/policyDefinitions/my-def';
/** A set with one reference to the custom definition my-def, passing it the parameter 'effect'. */
const SET = JSON.stringify(
  {
    name: 'my-set',
    properties: {
      displayName: 'My set',
      policyDefinitions: [
        { policyDefinitionReferenceId: 'r1', policyDefinitionId: DEFINITION_ID, parameters: { effect: { value: 'Audit' } } },
      ],
    },
  },
  null,
  2,
);
/** my-def, which declares no parameter: with it known, the set's 'effect' is a parameter it does not declare. */
const DEFINITION = JSON.stringify({
  name: 'my-def',
  properties: { displayName: 'My definition', policyRule: { if: { field: 'type', equals: 'x' }, then: { effect: 'audit' } } },
});
const OTHER_JSON = '{"some": "settings"}';

const options = (inputs: string[], more: Partial<LintOptions> = {}): LintOptions => ({
  inputs,
  definitions: [],
  settings: { severities: {} },
  jobs: 1,
  strict: false,
  errorOnUnmatched: true,
  ignoreSources: "the config file's 'ignore'",
  ...more,
});
const codesOf = (run: Awaited<ReturnType<typeof lintFiles>>, file: string) =>
  run.results
    .find((r) => r.file === file)
    ?.diagnostics.map((d) => d.code)
    .sort();

describe('scanForDefinitions: what a file may add to the known definitions, found without parsing it', () => {
  const scan = (text: string) => scanForDefinitions(Buffer.from(text));
  const utf16 = (text: string) => scanForDefinitions(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));

  test('a policy rule: its text; it is then neither a set nor a consumer', () => {
    const text = '{"properties": {"policyRule": {}, "policyDefinitions": [], "nodeName": "/x/"}}';
    assert.deepEqual(scan(text), { ruleText: text, policyDefinitions: false, importsGroups: false, consumer: false });
    assert.deepEqual(utf16(text), { ruleText: text, policyDefinitions: false, importsGroups: false, consumer: false });
  });

  test('a set (policyDefinitions, no rule), and one importing groups: a set is no consumer', () => {
    assert.deepEqual(scan('{"policyDefinitions": [], "nodeName": 1}'), {
      ruleText: undefined,
      policyDefinitions: true,
      importsGroups: false,
      consumer: false,
    });
    const importing = '{"policyDefinitions": [], "importPolicyDefinitionGroups": ["/x"]}';
    assert.deepEqual(scan(importing), { ruleText: undefined, policyDefinitions: true, importsGroups: true, consumer: false });
    assert.deepEqual(utf16(importing), { ruleText: undefined, policyDefinitions: true, importsGroups: true, consumer: false });
  });

  test('each key only consumers have makes a consumer', () => {
    for (const key of ['/policyAssignments"', '/policyExemptions"', '"nodeName"', '"policyAssignmentId"', '"nonComplianceMessages"']) {
      const text = `{"x": "${key.replace(/"/g, '\\"')}", ${key.startsWith('"') ? `${key}: 1` : `"type": "Microsoft.Authorization${key}`}}`;
      assert.equal(scan(text).consumer, true, key);
      assert.equal(utf16(text).consumer, true, `${key} in UTF-16`);
    }
    assert.equal(scan('{"assignment": "policyAssignments"}').consumer, false, 'the word without its slash and quote');
  });

  test('a key is found whole, at either end of the bytes, and not from a part of it', () => {
    assert.equal(scan('"policyRule"').ruleText, '"policyRule"');
    assert.equal(scan('"importPolicyDefinitionGroups"').importsGroups, true);
    for (const near of ['policyRule"', '"policyRule', '"xpolicyRule"', '"PolicyRule"', '"policyRules"', 'olicyRule"olicyRule"'])
      assert.equal(scan(near).ruleText, undefined, near);
    for (const near of ['importPolicyDefinitionGroups"', '"importPolicyDefinitionGroup"', '"ximportPolicyDefinitionGroups"'])
      assert.equal(scan(near).importsGroups, false, near);
    // The tail found first may be a false start: the key is found at a later one.
    assert.equal(scan('{"a": "Rule", "b": "yRule", "policyRule": {}}').ruleText !== undefined, true);
    assert.equal(scan('"xGroups" "importPolicyDefinitionGroups"').importsGroups, true);
  });

  test('bytes that are a view into a larger buffer are read from their own start', () => {
    const whole = Buffer.from('"policyRule" | {"policyDefinitions": []}');
    const view = new Uint8Array(whole.buffer, whole.byteOffset + 15, whole.length - 15);
    assert.deepEqual(scanForDefinitions(view), { ruleText: undefined, policyDefinitions: true, importsGroups: false, consumer: false });
  });
});

describe('lintFiles: what is linted', () => {
  test('a folder: every policy document in it, another JSON file skipped in silence, each result once', async () => {
    const root = tree({ 'sets/set.json': SET, 'sets/settings.json': OTHER_JSON, 'sets/notes.txt': 'x' });
    const run = await lintFiles(options([path.join(root, 'sets')]));
    assert.deepEqual(run.problems, []);
    assert.deepEqual(run.notes, []);
    assert.deepEqual(
      run.results.map((r) => [path.basename(r.file), r.skipped]),
      [
        ['set.json', false],
        ['settings.json', true],
      ],
    );
    assert.deepEqual(run.inputFiles, [path.join(root, 'sets', 'set.json'), path.join(root, 'sets', 'settings.json')]);
    assert.deepEqual(run.otherInputs, []);
  });

  test('a glob: the .json files it matches, found like a folder’s (another JSON file not said); one matching nothing is a problem', async () => {
    const root = tree({ 'a/set.json': SET, 'a/settings.json': OTHER_JSON, 'a/readme.md': '#' });
    const run = await lintFiles(options([path.join(root, 'a', '*.json'), path.join(root, 'a', '*.yaml'), path.join(root, 'a', '*.md')]));
    assert.deepEqual(run.problems, [
      `no files match the pattern '${path.join(root, 'a', '*.yaml')}'`,
      `no .json or .jsonc files match the pattern '${path.join(root, 'a', '*.md')}'`,
    ]);
    const settings = run.results.find((r) => r.file.endsWith('settings.json'));
    assert.equal(settings?.skipped, true);
    assert.equal(settings?.notChecked, undefined, 'matched by a glob: not named, so not said');
  });

  test('a file named that is no policy document is said; with --strict it is a problem', async () => {
    const root = tree({ 'settings.json': OTHER_JSON, 'set.json': SET, 'my-def.json': DEFINITION });
    const file = path.join(root, 'settings.json');
    const others = [path.join(root, 'set.json'), path.join(root, 'my-def.json')];
    const run = await lintFiles(options([file, ...others]));
    const reason = 'JSON, but not a policy set definition, a version of one, an ARM template holding them or a policy definition';
    assert.equal(run.results.find((r) => r.file === file)?.notChecked, reason);
    assert.deepEqual(run.problems, []);
    const strict = await lintFiles(options([file, ...others], { strict: true }));
    assert.deepEqual(strict.problems, [`${file}: not checked (--strict): ${reason}`]);
  });

  test('a path whose name looks like a glob but exists is that file', async () => {
    const root = tree({ '[draft]set.json': SET });
    const run = await lintFiles(options([path.join(root, '[draft]set.json')]));
    assert.deepEqual(run.problems, []);
    assert.deepEqual(
      run.results.map((r) => r.file),
      [path.join(root, '[draft]set.json')],
    );
  });

  test('the ignore patterns: a file found in a folder left out in silence, a file named said in a note', async () => {
    const root = tree({ 'sets/set.json': SET, 'sets/legacy.json': SET, 'sets/p.csv': 'name\n' });
    const ignored = (file: string) => /legacy|\.csv$/.test(file);
    const walked = await lintFiles(options([path.join(root, 'sets')], { ignored }));
    assert.deepEqual(
      walked.results.map((r) => path.basename(r.file)),
      ['set.json'],
    );
    assert.deepEqual(walked.notes, []);
    const legacy = path.join(root, 'sets', 'legacy.json');
    const named = await lintFiles(options([legacy, path.join(root, 'sets', 'set.json')], { ignored }));
    assert.deepEqual(named.notes, [`${legacy}: ignored by the config file's 'ignore' (--no-ignore lints it)`]);
    assert.equal(named.results.length, 1);
    assert.deepEqual(
      named.inputFiles.map((f) => path.basename(f)),
      ['set.json'],
    );
  });

  test(
    'a file that cannot be read is a problem, the others still linted',
    { skip: process.platform === 'win32' && 'no FIFOs' },
    async () => {
      // A FIFO named as an input: refused by the bounded reader whoever runs the test (chmod 000 does not stop root).
      const root = tree({ 'a.json': SET });
      const fifo = path.join(root, 'b.json');
      assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
      const run = await lintFiles(options([path.join(root, 'a.json'), fifo]));
      assert.deepEqual(run.problems, [`cannot read '${fifo}': a pipe (FIFO), not a regular file`]);
      assert.deepEqual(
        run.results.map((r) => path.basename(r.file)),
        ['a.json'],
      );
    },
  );

  test('nothing to lint is a problem naming the inputs, unless allowed', async () => {
    const root = tree({ 'only/settings.json': OTHER_JSON, 'empty/readme.md': '#' });
    const other = await lintFiles(options([path.join(root, 'only')]));
    assert.deepEqual(other.problems, [
      `no policy document in '${path.join(root, 'only')}' (1 file of other kinds); pass --no-error-on-unmatched-pattern to allow this`,
    ]);
    const two = tree({ 'x.json': OTHER_JSON, 'y.json': OTHER_JSON });
    assert.match((await lintFiles(options([two]))).problems[0], /\(2 files of other kinds\)/);
    const none = await lintFiles(options([path.join(root, 'empty'), path.join(root, 'only', 'nothing-here')]));
    assert.deepEqual(none.problems, [`cannot read '${path.join(root, 'only', 'nothing-here')}': no such file or directory`]);
    const empty = await lintFiles(options([path.join(root, 'empty')]));
    assert.deepEqual(empty.problems, [
      `no policy document in '${path.join(root, 'empty')}' (no .json or .jsonc file); pass --no-error-on-unmatched-pattern to allow this`,
    ]);
    assert.deepEqual((await lintFiles(options([path.join(root, 'empty')], { errorOnUnmatched: false }))).problems, []);
  });
});

describe('lintFiles: standard input', () => {
  const stdin = (text: string, name = '<stdin>', given = false) => ({ name, given, read: async () => Buffer.from(text) });

  test('linted as a file named on the command line, under the name given', async () => {
    const run = await lintFiles(options([], { stdin: stdin(SET, 'sets/piped.json', true) }));
    assert.deepEqual(
      run.results.map((r) => [r.file, r.skipped]),
      [['sets/piped.json', false]],
    );
    assert.deepEqual(run.problems, []);
  });

  test('not a policy document: said by name, standard input in the problem', async () => {
    const run = await lintFiles(options([], { stdin: stdin(OTHER_JSON) }));
    assert.deepEqual(run.problems, [
      'no policy document in standard input (no .json or .jsonc file); pass --no-error-on-unmatched-pattern to allow this',
    ]);
  });

  test('named by a path the ignore patterns leave out: said, and no error (as in ESLint); a name not given is not ignored', async () => {
    const ignored = (file: string) => file.startsWith('legacy/');
    const run = await lintFiles(options([], { stdin: stdin(SET, 'legacy/set.json', true), ignored }));
    assert.deepEqual(run.results, []);
    assert.deepEqual(run.problems, []);
    assert.deepEqual(run.notes, ["legacy/set.json: ignored by the config file's 'ignore' (--no-ignore lints it)"]);
    const notGiven = await lintFiles(options([], { stdin: stdin(SET, 'legacy/set.json', false), ignored }));
    assert.equal(notGiven.results.length, 1);
  });

  test('standard input is named: a document of another kind is said not checked, a problem with --strict', async () => {
    const run = await lintFiles(options([], { stdin: stdin(OTHER_JSON, 'settings.json', true), errorOnUnmatched: false, strict: true }));
    assert.deepEqual(
      run.results.map((r) => [r.file, r.skipped]),
      [['settings.json', true]],
    );
    assert.equal(run.problems.length, 1);
    assert.match(run.problems[0], /^settings\.json: not checked \(--strict\): /);
  });

  test('a set on standard input is checked against the definitions given with --definitions', async () => {
    const root = tree({ 'my-def.json': DEFINITION });
    const run = await lintFiles(options([], { stdin: stdin(SET, 'set.json', true), definitions: [path.join(root, 'my-def.json')] }));
    assert.deepEqual(codesOf(run, 'set.json'), ['PS8001']);
    assert.deepEqual(run.otherInputs, [path.join(root, 'my-def.json')]);
  });
});

describe('lintFiles: what is known as definitions', () => {
  test('a definition among the files linted is known: the set’s reference is checked against it', async () => {
    const root = tree({ 'set.json': SET, 'my-def.json': DEFINITION });
    const alone = await lintFiles(options([path.join(root, 'set.json')]));
    const set = path.join(root, 'set.json');
    const withDefinition = await lintFiles(options([root]));
    // PS8001: the set passes 'effect', which my-def does not declare; seen only with my-def known.
    assert.deepEqual(codesOf(withDefinition, set), ['PS8001']);
    assert.deepEqual(codesOf(alone, set), []);
    assert.equal(alone.results[0].unchecked?.custom.noDefinitions, 1);
    assert.equal(withDefinition.results.find((r) => r.file === set)?.unchecked, undefined);
    // Not checked is said with --strict as a problem: the reference to a definition no file gives.
    const strict = await lintFiles(options([set], { strict: true }));
    assert.deepEqual(strict.problems, [
      '1 reference not checked against its definition: 1 to custom definitions (1 with none loaded: lint their files alongside, or --definitions <folder>) (--strict)',
    ]);
    assert.deepEqual((await lintFiles(options([root], { strict: true }))).problems, []);
  });

  test('a definition file among the inputs that is not JSON: the set is told that file is broken, not that the definition is missing', async () => {
    const broken = DEFINITION.slice(0, -20);
    const root = tree({ 'set.json': SET, 'my-def.json': broken, 'other-def.json': DEFINITION.replace('my-def', 'other-def') });
    const set = path.join(root, 'set.json');
    const run = await lintFiles(options([root]));
    const said = run.results.find((r) => r.file === set)?.diagnostics.filter((d) => d.code === 'PS8010');
    assert.equal(said?.length, 1);
    assert.match(said[0].message, /^Custom policy definition 'my-def' looks to be in '.*my-def\.json', which could not be read \(/);
  });

  test('a file that can be read when found and not when linted is an input problem', async () => {
    const root = tree({ 'set.json': SET, 'going.json': SET.replace('my-set', 'going') });
    const going = path.join(root, 'going.json');
    // The engine reads --definitions after it has read every input once: the file goes then.
    const run = await lintFiles({
      ...options([root]),
      get definitions() {
        fs.rmSync(going, { force: true });
        return [];
      },
    });
    assert.deepEqual(run.problems, [`cannot read '${going}': no such file or directory`]);
    assert.equal(run.results.find((r) => r.file === going)?.error, run.problems[0]);
  });

  test('--definitions: a folder of definitions is known, and its files are inputs a report must not replace', async () => {
    const root = tree({ 'sets/set.json': SET, 'defs/my-def.json': DEFINITION });
    const defs = path.join(root, 'defs');
    const run = await lintFiles(options([path.join(root, 'sets')], { definitions: [defs] }));
    assert.equal(run.results[0].unchecked, undefined);
    assert.deepEqual(run.otherInputs, [defs, path.join(defs, 'my-def.json')]);
    assert.deepEqual(run.inputFiles, [path.join(root, 'sets', 'set.json'), defs, path.join(defs, 'my-def.json')]);
  });

  test('an assignment among the files makes the sets among them known: its set is checked, none left unresolved', async () => {
    const assignment = JSON.stringify({
      type: 'Microsoft.Authorization/policyAssignments',
      name: 'assign-my-set',
      properties: {
        policyDefinitionId:
          '/providers/Microsoft.Management/managementGroups/mg/providers/Microsoft.Authorization/policySetDefinitions/my-set',
        parameters: { notDeclared: { value: 1 } },
      },
    });
    const root = tree({ 'set.json': SET, 'assignment.json': assignment });
    const run = await lintFiles(options([root]));
    assert.deepEqual(run.notes, []);
    assert.ok(codesOf(run, path.join(root, 'assignment.json'))?.length, 'the assignment checked against its set');
    // Its set not among the files: the assignment is said not checked.
    const alone = await lintFiles(options([path.join(root, 'assignment.json')]));
    assert.deepEqual(alone.notes, ['1 assignment not checked: its set is not in the files linted (nor in --definitions)']);
    const two = tree({ 'a.json': assignment, 'b.json': assignment.replace('assign-my-set', 'assign-again') });
    assert.deepEqual((await lintFiles(options([two]))).notes, [
      '2 assignments not checked: their sets are not in the files linted (nor in --definitions)',
    ]);
  });
});

describe('lintFiles: the files checked with others (the consumer documents fixture)', () => {
  const FIXTURE = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'consumer-documents');
  const copy = () => {
    const root = path.join(dir, `consumers-${++counter}`);
    fs.cpSync(FIXTURE, root, { recursive: true });
    return root;
  };
  // Each file's planted problem, as README.md of the fixture says (and `policyset lint` reports it).
  const EXPECTED: Record<string, string[]> = {
    'policyAssignments/tagging.jsonc': ['PS9215'],
    'policyAssignments/tagging-parameters.csv': ['PS9211', 'PS9213', 'PS9214'],
    'policyEnrollments/tenant/team.jsonc': ['PS9205'],
    'library/alz_policy_default_values.json': ['PS9216', 'PS9217'],
  };
  const byFile = (root: string, run: Awaited<ReturnType<typeof lintFiles>>) =>
    Object.fromEntries(
      run.results
        .filter((r) => r.diagnostics.some((d) => d.severity <= 2))
        .map((r) => [path.relative(root, r.file).split(path.sep).join('/'), codesOf(run, r.file)?.filter((c) => c.startsWith('PS92'))]),
    );

  test('a folder: the CSV with the assignment naming it, the enrollment with the assignments, the default values with the library', async () => {
    const root = copy();
    const run = await lintFiles(options([root]));
    assert.deepEqual(run.problems, []);
    assert.deepEqual(byFile(root, run), EXPECTED);
    // The CSV nothing names is not linted (found in a folder: not said); each file has one result.
    assert.equal(
      run.results.some((r) => r.file.endsWith('other.csv')),
      false,
    );
    assert.equal(new Set(run.results.map((r) => r.file)).size, run.results.length);
    // The CSV files are inputs too: a report must not replace one.
    assert.ok(run.inputFiles.includes(path.join(root, 'data', 'other.csv')));
    assert.ok(run.inputFiles.includes(path.join(root, 'policyAssignments', 'tagging-parameters.csv')));
  });

  test('a CSV named on the command line is linted with the assignment files named beside it; one the ignore patterns leave out is not', async () => {
    const root = copy();
    const csv = path.join(root, 'policyAssignments', 'tagging-parameters.csv');
    const assignment = path.join(root, 'policyAssignments', 'tagging.jsonc');
    const set = path.join(root, 'tagging-set.json');
    const run = await lintFiles(options([csv, assignment, set]));
    assert.deepEqual(codesOf(run, csv), ['PS9211', 'PS9213', 'PS9214']);
    const otherIgnored = await lintFiles(options([csv, assignment, set], { ignored: (file) => file.endsWith('.md') }));
    assert.deepEqual(codesOf(otherIgnored, csv), ['PS9211', 'PS9213', 'PS9214'], 'patterns that leave out other files keep it');
    const ignored = await lintFiles(options([csv, assignment, set], { ignored: (file) => file.endsWith('.csv') }));
    assert.equal(
      ignored.results.some((r) => r.file === csv),
      false,
    );
    // Without an assignment naming it, a CSV named is said not checked.
    const alone = await lintFiles(options([path.join(root, 'data', 'other.csv'), set]));
    assert.equal(
      alone.results.find((r) => r.file.endsWith('other.csv'))?.notChecked,
      'a .csv file that no assignment file among the files linted names as its parameterFile',
    );
  });

  test('an enrollment is checked with the assignment only when one is among the files; the default values never as an enrollment', async () => {
    const root = copy();
    const enrollment = path.join(root, 'policyEnrollments', 'tenant', 'team.jsonc');
    const library = path.join(root, 'library');
    assert.deepEqual(codesOf(await lintFiles(options([enrollment, library])), enrollment), ['PS9205']);
    assert.deepEqual(
      (codesOf(await lintFiles(options([enrollment])), enrollment) ?? []).filter((c) => c === 'PS9205'),
      [],
    );
    // Default values that also name an assignment ID are still checked as default values, once.
    const defaults = path.join(library, 'alz_policy_default_values.json');
    fs.writeFileSync(
      defaults,
      fs
        .readFileSync(defaults, 'utf8')
        .replace('"defaults"', '"policyAssignmentId": "/providers/Microsoft.Authorization/policyAssignments/Enforce-Tagging", "defaults"'),
    );
    const run = await lintFiles(options([library, enrollment]));
    assert.equal(run.results.filter((r) => r.file === defaults).length, 1);
    assert.ok((codesOf(run, defaults) ?? []).includes('PS9217'));
  });
});

describe("lintFiles: the landing-zone library's dependencies", () => {
  const defaults = JSON.stringify({
    defaults: [{ default_name: 'tag', policy_assignments: [{ policy_assignment_name: 'Missing', parameter_names: ['tagName'] }] }],
  });
  const assignment = JSON.stringify({
    type: 'Microsoft.Authorization/policyAssignments',
    name: 'Present',
    properties: { policyDefinitionId: '/providers/Microsoft.Authorization/policySetDefinitions/s', parameters: {} },
  });
  const missingSaid = async (root: string) => {
    const run = await lintFiles(options([root]));
    const file = run.results.find((r) => r.file.endsWith('alz_policy_default_values.json'));
    assert.ok(file, 'the default values linted');
    return file.diagnostics.some((d) => d.code === 'PS9216');
  };

  test('a dependency found from the path the metadata gives the library: every assignment known, one missing is said', async () => {
    const root = tree({
      'platform/lib/alz_library_metadata.json': JSON.stringify({ path: 'platform/lib', dependencies: [{ path: 'platform/dep' }] }),
      'platform/lib/alz_policy_default_values.json': defaults,
      'platform/dep/a.alz_policy_assignment.json': assignment,
    });
    assert.equal(await missingSaid(root), true);
  });

  test('metadata without a path of its own: its dependencies cannot be placed, so a missing assignment is not said', async () => {
    for (const own of [{}, { path: '' }, { path: '/' }]) {
      const root = tree({
        'lib/alz_library_metadata.json': JSON.stringify({ ...own, dependencies: [{ path: 'dep' }] }),
        'lib/alz_policy_default_values.json': defaults,
        // Where the dependency would be if its path were read from the library's own folder.
        'lib/dep/a.alz_policy_assignment.json': assignment,
      });
      assert.equal(await missingSaid(root), false, JSON.stringify(own));
    }
  });
});

describe('lintFiles: helper processes for large inputs give the same results', () => {
  test('--jobs 2 over more than 4 MB: linted by a helper, the same results as in one process', { timeout: 120_000 }, async () => {
    // Two sets of about 2.5 MB each (a long description), one with a problem: more than BYTES_PER_HELPER in all.
    const padded = (name: string, extra: object) =>
      JSON.stringify({ name, properties: { displayName: name, description: 'x'.repeat(2_500_000), policyDefinitions: [], ...extra } });
    const root = tree({
      'a.json': padded('a', {}),
      'b.json': padded('b', { policyDefinitionGroups: [{ name: 'unused' }] }),
      'c.json': SET,
    });
    const one = await lintFiles(options([root], { jobs: 1 }));
    const two = await lintFiles(options([root], { jobs: 2 }));
    const summary = (run: typeof one) => run.results.map((r) => [path.basename(r.file), r.diagnostics.map((d) => d.code).sort()]);
    assert.deepEqual(summary(two), summary(one));
    assert.ok(
      summary(one).some(([, codes]) => codes.length > 0),
      'a problem to compare',
    );
    assert.deepEqual(two.problems, one.problems);
  });
});

// policyset diff: files, formats, exit statuses, --against <git revision> on a repository made here, and
// builtin:<name> read through E1 from the local service.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCli, isCleanMessage, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { SERVED_BUILT_IN } from '../support/corpus';

const DEF_A = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
const DEF_B = '/providers/Microsoft.Authorization/policyDefinitions/0a075868-4c26-42ef-914c-5bc007359560';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function set(version?: string): Json {
  return {
    name: 'diff-set',
    properties: {
      displayName: 'Diff set',
      ...(version ? { version } : {}),
      parameters: {
        effect: { type: 'String', allowedValues: ['Audit', 'Disabled'], defaultValue: 'Audit' },
        tagName: { type: 'String' },
      },
      policyDefinitions: [
        { policyDefinitionReferenceId: 'ref1', policyDefinitionId: DEF_A, parameters: { effect: { value: "[parameters('effect')]" } } },
        { policyDefinitionReferenceId: 'ref2', policyDefinitionId: DEF_B, parameters: { tagName: { value: "[parameters('tagName')]" } } },
      ],
    },
  };
}

/** The set without its tagName parameter (and the reference that used it no longer passes it): a major change. */
function breaking(version?: string): Json {
  const next = set(version);
  delete next.properties.parameters.tagName;
  delete next.properties.policyDefinitions[1].parameters;
  return next;
}

let dir: string;
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
  return file;
};
const cli = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> =>
  runCli(['diff', ...args], { timeoutMs: 60_000, ...options });

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-diff-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('policyset diff <old> <new>', { concurrency: 4 }, () => {
  test('a breaking change under 1.3.0 from 1.2.3 exits 1 and suggests 2.0.0; under 2.0.0 it exits 0', async () => {
    const old = write('a/old.json', set('1.2.3'));
    const low = await cli([old, write('a/low.json', breaking('1.3.0'))]);
    assert.equal(low.code, 1, low.stderr);
    assert.match(low.stdout, /parameter-removed/);
    assert.match(low.stdout, /use 2\.0\.0/);
    const ok = await cli([old, write('a/ok.json', breaking('2.0.0'))]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /needs a major version; version ok/);
  });

  test('JSON: the documented shape', async () => {
    const result = await cli([write('b/old.json', set('1.2.3')), write('b/new.json', breaking('1.3.0')), '--format', 'json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      Object.keys(report).sort(),
      ['changes', 'new', 'old', 'requiredBump', 'suggestedVersion', 'versionOk', 'versionProblem'].sort(),
    );
    assert.equal(report.old.version, '1.2.3');
    assert.equal(report.new.version, '1.3.0');
    assert.equal(report.requiredBump, 'major');
    assert.equal(report.suggestedVersion, '2.0.0');
    assert.equal(report.versionOk, false);
    const removed = report.changes.find((c: Json) => c.kind === 'parameter-removed');
    assert.deepEqual({ bump: removed.bump, path: removed.path }, { bump: 'major', path: '/properties/parameters/tagName' });
    const oldLines = fs.readFileSync(path.join(dir, 'b/old.json'), 'utf8').split('\n');
    assert.match(oldLines[removed.line - 1], /"tagName": \{/, 'the line of the removed parameter in the old file');
  });

  test('no versions: the bump is reported and nothing fails; --fail-on makes it fail', async () => {
    const old = write('c/old.json', set());
    const next = write('c/new.json', breaking());
    const plain = await cli([old, next, '-f', 'json']);
    assert.equal(plain.code, 0);
    assert.equal(JSON.parse(plain.stdout).versionOk, null);
    assert.equal((await cli([old, next, '--fail-on', 'major'])).code, 1);
    const patchOnly = set();
    patchOnly.properties.displayName = 'Renamed';
    const patched = write('c/patch.json', patchOnly);
    assert.equal((await cli([old, patched, '--fail-on', 'minor'])).code, 0);
    assert.equal((await cli([old, patched, '--fail-on', 'patch'])).code, 1);
  });

  test('a reformatted file: none', async () => {
    const old = write('d/old.json', set('1.0.0'));
    const reformatted = write('d/new.json', JSON.stringify(set('1.0.0'), null, '\t').replace(/\n/g, '\r\n'));
    const result = await cli([old, reformatted, '-f', 'json']);
    assert.equal(result.code, 0);
    assert.equal(JSON.parse(result.stdout).requiredBump, 'none');
    assert.deepEqual(JSON.parse(result.stdout).changes, []);
  });

  test('markdown: a table per bump, most breaking first', async () => {
    const next = breaking('2.0.0');
    next.properties.displayName = 'Diff set, renamed';
    const result = await cli([write('e/old.json', set('1.2.3')), write('e/new.json', next), '-f', 'markdown']);
    assert.equal(result.code, 0);
    const major = result.stdout.indexOf('#### Major (1)');
    const patch = result.stdout.indexOf('#### Patch (1)');
    assert.ok(major > 0 && patch > major, result.stdout);
    assert.match(result.stdout, /\| Change \| Kind \| Where \|/);
  });

  test('SARIF: each change on its line of the new file; the version problem on the version', async () => {
    const newFile = write('f/new.json', breaking('1.3.0'));
    const result = await cli([write('f/old.json', set('1.2.3')), newFile, '-f', 'sarif'], { cwd: dir });
    assert.equal(result.code, 1);
    const log = JSON.parse(result.stdout);
    const results = log.runs[0].results as Json[];
    const removed = results.find((r) => r.ruleId === 'parameter-removed')!;
    assert.equal(removed.level, 'error');
    assert.equal(removed.locations[0].physicalLocation.artifactLocation.uri, 'f/new.json');
    const lines = fs.readFileSync(newFile, 'utf8').split('\n');
    assert.match(
      lines[removed.locations[0].physicalLocation.region.startLine - 1],
      /"parameters"/,
      'marked where the parameter was taken from',
    );
    const version = results.find((r) => r.ruleId === 'version-not-bumped')!;
    assert.match(lines[version.locations[0].physicalLocation.region.startLine - 1], /"version": "1\.3\.0"/);
  });

  test('-o writes the report; an -o that names an input is refused and the input kept', async () => {
    const old = write('g/old.json', set('1.0.0'));
    const next = write('g/new.json', set('1.0.1'));
    const out = path.join(dir, 'g/report.md');
    const written = await cli([old, next, '-f', 'markdown', '-o', out]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.match(fs.readFileSync(out, 'utf8'), /## Policy set changes/);
    const before = fs.readFileSync(next, 'utf8');
    const refused = await cli([old, next, '-o', next]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /would replace an input/);
    assert.equal(fs.readFileSync(next, 'utf8'), before);
  });

  test('usage and input problems: exit 2 with a clean message', async () => {
    const old = write('h/old.json', set('1.0.0'));
    const cases: Array<[string[], RegExp]> = [
      [[old], /needs <old> and <new>/],
      [[old, old, old], /takes two files/],
      [[old, old, '-f', 'html'], /unknown format 'html'/],
      [[old, old, '--fail-on', 'none'], /--fail-on takes major, minor or patch/],
      [[old, old, '--reference-added', 'patch'], /--reference-added takes minor or major/],
      [[old, path.join(dir, 'h/missing.json')], /no such file/],
      [[old, write('h/broken.json', '{ "properties": ')], /broken\.json:1:\d+: not valid JSON/],
      [[old, write('h/other.json', { hello: 'world' })], /not a policy set definition/],
      [[old, 'builtin:x'], /builtin:<name> is for <old>/],
    ];
    for (const [args, pattern] of cases) {
      const result = await cli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, pattern);
      assert.ok(isCleanMessage(result.stderr), result.stderr);
    }
  });

  test("the cloud CLI's split files: compared as one set, named by any part, each change in its part", async () => {
    const refs = set().properties.policyDefinitions;
    write('split/old/s.definitions.json', refs);
    write('split/old/s.parameters.json', set().properties.parameters);
    write('split/new/s.definitions.json', refs);
    const parameters = set().properties.parameters;
    delete parameters.effect.defaultValue;
    const partFile = write('split/new/s.parameters.json', parameters);
    const result = await cli([path.join(dir, 'split/old/s.definitions.json'), partFile, '-f', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.requiredBump, 'major');
    assert.deepEqual(
      report.changes.map((c: Json) => [c.kind, c.path, path.basename(c.file)]),
      [['default-value-removed', '/effect', 's.parameters.json']],
    );
    assert.match(fs.readFileSync(partFile, 'utf8').split('\n')[report.changes[0].line - 1], /"effect"/);
  });

  test('--reference-added major makes a reference added a major change', async () => {
    const next = set('1.1.0');
    next.properties.policyDefinitions.push({
      policyDefinitionReferenceId: 'ref3',
      policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/1e30110a-5ceb-460c-a204-c1c3969c6d62',
    });
    const old = write('i/old.json', set('1.0.0'));
    const newFile = write('i/new.json', next);
    assert.equal((await cli([old, newFile])).code, 0);
    const strict = await cli([old, newFile, '--reference-added', 'major', '-f', 'json']);
    assert.equal(strict.code, 1);
    assert.equal(JSON.parse(strict.stdout).suggestedVersion, '2.0.0');
    // The same from .policysetrc.json in the current folder.
    write('i/.policysetrc.json', { versions: { referenceAdded: 'major' } });
    assert.equal((await cli(['old.json', 'new.json'], { cwd: path.join(dir, 'i') })).code, 1);
  });

  test('--reference-removed minor makes a reference removed a minor change (flag or .policysetrc.json); a bad value is a usage error', async () => {
    const trimmed = set('1.1.0');
    trimmed.properties.policyDefinitions.pop();
    trimmed.properties.parameters.tagName.defaultValue = 'env';
    const old = write('r/old.json', set('1.0.0'));
    const newFile = write('r/new.json', trimmed);
    assert.equal((await cli([old, newFile])).code, 1, 'major by default');
    const minor = await cli([old, newFile, '--reference-removed', 'minor', '-f', 'json']);
    assert.equal(minor.code, 0, minor.stdout);
    assert.equal(JSON.parse(minor.stdout).requiredBump, 'minor');
    write('r/.policysetrc.json', { versions: { referenceRemoved: 'minor' } });
    assert.equal((await cli(['old.json', 'new.json'], { cwd: path.join(dir, 'r') })).code, 0);
    const bad = await cli([old, newFile, '--reference-removed', 'sometimes']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--reference-removed takes minor or major, not 'sometimes'/);
  });
});

describe('policyset diff --against: renames and moves, marked versions, the Markdown report', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args],
      { cwd: repo, stdio: 'pipe' },
    ).toString();
  const put = (name: string, value: unknown) => {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    fs.writeFileSync(path.join(repo, name), JSON.stringify(value, null, 2));
  };

  before(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-diff-renames-'));
    git('init', '-q');
    put('sets/moved.json', { ...set('1.0.0'), name: 'moved-set' });
    put('sets/renamed.json', { ...set('1.0.0'), name: 'renamed-set' });
    const edited = set('1.0.0');
    edited.name = 'edited-set';
    edited.properties.description = 'A set with a long enough description to be found by git rename detection when its end changes';
    put('sets/edited.json', edited);
    put('sets/deprecated.json', { ...set('1.2.0-deprecated'), name: 'deprecated-set' });
    for (let i = 0; i < 5; i++) put(`sets/quiet-${i}.json`, { ...set('1.0.0'), name: `quiet-${i}` });
    git('add', '-A');
    git('commit', '-q', '-m', 'sets');
    // A move git tracks (staged), a rename it does not track yet (a plain mv), a rename with an edit.
    fs.mkdirSync(path.join(repo, 'sets/platform'));
    git('mv', 'sets/moved.json', 'sets/platform/moved.json');
    fs.renameSync(path.join(repo, 'sets/renamed.json'), path.join(repo, 'sets/renamed-again.json'));
    git('mv', 'sets/edited.json', 'sets/edited-and-moved.json');
    edited.properties.displayName = 'Diff set, edited';
    edited.properties.version = '1.0.1';
    put('sets/edited-and-moved.json', edited);
    git('add', 'sets/edited-and-moved.json');
  });
  after(() => fs.rmSync(repo, { recursive: true, force: true }));

  test('a byte-identical rename or move is unchanged, not a removal; a rename with an edit is compared with its old path', async () => {
    const result = await cli(['--against', 'HEAD', '-f', 'json'], { cwd: repo });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const reports = JSON.parse(result.stdout) as Json[];
    assert.ok(
      !reports.some((r) => r.changes.some((c: Json) => c.kind === 'set-removed')),
      JSON.stringify(reports.map((r) => [r.old?.file, r.new?.file])),
    );
    const byNew = (file: string) => reports.find((r) => r.new?.file === file)!;
    assert.equal(byNew('sets/platform/moved.json').old.file, 'HEAD:sets/moved.json');
    assert.deepEqual(byNew('sets/platform/moved.json').changes, []);
    assert.equal(byNew('sets/renamed-again.json').old.file, 'HEAD:sets/renamed.json');
    assert.deepEqual(
      byNew('sets/edited-and-moved.json').changes.map((c: Json) => c.kind),
      ['display-name-changed'],
    );
    assert.equal(byNew('sets/edited-and-moved.json').versionOk, true);
    assert.equal(reports.length, 9);
    assert.match(result.stderr, /sets\/platform\/moved\.json: renamed or moved from sets\/moved\.json since HEAD/);
  });

  test('an unchanged set with a -deprecated version passes, and the report says what the marker is', async () => {
    const result = await cli(['--against', 'HEAD', 'sets/deprecated.json', '-f', 'json'], { cwd: repo });
    assert.equal(result.code, 0, result.stdout);
    const [report] = JSON.parse(result.stdout) as Json[];
    assert.equal(report.versionOk, true);
    assert.match(report.versionNote, /deprecation marker/);
  });

  test('markdown: one summary line, then only the sets that changed', async () => {
    const result = await cli(['--against', 'HEAD', '-f', 'markdown'], { cwd: repo });
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines[2], '9 sets compared, 1 with changes (1 patch), every version bumped enough.');
    assert.equal(lines.filter((l) => l.startsWith('### ')).length, 1, result.stdout);
    assert.match(result.stdout, /### HEAD:sets\/edited\.json \(1\.0\.0\) -> sets\/edited-and-moved\.json \(1\.0\.1\)/);
    assert.doesNotMatch(result.stdout, /quiet-/);
    const unchanged = await cli(['--against', 'HEAD', 'sets/quiet-0.json', 'sets/quiet-1.json', '-f', 'markdown'], { cwd: repo });
    assert.equal(unchanged.stdout, '## Policy set changes\n\n2 sets compared, 0 with changes, every version bumped enough.\n');
  });
});

describe('policyset diff --against <git revision>', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args],
      { cwd: repo, stdio: 'pipe' },
    ).toString();

  before(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-diff-git-'));
    git('init', '-q');
    fs.mkdirSync(path.join(repo, 'sets'));
    fs.writeFileSync(path.join(repo, 'sets/kept.json'), JSON.stringify(set('1.0.0'), null, 2));
    fs.writeFileSync(path.join(repo, 'sets/deleted.json'), JSON.stringify({ ...set('1.0.0'), name: 'deleted-set' }, null, 2));
    fs.writeFileSync(path.join(repo, 'sets/unchanged.json'), JSON.stringify({ ...set('3.0.0'), name: 'unchanged-set' }, null, 2));
    fs.writeFileSync(path.join(repo, 'sets/settings.json'), JSON.stringify({ editor: true }));
    // A site generator's template with a .json name (as in the landing-zone library's docs theme): not JSON.
    fs.mkdirSync(path.join(repo, 'docs'));
    fs.writeFileSync(
      path.join(repo, 'docs/config.json'),
      '{{- $data := resources.Get "search/data.json" -}}\n{ "dataFile": {{ $data.RelPermalink | jsonify }} }\n',
    );
    // A template whose sets come from a variable this reader cannot see into (as in the landing-zone repository's docs).
    const copied = {
      type: 'Microsoft.Authorization/policySetDefinitions',
      apiVersion: '2019-09-01',
      name: "[variables('sets')[copyIndex()].name]",
      copy: { name: 'sets', count: 2 },
      properties: { displayName: 'x', policyDefinitions: "[variables('sets')[copyIndex()].policyDefinitions]" },
    };
    fs.writeFileSync(
      path.join(repo, 'docs/copied.json'),
      JSON.stringify(
        {
          $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
          contentVersion: '1.0.0.0',
          variables: { sets: "[json(parameters('text'))]" },
          resources: [copied],
        },
        null,
        2,
      ),
    );
    git('add', '-A');
    git('commit', '-q', '-m', 'sets');
    // The working tree: one set modified (a breaking change under a minor version), one deleted, one new.
    fs.writeFileSync(path.join(repo, 'sets/kept.json'), JSON.stringify(breaking('1.1.0'), null, 2));
    fs.rmSync(path.join(repo, 'sets/deleted.json'));
    fs.writeFileSync(path.join(repo, 'sets/added.json'), JSON.stringify({ ...set('1.0.0'), name: 'added-set' }, null, 2));
  });
  after(() => fs.rmSync(repo, { recursive: true, force: true }));

  test('finds the change in a modified set file; a deleted one is removed, a new one has no old side', async () => {
    const result = await cli(['--against', 'HEAD', 'sets', '-f', 'json'], { cwd: repo });
    assert.equal(result.code, 1, result.stderr);
    const reports = JSON.parse(result.stdout) as Json[];
    assert.ok(Array.isArray(reports));
    const byFile = (file: string) => reports.find((r) => r.new?.file === file || r.old?.file === `HEAD:${file}`)!;
    const kept = byFile('sets/kept.json');
    assert.equal(kept.old.file, 'HEAD:sets/kept.json');
    assert.equal(kept.requiredBump, 'major');
    assert.equal(kept.versionOk, false);
    assert.equal(kept.suggestedVersion, '2.0.0');
    assert.ok(kept.changes.some((c: Json) => c.kind === 'parameter-removed' && c.path === '/properties/parameters/tagName'));
    const deleted = byFile('sets/deleted.json');
    assert.equal(deleted.new, null);
    assert.deepEqual(
      deleted.changes.map((c: Json) => c.kind),
      ['set-removed'],
    );
    const added = byFile('sets/added.json');
    assert.equal(added.old, null);
    assert.equal(added.requiredBump, 'none');
    assert.equal(byFile('sets/unchanged.json').requiredBump, 'none');
    assert.equal(reports.length, 4, 'settings.json is no set');
    assert.match(result.stderr, /^policyset: 1 other JSON file skipped: no policy set definition in it, now or at HEAD$/m);
  });

  test('an unchanged tree exits 0, a file that is not JSON and names no policy key passed over as lint passes it', async () => {
    const result = await cli(['--against', 'HEAD', 'docs', 'sets/unchanged.json', 'sets/settings.json'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /1 set compared, 0 with changes/);
    assert.match(result.stderr, /docs\/config\.json: not JSON, and no policy key in it, skipped/);
    assert.match(
      result.stderr,
      /docs\/copied\.json: its set resources are built from template expressions .*: not compared \(unchanged since HEAD\)/,
    );
    assert.match(result.stderr, /1 other JSON file skipped/);
  });

  test('text output, and all paths by default', async () => {
    const result = await cli(['--against', 'HEAD'], { cwd: repo });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /HEAD:sets\/kept\.json \(1\.0\.0\) -> sets\/kept\.json \(1\.1\.0\)/);
    assert.doesNotMatch(result.stdout, /unchanged\.json/, 'an unchanged set is counted, not listed');
    assert.match(result.stdout, /4 sets compared, 2 with changes/);
  });

  test('lint --against HEAD: PS3006 on the version of the modified set only', async () => {
    const result = await runCli(['lint', 'sets', '--against', 'HEAD', '-f', 'json'], { cwd: repo, timeoutMs: 60_000 });
    assert.equal(result.code, 1, result.stderr);
    const files = JSON.parse(result.stdout).files as Json[];
    const found = files.flatMap((f) => (f.diagnostics as Json[]).filter((d) => d.code === 'PS3006').map((d) => ({ file: f.file, d })));
    assert.equal(found.length, 1, result.stdout);
    assert.match(String(found[0].file), /kept\.json$/);
    assert.match(JSON.stringify(found[0].d), /2\.0\.0/);
    const plain = await runCli(['lint', 'sets', '-f', 'json'], { cwd: repo, timeoutMs: 60_000 });
    assert.doesNotMatch(plain.stdout, /PS3006/, 'without --against there is nothing to compare');
    const bad = await runCli(['lint', 'sets', '--against', 'nowhere'], { cwd: repo, timeoutMs: 60_000 });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no such commit/);
  });

  test('a revision that is not there, or no repository: exit 2', async () => {
    const missing = await cli(['--against', 'no-such-branch'], { cwd: repo });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such commit/);
    // Shaped like an option, and given so that Node's parser takes it as the value: the guard refuses it.
    const option = await cli(['--against=--output=x'], { cwd: repo });
    assert.equal(option.code, 2);
    assert.match(option.stderr, /'--output=x' is not a git revision/);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-no-git-'));
    try {
      const result = await cli(['--against', 'HEAD'], {
        cwd: outside,
        env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(outside) },
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /not in a git repository/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('policyset diff builtin:<name> (E1, local service)', () => {
  let service: LocalService;
  const TOKEN = 'TOKEN-diff-7c1f0b9a2e4d';
  const NAME = SERVED_BUILT_IN;
  before(async () => {
    service = await startLocalService();
  });
  after(() => service.close());

  test('reads the set through E1 and names the removed parameter as a major change', async () => {
    const env = { ...process.env, POLICYSET_BASE_URL: service.url, POLICYSET_ACCESS_TOKEN: TOKEN };
    const copy = path.join(dir, 'builtin-copy.json');
    const fetched = await runCli(['fetch', NAME, '-o', copy], { env, timeoutMs: 60_000 });
    assert.equal(fetched.code, 0, fetched.stderr);
    const modified = JSON.parse(fs.readFileSync(copy, 'utf8'));
    const [removed] = Object.keys(modified.properties.parameters);
    delete modified.properties.parameters[removed];
    fs.writeFileSync(copy, JSON.stringify(modified, null, 2));
    service.requests.length = 0;
    const result = await cli([`builtin:${NAME}`, copy, '-f', 'json'], { env });
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.old.file, `builtin:${NAME}`);
    const change = report.changes.find((c: Json) => c.kind === 'parameter-removed');
    assert.equal(change.bump, 'major');
    assert.equal(change.path, `/properties/parameters/${removed}`);
    assert.match(change.message, new RegExp(`'${removed}' is removed`));
    assert.deepEqual(
      service.requests.map((r) => `${r.method} ${r.path}`),
      [`GET /providers/Provider.Authorization/policySetDefinitions/${NAME}`],
    );
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN));
  });

  test('an unknown built-in: the service error, exit 2', async () => {
    const env = { ...process.env, POLICYSET_BASE_URL: service.url, POLICYSET_ACCESS_TOKEN: TOKEN };
    const result = await cli(['builtin:no-such-set', write('builtin-other.json', set('1.0.0'))], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /PolicySetDefinitionNotFound/);
  });
});

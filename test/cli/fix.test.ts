// `policyset lint --fix`, `--fix-dry-run` and `--fix-type`, as a user runs them: what is written and what is
// not (links, hard links, definitions inputs, the report, files that are not UTF-8, split-set parts), the
// encoding and line endings kept, the report of what was fixed and what is left, and the usage errors.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli, CLI } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

const SET = `{
  "properties": {
    "displayName": "Fix me",
    "policyType": "Custom",
    "version": "v1.2",
    "parameters": {
      "storageEffect": { "type": "string", "defaultValue": "Audit" },
      "unused": { "type": "String" }
    },
    "policyDefinitions": [
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/abc",
        "parameters": { "effect": { "value": "[parameters('storageEfect')]" } }
      },
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/abc",
        "parameters": { "effect": { "value": "[parameters('storageEffect')]" } }
      }
    ]
  }
}
`;

let root: string;
let n = 0;
/** A fresh folder with `files` (name → text or bytes). */
function folder(files: Record<string, string | Buffer>): string {
  const dir = path.join(root, `case-${++n}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const lint = (args: string[], cwd: string) => runCli(['lint', ...args], { cwd });

describe('lint --fix', () => {
  before(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-fix-'))));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('writes the safe fixes, reports what is left, says "N problems fixed in M files", and exits by what is left', async () => {
    const dir = folder({ 'set.json': SET, 'clean.json': '{ "not": "a policy" }' });
    const cleanBefore = fs.statSync(path.join(dir, 'clean.json')).mtimeMs;
    const run = await lint(['.', '--fix'], dir);
    const text = fs.readFileSync(path.join(dir, 'set.json'), 'utf8');
    assert.match(text, /"version": "1\.2\.0"/);
    assert.match(text, /\[parameters\('storageEffect'\)\]/);
    // Each reference its own ID, in one run.
    assert.deepEqual(text.match(/"policyDefinitionReferenceId": "[^"]*"/g), [
      '"policyDefinitionReferenceId": "abc"',
      '"policyDefinitionReferenceId": "abc_2"',
    ]);
    // A hint (the type's casing) is not reported at the default --min-severity info, so not fixed either.
    assert.match(text, /"type": "string"/);
    // Left: the unused parameter (removing it is a person's choice); a warning, so exit 0.
    assert.match(run.stdout, /Parameter 'unused' is declared but no reference uses it\.\s+PS7003/);
    assert.doesNotMatch(run.stdout, /PS3002|PS7001|PS4002|PS4001/);
    assert.match(run.stdout, /^4 problems fixed in 1 file$/m);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fs.statSync(path.join(dir, 'clean.json')).mtimeMs, cleanBefore, 'a file with nothing to fix is not written');
    // Only the file itself in the folder: no temporary file left.
    assert.deepEqual(fs.readdirSync(dir).sort(), ['clean.json', 'set.json']);
    // Idempotent.
    const again = await lint(['.', '--fix'], dir);
    assert.match(again.stdout, /^0 problems fixed in 0 files$/m);
    assert.equal(fs.readFileSync(path.join(dir, 'set.json'), 'utf8'), text);
  });

  test('exits 1 when errors are left', async () => {
    const dir = folder({ 'set.json': SET.replace("[parameters('storageEffect')]", "[parameters('nothingLikeIt')]") });
    const run = await lint(['set.json', '--fix'], dir);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /Parameter 'nothingLikeIt' is not declared/);
  });

  test('--fix-dry-run writes nothing; -f json has each file\'s fixes and fixed "output", which --fix then writes', async () => {
    const dir = folder({ 'set.json': SET });
    const file = path.join(dir, 'set.json');
    const stat = fs.statSync(file);
    const dry = await lint(['set.json', '--fix-dry-run', '-f', 'json'], dir);
    assert.equal(fs.readFileSync(file, 'utf8'), SET);
    assert.equal(fs.statSync(file).mtimeMs, stat.mtimeMs);
    const report = JSON.parse(dry.stdout) as {
      summary: { fixed: number; fixedFiles: number; dryRun: boolean };
      files: Array<{ output: string; fixed: Array<{ code: string; line: number; kind: string }>; diagnostics: Array<{ code: string }> }>;
    };
    assert.deepEqual([report.summary.fixed, report.summary.fixedFiles, report.summary.dryRun], [4, 1, true]);
    assert.deepEqual(report.files[0].fixed.map((f) => f.code).sort(), ['PS3002', 'PS4002', 'PS4002', 'PS7001']);
    assert.deepEqual(
      report.files[0].fixed.map((f) => f.line).sort((a, b) => a - b),
      [5, 12, 13, 16],
    );
    assert.deepEqual(
      report.files[0].diagnostics.map((d) => d.code),
      ['PS7003'],
    );
    const text = await lint(['set.json', '--fix-dry-run'], dir);
    assert.match(text.stdout, /^4 problems would be fixed in 1 file \(--fix-dry-run: nothing written\)$/m);
    await lint(['set.json', '--fix'], dir);
    assert.equal(fs.readFileSync(file, 'utf8'), report.files[0].output);
  });

  test('--fix-type applies only the kinds named', async () => {
    const dir = folder({ 'set.json': SET });
    const run = await lint(['set.json', '--fix', '--fix-type', 'casing,version', '--min-severity', 'hint'], dir);
    const text = fs.readFileSync(path.join(dir, 'set.json'), 'utf8');
    assert.match(text, /"version": "1\.2\.0"/);
    assert.match(text, /"type": "String"/);
    assert.match(text, /storageEfect/);
    assert.doesNotMatch(text, /policyDefinitionReferenceId/);
    assert.match(run.stdout, /^2 problems fixed in 1 file$/m);
  });

  test('keeps a byte order mark, CRLF line endings and the permission bits; UTF-16 is written back as UTF-16', async () => {
    const crlf = SET.replace(/\n/g, '\r\n');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SET, 'utf16le')]);
    const dir = folder({ 'bom.json': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(crlf)]), 'utf16.json': utf16 });
    fs.chmodSync(path.join(dir, 'bom.json'), 0o640);
    await lint(['.', '--fix'], dir);
    const bom = fs.readFileSync(path.join(dir, 'bom.json'));
    assert.deepEqual([...bom.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = bom.subarray(3).toString('utf8');
    assert.match(text, /"version": "1\.2\.0"/);
    assert.doesNotMatch(text.replace(/\r\n/g, ''), /[\r\n]/, 'CRLF only');
    assert.equal(fs.statSync(path.join(dir, 'bom.json')).mode & 0o777, 0o640);
    const wide = fs.readFileSync(path.join(dir, 'utf16.json'));
    assert.deepEqual([...wide.subarray(0, 2)], [0xff, 0xfe]);
    assert.match(wide.subarray(2).toString('utf16le'), /"version": "1\.2\.0"/);
  });

  test('a file that is not UTF-8 is not written (its bytes would be lost), and says so', async () => {
    const latin1 = Buffer.from(SET.replace('"Fix me"', '"Caf\u00e9"'), 'latin1');
    const dir = folder({ 'latin1.json': latin1 });
    const run = await lint(['latin1.json', '--fix'], dir);
    assert.ok(fs.readFileSync(path.join(dir, 'latin1.json')).equals(latin1));
    assert.match(run.stderr, /latin1\.json: not fixed: not UTF-8 text/);
    assert.match(run.stdout, /^0 problems fixed in 0 files$/m);
  });

  test('never writes through a symbolic link or to a file with other hard links; the report is of the file as it is', async () => {
    const dir = folder({ 'real/set.json': SET, 'hard/set.json': SET });
    fs.symlinkSync(path.join(dir, 'real', 'set.json'), path.join(dir, 'link.json'));
    fs.linkSync(path.join(dir, 'hard', 'set.json'), path.join(dir, 'hard-other.json'));
    const run = await lint(['link.json', 'hard/set.json', '--fix'], dir);
    assert.equal(fs.readFileSync(path.join(dir, 'real', 'set.json'), 'utf8'), SET);
    assert.ok(fs.lstatSync(path.join(dir, 'link.json')).isSymbolicLink());
    assert.equal(fs.readFileSync(path.join(dir, 'hard', 'set.json'), 'utf8'), SET);
    assert.equal(fs.statSync(path.join(dir, 'hard', 'set.json')).nlink, 2);
    assert.match(run.stderr, /link\.json: not fixed: it is a symbolic link/);
    assert.match(run.stderr, /hard[/\\]set\.json: not fixed: it has 1 other hard link/);
    // Not fixed, so its problems are reported as they are.
    assert.match(run.stdout, /Version 'v1\.2' must match/);
    assert.match(run.stdout, /^0 problems fixed in 0 files$/m);
  });

  test('never writes a file that is also read as definitions (-d)', async () => {
    const named = SET.replace('{\n  "properties"', '{\n  "name": "fix-me",\n  "properties"');
    const dir = folder({ 'sets/set.json': named });
    const run = await lint(['sets', '-d', 'sets/set.json', '--fix'], dir);
    assert.equal(fs.readFileSync(path.join(dir, 'sets', 'set.json'), 'utf8'), named);
    assert.match(run.stderr, /not fixed: it is also an input of another kind/);
  });

  test('-o naming a file to fix: exit 2 before anything is written', async () => {
    const dir = folder({ 'set.json': SET });
    const run = await lint(['set.json', '--fix', '-o', 'set.json'], dir);
    assert.equal(run.code, 2);
    assert.equal(fs.readFileSync(path.join(dir, 'set.json'), 'utf8'), SET);
  });

  test('a part of a split-layout set is not written, and says so', async () => {
    const source = path.join(REPO_ROOT, 'test', 'fixtures', 'dialects', 'split-layout', 'tagging');
    const dir = path.join(root, 'split');
    fs.cpSync(source, dir, { recursive: true });
    const before = Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f))]));
    const run = await lint(['.', '--fix'], dir);
    for (const [f, bytes] of Object.entries(before)) assert.ok(fs.readFileSync(path.join(dir, f)).equals(bytes), f);
    assert.match(run.stderr, /not fixed: a part of a set in the split layout/);
  });

  test('standard input: --fix is refused (exit 2), --fix-dry-run -f json gives the fixed text', () => {
    const refused = spawnSync(process.execPath, [CLI, 'lint', '--stdin', '--fix'], { input: SET, encoding: 'utf8' });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /--fix writes files and standard input is none: use --fix-dry-run/);
    const dry = spawnSync(process.execPath, [CLI, 'lint', '--stdin', '--fix-dry-run', '-f', 'json'], { input: SET, encoding: 'utf8' });
    const report = JSON.parse(dry.stdout) as { files: Array<{ output: string }> };
    assert.match(report.files[0].output, /"version": "1\.2\.0"/);
  });

  test('usage errors: --fix with --fix-dry-run, --fix-type alone or with an unknown kind', async () => {
    const dir = folder({ 'set.json': SET });
    const both = await lint(['set.json', '--fix', '--fix-dry-run'], dir);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give --fix or --fix-dry-run, not both/);
    const alone = await lint(['set.json', '--fix-type', 'casing'], dir);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--fix-type chooses the fixes of --fix or --fix-dry-run/);
    const unknown = await lint(['set.json', '--fix', '--fix-type', 'casng'], dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--fix-type takes casing, typo, reference-id, version, remove, add, not 'casng'; did you mean 'casing'\?/);
    assert.equal(fs.readFileSync(path.join(dir, 'set.json'), 'utf8'), SET);
  });
});

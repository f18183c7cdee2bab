import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, isCleanMessage } from '../support/run';
import { cleanSet } from '../support/sets';

let dir: string;
const write = (name: string, content: string | Buffer) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};

const CLEAN = JSON.stringify(cleanSet('clean-set', 'Clean set'), null, 2);

const BROKEN_GROUP = CLEAN.replace('"groupNames": [\n          "Network"', '"groupNames": [\n          "Netwrok"');

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-cli-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('exit codes', () => {
  test('0 for a clean document', async () => {
    const result = await runCli(['lint', write('clean.json', CLEAN)]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /0 errors/);
  });

  test('1 when errors are found, with file, line, column and code', async () => {
    assert.notEqual(BROKEN_GROUP, CLEAN);
    const file = write('broken.json', BROKEN_GROUP);
    const result = await runCli(['lint', file, '--no-color']);
    assert.equal(result.code, 1);
    const line = BROKEN_GROUP.split('\n').findIndex((l) => l.includes('Netwrok')) + 1;
    assert.match(
      result.stdout,
      new RegExp(`${line}:\\d+\\s+error\\s+Group 'Netwrok' is not declared.*Did you mean 'Network'\\?\\s+PS5001`),
    );
  });

  test('2 with a one-line message for a path that does not exist', async () => {
    const result = await runCli(['lint', path.join(dir, 'missing.json')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /cannot read '.*missing\.json': no such file or directory/);
    assert.ok(isCleanMessage(result.stderr), result.stderr);
  });

  test('2 for usage mistakes', async () => {
    for (const args of [
      ['lint'],
      ['lint', '.', '--format', 'xml'],
      ['lint', '.', '--bogus'],
      ['frobnicate'],
      ['lint', '.', '--rule', 'PS5001=loud'],
      ['lint', '.', '--jobs', '0'],
    ]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.ok(isCleanMessage(result.stderr), result.stderr);
    }
  });

  test('--rule turns an error into a warning, and off', async () => {
    const file = write('broken2.json', BROKEN_GROUP);
    assert.equal((await runCli(['lint', file, '--rule', 'PS5001=warning'])).code, 0);
    const off = await runCli(['lint', file, '--rule', 'undefined-group=off', '-f', 'json']);
    assert.equal(off.code, 0);
    assert.ok(!off.stdout.includes('PS5001'));
  });
});

describe('formats', () => {
  test('json lists diagnostics with 1-based positions', async () => {
    const file = write('broken3.json', BROKEN_GROUP);
    const result = await runCli(['lint', file, '-f', 'json']);
    const report = JSON.parse(result.stdout) as {
      summary: { errors: number };
      files: Array<{ diagnostics: Array<{ code: string; line: number; column: number; severity: string }> }>;
    };
    assert.equal(report.summary.errors, 1);
    const diagnostic = report.files[0].diagnostics.find((d) => d.code === 'PS5001')!;
    assert.equal(diagnostic.severity, 'error');
    assert.equal(diagnostic.line, BROKEN_GROUP.split('\n').findIndex((l) => l.includes('Netwrok')) + 1);
  });

  test('sarif 2.1.0 with rules, levels, regions and relative artifact URIs', async () => {
    const file = write('sarif/broken.json', BROKEN_GROUP);
    const result = await runCli(['lint', path.join(dir, 'sarif'), '-f', 'sarif', '--docs-base-url', 'https://example.invalid/docs/rules'], {
      cwd: dir,
    });
    assert.equal(result.code, 1);
    const log = JSON.parse(result.stdout);
    assert.equal(log.version, '2.1.0');
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'policyset');
    const rule = run.tool.driver.rules.find((r: { id: string }) => r.id === 'PS5001');
    assert.equal(rule.name, 'undefined-group');
    assert.equal(rule.helpUri, 'https://example.invalid/docs/rules/undefined-group.md');
    assert.equal(rule.defaultConfiguration.level, 'error');
    const found = run.results.find((r: { ruleId: string }) => r.ruleId === 'PS5001');
    assert.equal(found.level, 'error');
    assert.equal(run.tool.driver.rules[found.ruleIndex].id, 'PS5001');
    const location = found.locations[0].physicalLocation;
    assert.equal(location.artifactLocation.uri, 'sarif/broken.json');
    assert.equal(location.artifactLocation.uriBaseId, '%SRCROOT%');
    const line = BROKEN_GROUP.split('\n').findIndex((l) => l.includes('Netwrok'));
    assert.equal(location.region.startLine, line + 1);
    assert.equal(location.region.startColumn, BROKEN_GROUP.split('\n')[line].indexOf('"Netwrok"') + 1);
    assert.equal(location.region.endColumn, location.region.startColumn + '"Netwrok"'.length);
    assert.ok(found.relatedLocations.length >= 1);
    assert.equal(file.endsWith('broken.json'), true);
  });

  test('folders are walked; JSON that is not a policy document is skipped', async () => {
    write('walk/package.json', '{"name": "x", "version": "1.0.0"}');
    write('walk/deep/set.jsonc', CLEAN);
    write('walk/notes.txt', 'not json');
    const result = await runCli(['lint', path.join(dir, 'walk'), '-f', 'json']);
    assert.equal(result.code, 0);
    const report = JSON.parse(result.stdout);
    assert.equal(report.summary.checked, 1);
    assert.equal(report.summary.skipped, 1);
  });
});

describe('several processes', () => {
  test('--jobs 2 on more than 4 MB gives the same report as one process', async () => {
    const set = JSON.parse(BROKEN_GROUP);
    const base = set.properties.policyDefinitions[0];
    set.properties.policyDefinitions = Array.from({ length: 6000 }, (_, i) => ({ ...base, policyDefinitionReferenceId: `ref${i}` }));
    set.properties.policyDefinitions[5999].groupNames = ['Nowhere'];
    for (let i = 0; i < 6; i++) write(`many/set${i}.json`, JSON.stringify(set, null, 2));
    const one = await runCli(['lint', path.join(dir, 'many'), '-f', 'json', '--jobs', '1']);
    const two = await runCli(['lint', path.join(dir, 'many'), '-f', 'json', '--jobs', '2']);
    console.log(`~6 MB in 6 files: ${one.milliseconds} ms with one process, ${two.milliseconds} ms with two`);
    assert.equal(one.code, 1);
    assert.equal(two.code, 1, two.stderr);
    assert.equal(two.stdout, one.stdout);
    assert.equal(JSON.parse(two.stdout).summary.errors, 6 * 6000);
  });
});

describe('bad input gets a clear answer, never a stack trace or a hang', () => {
  test('malformed JSON: every syntax error of the tolerant parse', async () => {
    const file = write('malformed.json', '{\n  "properties": {\n    "policyDefinitions": [ { "policyDefinitionId": "x" ]\n  \n');
    const result = await runCli(['lint', file, '-f', 'json']);
    assert.equal(result.code, 1);
    const codes = JSON.parse(result.stdout).files[0].diagnostics.map((d: { code: string }) => d.code);
    assert.ok(codes.filter((c: string) => c === 'PS1001').length >= 2, codes.join());
  });

  test('a 50 MB file', async () => {
    const reference = (i: number) =>
      `{"policyDefinitionReferenceId":"r${i}","policyDefinitionId":"/providers/Microsoft.Authorization/policyDefinitions/d${i}","parameters":{"effect":{"value":"[parameters('effect')]"}},"groupNames":["g"]}`;
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 50 * 1024 * 1024; i++) {
      const r = reference(i);
      parts.push(r);
      size += r.length + 1;
    }
    const file = write(
      'huge.json',
      `{"properties":{"parameters":{"effect":{"type":"String"}},"policyDefinitionGroups":[{"name":"g"}],"policyDefinitions":[${parts.join(',')}]}}`,
    );
    const result = await runCli(['lint', file, '-f', 'json'], { timeoutMs: 120000 });
    console.log(`50 MB file: ${result.milliseconds} ms`);
    assert.equal(result.code, 0, result.stderr);
    const codes: string[] = JSON.parse(result.stdout).files[0].diagnostics.map((d: { code: string }) => d.code);
    assert.deepEqual(codes, ['PS9006']);
    // A broken one: its first syntax error, where it is.
    const broken = write('huge-broken.json', fs.readFileSync(file, 'utf8').replace('"r100000"', '"r100000" "oops"'));
    const brokenResult = await runCli(['lint', broken, '-f', 'json'], { timeoutMs: 120000 });
    assert.equal(brokenResult.code, 1, brokenResult.stderr);
    const syntax = JSON.parse(brokenResult.stdout).files[0].diagnostics.find((d: { code: string }) => d.code === 'PS1001');
    assert.ok(syntax, brokenResult.stdout.slice(0, 500));
    // Another large JSON file that is not a policy document is left alone.
    const other = write('walk-large/data.json', JSON.stringify({ rows: parts }));
    const otherResult = await runCli(['lint', path.dirname(other), '-f', 'json'], { timeoutMs: 120000 });
    assert.equal(JSON.parse(otherResult.stdout).summary.skipped, 1);
  });

  test('100,000 levels of nesting', async () => {
    const depth = 100000;
    const file = write('deep.json', `{"properties":{"policyDefinitions":[],"metadata":${'['.repeat(depth)}${']'.repeat(depth)}}}`);
    const result = await runCli(['lint', file, '-f', 'json']);
    console.log(`100,000 levels: ${result.milliseconds} ms`);
    assert.equal(result.code, 1, result.stderr);
    const diagnostics = JSON.parse(result.stdout).files[0].diagnostics;
    assert.equal(diagnostics[0].code, 'PS1003');
  });

  test('100,000 levels of unclosed nesting (not JSON at all)', async () => {
    const file = write('deep-broken.json', '['.repeat(100000));
    const result = await runCli(['lint', file, '-f', 'json']);
    assert.equal(result.code, 1, result.stderr);
    const codes = JSON.parse(result.stdout).files[0].diagnostics.map((d: { code: string }) => d.code);
    assert.ok(codes.includes('PS1003'), codes.join());
  });

  test('invalid UTF-8 is reported at its position; the rest is still checked', async () => {
    const text = CLEAN.replace('Clean set', 'Clean \u0000set');
    const bytes = Buffer.from(text, 'utf8');
    const at = bytes.indexOf(0);
    bytes[at] = 0xff;
    const file = write('latin1.json', bytes);
    const result = await runCli(['lint', file, '-f', 'json']);
    assert.equal(result.code, 1);
    const diagnostic = JSON.parse(result.stdout).files[0].diagnostics.find((d: { code: string }) => d.code === 'PS1004');
    assert.ok(diagnostic);
    assert.equal(diagnostic.line, text.split('\n').findIndex((l) => l.includes('Clean')) + 1);
    assert.match(diagnostic.message, /0xFF/);
  });

  test('a byte order mark is accepted and columns stay right', async () => {
    const file = write('bom.json', '\uFEFF' + BROKEN_GROUP);
    const result = await runCli(['lint', file, '-f', 'json']);
    const diagnostic = JSON.parse(result.stdout).files[0].diagnostics.find((d: { code: string }) => d.code === 'PS5001');
    const line = BROKEN_GROUP.split('\n').findIndex((l) => l.includes('Netwrok'));
    assert.equal(diagnostic.column, BROKEN_GROUP.split('\n')[line].indexOf('"Netwrok"') + 1);
  });

  test('duplicate keys', async () => {
    const file = write(
      'dup.json',
      CLEAN.replace('"displayName": "Clean set",', '"displayName": "Clean set",\n    "displayName": "Again",'),
    );
    const result = await runCli(['lint', file, '-f', 'json']);
    assert.equal(result.code, 1);
    assert.ok(result.stdout.includes('PS1002'));
  });

  test('a catastrophic regular expression in a parameter schema against a long default', async () => {
    const set = JSON.parse(CLEAN);
    set.properties.parameters.config = {
      type: 'Object',
      schema: { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } },
      defaultValue: { name: 'a'.repeat(100000) + 'b' },
    };
    set.properties.policyDefinitions[0].parameters.config = { value: "[parameters('config')]" };
    const file = write('redos.json', JSON.stringify(set, null, 2));
    const result = await runCli(['lint', file, '-f', 'json'], { timeoutMs: 60000 });
    console.log(`catastrophic pattern: ${result.milliseconds} ms`);
    assert.equal(result.code, 1);
    const codes = JSON.parse(result.stdout).files[0].diagnostics.map((d: { code: string }) => d.code);
    assert.ok(codes.includes('PS6006'), codes.join());
  });

  test('a folder without permission', async (t) => {
    const locked = path.join(dir, 'locked');
    fs.mkdirSync(locked);
    fs.writeFileSync(path.join(locked, 'set.json'), CLEAN);
    fs.chmodSync(locked, 0o000);
    fs.chmodSync(dir, 0o755);
    try {
      // Root reads anything: drop the capabilities that let it (setpriv, util-linux), or run as nobody.
      let asUser: { uid?: number; gid?: number; wrapper?: string[] } = {};
      if (process.getuid?.() === 0) {
        const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => fs.existsSync(p));
        if (setpriv) asUser = { wrapper: [setpriv, '--bounding-set=-dac_override,-dac_read_search', '--'] };
        else {
          asUser = { uid: 65534, gid: 65534 };
          for (let p = path.dirname(locked); p !== path.dirname(p); p = path.dirname(p)) {
            if ((fs.statSync(p).mode & 0o005) !== 0o005) return t.skip(`no setpriv, and '${p}' is not readable by other users`);
          }
        }
      }
      const result = await runCli(['lint', locked], asUser);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /cannot read '.*locked': permission denied/);
      assert.ok(isCleanMessage(result.stderr));
    } finally {
      fs.chmodSync(locked, 0o755);
    }
  });
});

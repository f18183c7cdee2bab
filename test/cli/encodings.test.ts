import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/run';
import { SUBSET } from '../support/corpus';
import { decodeText, encodingOf } from '#service';

// Encodings (PS1006 non-utf8-encoding, PS1004 invalid-encoding) and files a folder walk skips as not JSON.

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-encodings-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: string | Uint8Array) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};

function utf16(text: string, bigEndian: boolean, bom = true): Buffer {
  const body = Buffer.from(text, 'utf16le');
  if (bigEndian) body.swap16();
  const mark = bigEndian ? Buffer.from([0xfe, 0xff]) : Buffer.from([0xff, 0xfe]);
  return bom ? Buffer.concat([mark, body]) : body;
}

interface JsonReport {
  summary: { checked: number; skipped: number; errors: number };
  files: Array<{ file: string; diagnostics: Array<{ code: string; message: string; line: number; severity: string }> }>;
  skipped: Array<{ file: string; reason: string }>;
  notChecked: Array<{ file: string; reason: string }>;
}

async function lintJson(args: string[]): Promise<{ code: number | null; report: JsonReport; stderr: string }> {
  const result = await runCli(['lint', ...args, '-f', 'json'], { cwd: dir });
  return { code: result.code, report: JSON.parse(result.stdout) as JsonReport, stderr: result.stderr };
}

const codes = (report: JsonReport) => report.files.flatMap((f) => f.diagnostics.map((d) => `${d.code}:${d.line}`)).sort();

describe('a built-in set saved in other encodings', () => {
  // The largest built-in set and a small one, from the corpus subset in the repository.
  const sources = ['Regulatory_Compliance/Spain_ENS.json', 'General/AllowUsageCosts.json'];
  const encodings: Array<[string, (text: string) => Uint8Array, string]> = [
    ['utf8-bom', (t) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t, 'utf8')]), 'UTF-8 with a byte order mark'],
    ['utf16le-bom', (t) => utf16(t, false), 'UTF-16LE with a byte order mark'],
    ['utf16be-bom', (t) => utf16(t, true), 'UTF-16BE with a byte order mark'],
    ['utf16le', (t) => utf16(t, false, false), 'UTF-16LE'],
  ];
  for (const source of sources) {
    test(`${path.basename(source)}: each copy gets exactly one diagnostic more than the UTF-8 copy, and it names the encoding`, async () => {
      const text = fs.readFileSync(path.join(SUBSET.sets, source), 'utf8');
      const definitions = ['-d', SUBSET.index];
      const plain = await lintJson([write(`utf8/${path.basename(source)}`, text), ...definitions]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.ok(!codes(plain.report).some((c) => c.startsWith('PS1006')));
      for (const [folder, encode, name] of encodings) {
        const copy = write(`${folder}/${path.basename(source)}`, encode(text));
        const result = await lintJson([copy, ...definitions]);
        assert.equal(result.code, 0, `${folder}: a warning, not an error: ${result.stderr}`);
        const extra = result.report.files[0].diagnostics.filter((d) => d.code === 'PS1006');
        assert.equal(extra.length, 1, folder);
        assert.equal(extra[0].severity, 'warning');
        assert.ok(extra[0].message.includes(name), extra[0].message);
        assert.match(extra[0].message, /expects UTF-8.*Save it as UTF-8/);
        assert.deepEqual(
          codes(result.report).filter((c) => !c.startsWith('PS1006')),
          codes(plain.report),
          `${folder}: the same diagnostics otherwise, on the same lines`,
        );
      }
    });
  }

  test('invalid UTF-8 in a policy set: one PS1004, as before, and the set is still checked', async () => {
    const text = fs
      .readFileSync(path.join(SUBSET.sets, 'General/AllowUsageCosts.json'), 'utf8')
      .replace('"Allow Usage Cost Resources"', '"Allow Usage Cost Resources \u00e9"');
    const bytes = Buffer.from(text, 'utf8');
    const at = bytes.indexOf(Buffer.from([0xc3, 0xa9]));
    const latin1 = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xe9]), bytes.subarray(at + 2)]);
    const result = await lintJson([write('latin1/set.json', latin1)]);
    assert.equal(result.code, 1);
    assert.deepEqual(
      result.report.files[0].diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['PS1004'],
    );
    assert.ok(!codes(result.report).some((c) => c.startsWith('PS1006')));
    assert.equal(result.report.summary.checked, 1);
  });

  test('decodeText: the encodings known by their first bytes, and nothing else taken for them', () => {
    assert.equal(encodingOf(Buffer.from('{"a":1}')), undefined);
    assert.equal(encodingOf(Buffer.from([0x7b, 0x00])), undefined, 'two bytes are not enough to tell');
    assert.equal(encodingOf(utf16('{"a":1}', false, false)), 'UTF-16LE');
    assert.equal(encodingOf(utf16('{"a":1}', true, false)), 'UTF-16BE');
    assert.equal(decodeText(utf16('{"é":"\u{1F600}"}', true)).text, '{"é":"\u{1F600}"}');
    const bom = decodeText(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"x":"\u00e9', 'utf8'), Buffer.from([0xff]), Buffer.from('"}')]),
    );
    assert.equal(bom.encoding, 'UTF-8 with a byte order mark');
    assert.equal(bom.encodingProblem?.byteOffset, 11, 'the offset of the bad byte counts the byte order mark');
  });
});

describe('files a folder walk skips, and why', () => {
  const POLICY_SET = fs.readFileSync(path.join(SUBSET.sets, 'General/AllowUsageCosts.json'), 'utf8');
  let repo: string;
  before(() => {
    repo = path.join(dir, 'repo');
    // A generator's template: placeholders make it not JSON, and it names no policy key.
    write('repo/templates/storage.json', '{\n  "name": "##NAME##",\n  "location": ##LOCATION##,\n  "sku": { "name": "##SKU##" }\n}\n');
    // A UTF-16 Logic App template of another product: JSON, of no policy kind.
    write(
      'repo/playbooks/azuredeploy.json',
      utf16(
        JSON.stringify(
          {
            $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
            resources: [{ type: 'Microsoft.Logic/workflows', name: 'playbook' }],
          },
          null,
          2,
        ),
        false,
      ),
    );
    // The same template cut short (not JSON) in UTF-16: skipped, not thousands of syntax errors.
    write('repo/playbooks/broken.json', utf16('{\n  "resources": [ { "type": "Microsoft.Logic/workflows", ', false));
    // Bytes that are not text in any encoding, in a .json file with no policy key.
    write('repo/assets/blob.json', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]));
    // A policy set with a syntax error: still reported.
    write('repo/policySetDefinitions/broken-set.json', POLICY_SET.replace('"policyDefinitions": [', '"policyDefinitions": [,'));
    // A policy set saved as UTF-16: checked as its text.
    write('repo/policySetDefinitions/utf16-set.json', utf16(POLICY_SET, false));
  });

  test('text, JSON and SARIF list the skipped files with their reason; the broken policy set keeps its errors', async () => {
    const result = await lintJson([repo]);
    assert.equal(result.code, 1, 'the broken policy set has errors');
    assert.equal(result.stderr, '');
    const skipped = Object.fromEntries(result.report.skipped.map((s) => [path.basename(s.file), s.reason]));
    assert.deepEqual(Object.keys(skipped).sort(), ['blob.json', 'broken.json', 'storage.json']);
    assert.equal(skipped['storage.json'], "a generator's template, not JSON until its placeholders (##LOCATION##) are filled in");
    assert.equal(skipped['broken.json'], 'not JSON (UTF-16LE with a byte order mark), and no policy key in it');
    assert.equal(skipped['blob.json'], 'not UTF-8 text, and no policy key in it');
    const reported = Object.fromEntries(result.report.files.map((f) => [path.basename(f.file), f.diagnostics.map((d) => d.code)]));
    assert.deepEqual(Object.keys(reported).sort(), ['broken-set.json', 'utf16-set.json']);
    assert.ok(reported['broken-set.json'].includes('PS1001'));
    assert.deepEqual(
      reported['utf16-set.json'].filter((c) => c.startsWith('PS1')),
      ['PS1006'],
    );
    // The Logic App template is JSON of another kind: skipped like any other.
    assert.equal(result.report.summary.skipped, 4);

    const text = await runCli(['lint', repo, '--no-color'], { cwd: dir });
    assert.match(
      text.stdout,
      /^skipped repo\/templates\/storage\.json: a generator's template, not JSON until its placeholders \(##LOCATION##\) are filled in$/m,
    );
    assert.match(
      text.stdout,
      /^skipped repo\/playbooks\/broken\.json: not JSON \(UTF-16LE with a byte order mark\), and no policy key in it$/m,
    );
    assert.match(text.stdout, /^skipped repo\/assets\/blob\.json: not UTF-8 text/m);
    assert.match(text.stdout, /\(1 other JSON file skipped, 3 files skipped as not JSON\)/);
    assert.doesNotMatch(text.stdout, /storage\.json\n\s+\d+:\d+/, 'no diagnostics under the template');

    const sarif = JSON.parse((await runCli(['lint', repo, '-f', 'sarif'], { cwd: dir })).stdout) as {
      runs: Array<{
        results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
        invocations: Array<{ toolExecutionNotifications: Array<{ level: string; message: { text: string } }> }>;
      }>;
    };
    const notes = sarif.runs[0].invocations[0].toolExecutionNotifications.filter((n) => /skipped/.test(n.message.text));
    assert.equal(notes.length, 3);
    assert.ok(notes.every((n) => n.level === 'note'));
    const uris = new Set(sarif.runs[0].results.map((r) => r.locations[0].physicalLocation.artifactLocation.uri));
    assert.ok(![...uris].some((u) => /storage|blob|playbooks/.test(u)), [...uris].join());
  });

  test('a folder of nothing but such files: exit 2 (no policy document), the files still listed as skipped', async () => {
    const only = path.join(dir, 'templates-only');
    write('templates-only/a.json', '{ "name": "##NAME##" ');
    const result = await runCli(['lint', only, '-f', 'json'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.equal((JSON.parse(result.stdout) as JsonReport).skipped.length, 1);
    assert.match(result.stderr, /no policy document/);
    void only;
  });

  test('a file named on the command line that is not JSON gets its note (or its errors, as a .json), as before', async () => {
    const named = write('named/template.txt', '{ "name": "##NAME##" ');
    const result = await lintJson([named]);
    assert.equal(result.report.notChecked.length, 1);
    assert.equal(result.report.skipped.length, 0);
    const namedJson = write('named/template.json', '{ "name": "##NAME##", "location": ##LOC## }');
    const asJson = await lintJson([namedJson]);
    assert.equal(asJson.code, 1, 'a named .json file is taken for a policy document');
    assert.ok(codes(asJson.report).some((c) => c.startsWith('PS1001')));
  });

  test('definitions saved as UTF-16 are read (-d): the same findings as with the UTF-8 index', async () => {
    const index = fs.readFileSync(SUBSET.index, 'utf8');
    const utf16Index = write('defs/index-utf16.json', utf16(index, false));
    const set = path.join(SUBSET.sets, 'Monitoring', 'AzureMonitor_WindowsPlatform_EnableDCR.json');
    const withUtf8 = await lintJson([set, '-d', SUBSET.index, '--min-severity', 'hint']);
    const withUtf16 = await lintJson([set, '-d', utf16Index, '--min-severity', 'hint']);
    assert.equal(withUtf16.stderr, '');
    assert.ok(
      codes(withUtf8.report).some((c) => c.startsWith('PS8008')),
      'the index is used: a definition parameter in another casing is told',
    );
    assert.deepEqual(codes(withUtf16.report), codes(withUtf8.report));
  });
});

// `lint --fix` writing back (server/src/cli/lint/writeFixes.ts), in-process, on real files: what is written
// (only a changed text, in the encoding it was read in, with its permission bits, atomically) and every
// refusal (a symbolic link, another hard link, an input of another kind, a file changed since it was read,
// bytes that would not survive the round trip, a file gone or no longer regular), each with the report of
// the file as it is put back. Expected texts and reasons are written out by hand from docs/cli.md (--fix).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { writeFixes } from '#server/cli/lint/writeFixes';
import type { FileResult } from '#server/cli/lint/lintFile';
import type { PolicySetDiagnostic } from '#service';
import { decodeText, type TextEncodingName } from '#server/service/json/encoding';
import { hashText } from '#server/service/text';

const POSIX = process.platform !== 'win32';
let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-writefixes-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function file(content: string | Buffer, name = `f${++counter}.json`): string {
  const full = path.join(dir, name);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, content);
  return full;
}

const BEFORE = [{ code: 'PS0000', message: 'before' }] as unknown as PolicySetDiagnostic[];
const AFTER = [{ code: 'PS0000', message: 'after' }] as unknown as PolicySetDiagnostic[];

/** A result whose fix turns `text` (what was read) into `output`, with `count` fixes. */
function fixed(target: string, text: string, output: string, options: { encoding?: TextEncodingName; count?: number } = {}): FileResult {
  const fixes = Array.from({ length: options.count ?? 1 }, (_, i) => ({
    code: 'PS1001',
    rule: 'r',
    kind: 'format',
    title: `fix ${i}`,
    message: 'm',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  }));
  return {
    file: target,
    kind: 'policySetDefinition',
    diagnostics: AFTER,
    skipped: false,
    internalErrors: [],
    identities: ['after'],
    fix: {
      output,
      fixes,
      sourceHash: hashText(text),
      encoding: options.encoding,
      before: { diagnostics: BEFORE, identities: ['before'] },
    },
  } as unknown as FileResult;
}

/** The result as the report shows it when the fix was not written. */
function assertKept(result: FileResult, reason: string | RegExp) {
  assert.equal(result.fix, undefined);
  assert.deepEqual(result.diagnostics, BEFORE);
  assert.deepEqual(result.identities, ['before']);
  if (typeof reason === 'string') assert.equal(result.notFixed, reason);
  else assert.match(result.notFixed ?? '', reason);
}

function temporaries(): string[] {
  const all: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(d, entry.name));
      else if (entry.name.endsWith('.tmp')) all.push(entry.name);
    }
  };
  walk(dir);
  return all;
}

describe('writeFixes: what is written', () => {
  test('a changed text is written, the fixes counted, the result left as the fixed report', () => {
    const target = file('{"a":1}');
    const result = fixed(target, '{"a":1}', '{\n  "a": 1\n}\n', { count: 3 });
    const outcome = writeFixes([result], []);
    assert.deepEqual(outcome, { written: [{ file: path.normalize(target), fixes: 3 }], notWritten: [] });
    assert.equal(fs.readFileSync(target, 'utf8'), '{\n  "a": 1\n}\n');
    assert.deepEqual(result.diagnostics, AFTER);
    assert.deepEqual(result.identities, ['after']);
    assert.notEqual(result.fix, undefined);
    assert.equal(result.notFixed, undefined);
    assert.deepEqual(temporaries(), []);
  });

  test('results without a fix, or with no fixes, are left alone and not listed', () => {
    const untouched = file('{"b":1}');
    const noFix = { ...fixed(untouched, '{"b":1}', 'X'), fix: undefined } as FileResult;
    const noFixes = fixed(untouched, '{"b":1}', 'Y', { count: 0 });
    assert.deepEqual(writeFixes([noFix, noFixes], []), { written: [], notWritten: [] });
    assert.equal(fs.readFileSync(untouched, 'utf8'), '{"b":1}');
    assert.notEqual(noFixes.fix, undefined, 'a result with no fixes keeps its (empty) fix');
  });

  test('written back in the encoding it was read in: UTF-16LE with its byte order mark, UTF-8 with one', () => {
    const text = '{"c":1}';
    const utf16 = file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const bom8 = file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    const outcome = writeFixes(
      [
        fixed(utf16, text, '{"c": 2}', { encoding: 'UTF-16LE with a byte order mark' }),
        fixed(bom8, text, '{"c": 3}', { encoding: 'UTF-8 with a byte order mark' }),
      ],
      [],
    );
    assert.equal(outcome.written.length, 2, JSON.stringify(outcome));
    assert.deepEqual(fs.readFileSync(utf16), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"c": 2}', 'utf16le')]));
    assert.deepEqual(fs.readFileSync(bom8), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"c": 3}', 'utf8')]));
  });

  test('the permission bits are kept exactly, whatever the umask', { skip: !POSIX && 'POSIX modes' }, () => {
    const target = file('{"d":1}');
    fs.chmodSync(target, 0o640);
    const previous = process.umask(0o077);
    try {
      writeFixes([fixed(target, '{"d":1}', '{"d": 2}')], []);
    } finally {
      process.umask(previous);
    }
    assert.equal(fs.statSync(target).mode & 0o777, 0o640);
    assert.equal(fs.readFileSync(target, 'utf8'), '{"d": 2}');
  });

  test('several files: each decided on its own, in order', () => {
    const a = file('{"e":1}');
    const b = file('{"e":2}');
    const link = path.join(dir, `link-${++counter}.json`);
    fs.symlinkSync(b, link);
    const outcome = writeFixes([fixed(a, '{"e":1}', 'A'), fixed(link, '{"e":2}', 'B'), fixed(b, '{"e":2}', 'C', { count: 2 })], []);
    assert.deepEqual(outcome.written, [
      { file: a, fixes: 1 },
      { file: b, fixes: 2 },
    ]);
    assert.deepEqual(
      outcome.notWritten.map((n) => n.file),
      [link],
    );
    assert.equal(fs.readFileSync(a, 'utf8'), 'A');
    assert.equal(fs.readFileSync(b, 'utf8'), 'C');
  });
});

describe('writeFixes: what is refused, the file left as it was and its report put back', () => {
  test('a symbolic link: the file it points to is not touched', () => {
    const real = file('{"f":1}');
    const link = path.join(dir, `link-${++counter}.json`);
    fs.symlinkSync(real, link);
    const result = fixed(link, '{"f":1}', 'changed');
    const outcome = writeFixes([result], []);
    const reason = 'it is a symbolic link: the file it points to is left as it is (fix that file itself)';
    assert.deepEqual(outcome, { written: [], notWritten: [{ file: link, reason }] });
    assertKept(result, reason);
    assert.equal(fs.readFileSync(real, 'utf8'), '{"f":1}');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
  });

  test('a file with other hard links: their count said', () => {
    const target = file('{"g":1}');
    fs.linkSync(target, `${target}.one`);
    fs.linkSync(target, `${target}.two`);
    const result = fixed(target, '{"g":1}', 'changed');
    writeFixes([result], []);
    assertKept(result, 'it has 2 other hard link(s): a new file would part them');
    assert.equal(fs.readFileSync(target, 'utf8'), '{"g":1}');
    assert.equal(fs.statSync(target).nlink, 3);
  });

  test('an input of another kind (a definitions file, the report), by device and inode: another spelling counts', () => {
    const target = file('{"h":1}');
    const result = fixed(target, '{"h":1}', 'changed');
    const spelled = path.join(path.dirname(target), '.', 'x', '..', path.basename(target));
    writeFixes([result], [path.join(dir, 'not-there.json'), spelled]);
    assertKept(result, 'it is also an input of another kind (a definitions file or the report)');
    assert.equal(fs.readFileSync(target, 'utf8'), '{"h":1}');
    // Other inputs that are other files, or not there: written.
    const free = file('{"h":2}');
    const other = file('{}');
    assert.equal(writeFixes([fixed(free, '{"h":2}', 'written')], [other, path.join(dir, 'nowhere.json')]).written.length, 1);
    assert.equal(fs.readFileSync(free, 'utf8'), 'written');
  });

  test('a file changed since it was read: not written over', () => {
    const target = file('{"i":1}');
    const result = fixed(target, '{"i":0}', 'changed');
    writeFixes([result], []);
    assertKept(result, 'it changed while it was being fixed');
    assert.equal(fs.readFileSync(target, 'utf8'), '{"i":1}');
  });

  test('the same text in another encoding than the one fixed counts as changed', () => {
    const text = '{"j":1}';
    const target = file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const result = fixed(target, text, 'changed');
    writeFixes([result], []);
    assertKept(result, 'it changed while it was being fixed');
  });

  test('text that is no longer valid in its encoding counts as changed', () => {
    const target = file(Buffer.from([0x7b, 0xff, 0x7d]));
    const result = fixed(target, '{\ufffd}', 'changed');
    writeFixes([result], []);
    assertKept(result, 'it changed while it was being fixed');
    assert.deepEqual(fs.readFileSync(target), Buffer.from([0x7b, 0xff, 0x7d]));
  });

  test('bytes that would not survive being read and written back (UTF-16 with an odd last byte)', () => {
    const text = '{"k":1}';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le'), Buffer.from([0x0a])]);
    const target = file(bytes);
    const encoding: TextEncodingName = 'UTF-16LE with a byte order mark';
    // What the reader makes of the odd byte is the text the fix was made from.
    const decoded = decodeText(bytes);
    assert.equal(decoded.encoding, encoding);
    assert.equal(decoded.encodingProblem, undefined, 'an odd last byte is read, not refused');
    const result = fixed(target, decoded.text, 'changed', { encoding });
    writeFixes([result], []);
    assertKept(result, 'its bytes do not survive being read as UTF-16LE with a byte order mark and written back');
    assert.deepEqual(fs.readFileSync(target), bytes);
  });

  test('a file gone since it was read: the code said', () => {
    const target = path.join(dir, `gone-${++counter}.json`);
    const result = fixed(target, '{}', 'changed');
    writeFixes([result], []);
    assertKept(result, 'cannot be read again (ENOENT)');
    assert.equal(fs.existsSync(target), false);
  });

  test('a folder or a FIFO where the file was: not a regular file', { skip: !POSIX && 'no FIFOs' }, () => {
    const folder = path.join(dir, `folder-${++counter}.json`);
    fs.mkdirSync(folder);
    const fifo = path.join(dir, `fifo-${++counter}.json`);
    const made = spawnSync('mkfifo', [fifo]).status === 0;
    const results = [fixed(folder, '{}', 'changed'), ...(made ? [fixed(fifo, '{}', 'changed')] : [])];
    writeFixes(results, []);
    for (const result of results) assertKept(result, 'not a regular file');
    assert.ok(fs.statSync(folder).isDirectory());
    if (made) assert.ok(fs.lstatSync(fifo).isFIFO());
  });

  test('a file too large to read again: the reader’s message', () => {
    const target = file('{}');
    fs.truncateSync(target, 256 * 1024 * 1024 + 1);
    try {
      const result = fixed(target, '{}', 'changed');
      writeFixes([result], []);
      assertKept(result, /is too large to read \(256 MiB; policy documents are read up to 256 MiB\)/);
    } finally {
      fs.rmSync(target);
    }
  });

  test('a write that fails (a read-only folder): the code said, the file kept, no temporary file left', (t) => {
    const sub = path.join(dir, `ro-${++counter}`);
    fs.mkdirSync(sub);
    const target = file('{"l":1}', path.relative(dir, path.join(sub, 'set.json')));
    fs.chmodSync(sub, 0o555);
    try {
      const expected = {
        notWritten: [{ file: target, reason: `cannot write '${target}': EACCES` }],
        text: '{"l":1}',
        entries: ['set.json'],
      };
      // Run where the folder's permissions hold: here, or (as root, who writes anywhere) in a process of root's
      // without the capabilities that override them.
      const script = `
        const fs = require('node:fs');
        const { writeFixes } = require(${JSON.stringify(require.resolve('#server/cli/lint/writeFixes'))});
        const { hashText } = require(${JSON.stringify(require.resolve('#server/service/text'))});
        const [target] = process.argv.slice(1);
        const result = { file: target, kind: 'policySetDefinition', diagnostics: [], skipped: false, internalErrors: [], identities: [],
          fix: { output: 'changed', fixes: [{}], sourceHash: hashText('{"l":1}'), before: { diagnostics: [], identities: [] } } };
        const { notWritten } = writeFixes([result], []);
        process.stdout.write(JSON.stringify({ notWritten, text: fs.readFileSync(target, 'utf8'), entries: fs.readdirSync(require('node:path').dirname(target)) }));`;
      const asRoot = process.getuid?.() === 0;
      if (asRoot && spawnSync('setpriv', ['--version']).status !== 0) {
        t.skip('root writes into a read-only folder, and setpriv is not here to take the capabilities away');
        return;
      }
      const command = asRoot ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', process.execPath] : [process.execPath];
      const child = spawnSync(command[0], [...command.slice(1), '-e', script, target], { encoding: 'utf8' });
      assert.equal(child.status, 0, child.stderr);
      assert.deepEqual(JSON.parse(child.stdout), expected);
    } finally {
      fs.chmodSync(sub, 0o755);
    }
  });
});

// The Node helpers both faces share (server/src/node/), in process: the bounded reader of user files
// (files.ts: discover, readUserFileSync, readUserFile, FileReader), the guard and atomic writer of -o
// (output.ts), glob expansion (globs.ts) and the closed-pipe handler (pipes.ts). The CLI tests reach them too,
// but through processes that take seconds each, which makes a mutation run of these files take hours. Every
// expected message, size, file content and sorted list below is written out by hand.
// Real file system objects throughout: temporary folders, FIFOs (mkfifo), Unix sockets, hard and symbolic
// links, /dev/zero, device nodes of the test's own (mknod, where permitted: root); the cases that need
// Linux (/proc, PATH_MAX) or root are skipped elsewhere, saying why.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EventEmitter } from 'node:events';
import { spawn, spawnSync } from 'node:child_process';
import {
  describeFsError,
  discover,
  FileReader,
  InputError,
  notWalkedNotes,
  readBytes,
  readUserFile,
  readUserFileSync,
  SIZE_CAPS,
  UsageError,
  type FileKind,
} from '#server/node/files';
import { refuseInputs, writeAtomically, writeOutputFile } from '#server/node/output';
import { expandGlob, isGlobPattern } from '#server/node/globs';
import { endQuietlyOnClosedPipes } from '#server/node/pipes';
import { foldersBeyondPathMax } from '../support/longPaths';

const MiB = 1024 * 1024;
const LINUX = process.platform === 'linux';
const POSIX = process.platform !== 'win32';
const HAS_MKFIFO = POSIX && spawnSync('mkfifo', ['--version']).error === undefined;

// Runs first, before any pattern is expanded in this process: the pattern library is loaded only when needed.
test('a plain path is not a pattern, and saying so does not load picomatch', () => {
  const loaded = () => Object.keys(require.cache).some((file) => file.includes(`${path.sep}picomatch${path.sep}`));
  assert.equal(loaded(), false, 'picomatch was loaded before the test');
  assert.equal(isGlobPattern('sets/a.json'), false);
  assert.equal(loaded(), false, 'a path without any glob character is not shown to picomatch');
  assert.equal(isGlobPattern('a+b.json'), false);
  assert.equal(loaded(), true, 'a path holding a glob character asks picomatch');
});

let root: string;
before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-node-helpers-'));
});
after(() => {
  // rm -rf: the PATH_MAX case leaves paths longer than fs.rmSync takes.
  if (POSIX) spawnSync('rm', ['-rf', root]);
  else fs.rmSync(root, { recursive: true, force: true });
});

/** A fresh folder under the test's temporary folder. */
function folder(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function write(file: string, content: string | Buffer = '{}'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** A file of `size` bytes that takes no disk space (a hole): for the caps, refused before any byte is read. */
function sparse(file: string, size: number): string {
  const fd = fs.openSync(file, 'w');
  fs.ftruncateSync(fd, size);
  fs.closeSync(fd);
  return file;
}

/**
 * Removes a large file as soon as it has been read: a run under Stryker ends a test file at its first
 * failure, before after() removes the temporary folder, and hundreds of killed mutants would leave megabytes each.
 */
function removeLarge(file: string): void {
  fs.rmSync(file, { force: true });
}

function errorWith(code: string | undefined, message = 'the raw message'): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

/** Whether the file permission bits are enforced for this process (not for root, or with CAP_DAC_OVERRIDE). */
function permissionsEnforced(dir: string): boolean {
  const probe = write(path.join(dir, 'probe.txt'), 'x');
  fs.chmodSync(probe, 0o000);
  try {
    fs.readFileSync(probe);
    return false;
  } catch {
    return true;
  } finally {
    fs.chmodSync(probe, 0o600);
  }
}

function mkfifo(file: string): string {
  const result = spawnSync('mkfifo', [file]);
  assert.equal(result.status, 0, String(result.stderr));
  return file;
}

function openFds(): number {
  return fs.readdirSync('/proc/self/fd').length;
}

describe('describeFsError: the reason of each file system code, in words', () => {
  test('each code the CLI names, and the raw message of any other', () => {
    assert.equal(describeFsError(errorWith('ENOENT'), 'a.json'), "cannot read 'a.json': no such file or directory");
    assert.equal(describeFsError(errorWith('EACCES'), 'a.json'), "cannot read 'a.json': permission denied");
    assert.equal(describeFsError(errorWith('EPERM'), 'a.json'), "cannot read 'a.json': permission denied");
    assert.equal(describeFsError(errorWith('ENOTDIR'), 'a.json'), "cannot read 'a.json': not a directory");
    assert.equal(describeFsError(errorWith('ELOOP'), 'a.json'), "cannot read 'a.json': too many symbolic links");
    assert.equal(describeFsError(errorWith('EIO', 'EIO: i/o error, read'), 'a.json'), "cannot read 'a.json': EIO: i/o error, read");
    assert.equal(describeFsError(errorWith(undefined), 'a.json'), "cannot read 'a.json': the raw message");
  });
});

describe('discover: the files to lint in the files and folders named', () => {
  test('a folder: .json and .jsonc in any case, .csv as parameter files, the ignored folders and symbolic links left out, sorted', async () => {
    const dir = folder('discover-tree');
    for (const name of [
      'b.json',
      'A.JSON',
      'c.jsonc',
      'd.JSONC',
      'e.json.bak',
      'fjson',
      'g.txt',
      'h.jsonx',
      'p.csv',
      'Q.CSV',
      'r.csv.txt',
      'scsv',
    ])
      write(path.join(dir, name));
    for (const ignored of ['node_modules', '.git', '.hg', '.svn']) {
      write(path.join(dir, ignored, 'x.json'));
      write(path.join(dir, ignored, 'x.csv'));
    }
    write(path.join(dir, 'sub', 'h.json'));
    write(path.join(dir, 'sub', 'deeper', 'i.csv'));
    write(path.join(dir, 'folder.json', 'j.json'));
    fs.symlinkSync(path.join(dir, 'b.json'), path.join(dir, 'link.json'));
    fs.symlinkSync(path.join(dir, 'p.csv'), path.join(dir, 'link.csv'));
    const found = await discover([dir]);
    assert.deepEqual(found.files, [
      { path: path.join(dir, 'A.JSON'), explicit: false },
      { path: path.join(dir, 'b.json'), explicit: false },
      { path: path.join(dir, 'c.jsonc'), explicit: false },
      { path: path.join(dir, 'd.JSONC'), explicit: false },
      { path: path.join(dir, 'folder.json', 'j.json'), explicit: false },
      { path: path.join(dir, 'sub', 'h.json'), explicit: false },
    ]);
    // localeCompare: p before Q whatever the case (a plain sort would put Q first).
    assert.deepEqual(found.parameterFiles, [path.join(dir, 'p.csv'), path.join(dir, 'Q.CSV'), path.join(dir, 'sub', 'deeper', 'i.csv')]);
    assert.deepEqual(found.problems, []);
    // The links left out are said, sorted: the two named like policy and parameter files.
    assert.deepEqual(found.notWalked.links, [path.join(dir, 'link.csv'), path.join(dir, 'link.json')]);
    assert.deepEqual(found.notWalked.tooDeep, []);
  });

  test('the links passed over: named like a policy or parameter file (dangling too) or a folder; other names not said', async () => {
    const dir = folder('discover-links');
    write(path.join(dir, 'real', 'set.json'));
    write(path.join(dir, 'README.md'), '# r');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'folder-link'));
    fs.symlinkSync(path.join(dir, 'nowhere.json'), path.join(dir, 'dangling.json'));
    fs.symlinkSync(path.join(dir, 'README.md'), path.join(dir, 'NOTES.md'));
    fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling-other'));
    write(path.join(dir, 'node_modules', 'x.json'));
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'node_modules', 'linked'));
    const found = await discover([dir]);
    assert.deepEqual(found.files, [{ path: path.join(dir, 'real', 'set.json'), explicit: false }]);
    assert.deepEqual(found.notWalked.links, [path.join(dir, 'dangling.json'), path.join(dir, 'folder-link')]);
    // A link named on the command line is followed (the user chose it).
    const named = await discover([path.join(dir, 'folder-link')]);
    assert.deepEqual(named.files, [{ path: path.join(dir, 'folder-link', 'set.json'), explicit: false }]);
  });

  test('the notes of what was passed over: counted, three named, what to do in each face, ignored paths left out', () => {
    const links = ['/r/a.json', '/r/b', '/r/c.csv', '/r/d.json', '/r/e.json'];
    assert.deepEqual(notWalkedNotes({ links: [], tooDeep: [] }, 'cli'), []);
    assert.deepEqual(notWalkedNotes({ links: links.slice(0, 1), tooDeep: ['/r/deep'] }, 'cli'), [
      "1 symbolic link in the folders walked not followed ('/r/a.json'): name a linked file on the command line to include it",
      "1 folder nested more than 64 deep not walked ('/r/deep'): name it on the command line to include its files",
    ]);
    assert.deepEqual(notWalkedNotes({ links: links.slice(0, 3), tooDeep: ['/r/x', '/r/y'] }, 'cli'), [
      "3 symbolic links in the folders walked not followed ('/r/a.json', '/r/b', '/r/c.csv'): name a linked file on the command line to include it",
      "2 folders nested more than 64 deep not walked ('/r/x', '/r/y'): name them on the command line to include their files",
    ]);
    assert.deepEqual(notWalkedNotes({ links, tooDeep: ['/r/x'] }, 'editor'), [
      "5 symbolic links in the folders walked not followed ('/r/a.json', '/r/b', '/r/c.csv' and 2 more): open a linked file to check it",
      "1 folder nested more than 64 deep not walked ('/r/x'): open a file there to check it",
    ]);
    const ignored = (file: string) => file.endsWith('.json') || file === '/r/x';
    assert.deepEqual(notWalkedNotes({ links, tooDeep: ['/r/x'] }, 'cli', ignored), [
      "2 symbolic links in the folders walked not followed ('/r/b', '/r/c.csv'): name a linked file on the command line to include it",
    ]);
  });

  test('files named are explicit whatever their name, their path normalised, and stay explicit when a folder named after them holds them', async () => {
    const dir = folder('discover-explicit');
    write(path.join(dir, 'a.json'));
    write(path.join(dir, 'notes.txt'));
    const found = await discover([path.join(dir, 'sub', '..', 'a.json'), path.join(dir, 'notes.txt'), dir]);
    assert.deepEqual(found.files, [
      { path: path.join(dir, 'a.json'), explicit: true },
      { path: path.join(dir, 'notes.txt'), explicit: true },
    ]);
    assert.deepEqual(found.problems, []);
  });

  test('the lists are sorted whatever the order the inputs came in', async () => {
    const z = folder('discover-order/z');
    const a = folder('discover-order/a');
    for (const dir of [z, a]) {
      write(path.join(dir, 'x.json'));
      write(path.join(dir, 'p.csv'));
    }
    const named = folder('discover-order/named');
    write(path.join(named, 'z.json'));
    write(path.join(named, 'm.json'));
    const found = await discover([z, path.join(named, 'z.json'), a, path.join(named, 'm.json')]);
    assert.deepEqual(found.files, [
      { path: path.join(a, 'x.json'), explicit: false },
      { path: path.join(named, 'm.json'), explicit: true },
      { path: path.join(named, 'z.json'), explicit: true },
      { path: path.join(z, 'x.json'), explicit: false },
    ]);
    assert.deepEqual(found.parameterFiles, [path.join(a, 'p.csv'), path.join(z, 'p.csv')]);
  });

  test('folders are walked 64 deep: a file 64 folders down is found, one 65 down is not', async () => {
    const dir = folder('discover-depth');
    const at64 = path.join(dir, ...Array<string>(64).fill('d'));
    write(path.join(at64, 'at64.json'));
    write(path.join(at64, 'd', 'at65.json'));
    const found = await discover([dir]);
    assert.deepEqual(found.files, [{ path: path.join(at64, 'at64.json'), explicit: false }]);
    assert.deepEqual(found.notWalked.tooDeep, [path.join(at64, 'd')], 'the folder not walked is said');
  });

  test('paths that cannot be read are problems, in the order given, and the others are still walked', async () => {
    const dir = folder('discover-problems');
    const file = write(path.join(dir, 'file.json'));
    fs.symlinkSync(path.join(dir, 'loop-b'), path.join(dir, 'loop-a'));
    fs.symlinkSync(path.join(dir, 'loop-a'), path.join(dir, 'loop-b'));
    const found = await discover([path.join(dir, 'missing'), path.join(file, 'x.json'), path.join(dir, 'loop-a'), dir]);
    assert.deepEqual(found.problems, [
      `cannot read '${path.join(dir, 'missing')}': no such file or directory`,
      `cannot read '${path.join(file, 'x.json')}': not a directory`,
      `cannot read '${path.join(dir, 'loop-a')}': too many symbolic links`,
    ]);
    assert.deepEqual(found.files, [{ path: file, explicit: false }]);
  });

  test('a path in a folder this user may not enter: permission denied', async (t) => {
    const dir = folder('discover-locked');
    const locked = folder('discover-locked/locked');
    write(path.join(locked, 'a.json'));
    fs.chmodSync(locked, 0o000);
    try {
      const expected = [`cannot read '${path.join(locked, 'a.json')}': permission denied`];
      if (permissionsEnforced(dir)) {
        assert.deepEqual((await discover([path.join(locked, 'a.json')])).problems, expected);
      } else if (process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0) {
        // Root reads through chmod 000: the same walk in a process of root's without the two capabilities that
        // override file permissions (still root, so it reads this project wherever it was cloned).
        const script = `require(${JSON.stringify(require.resolve('#server/node/files'))}).discover([process.argv[1]]).then((d) => process.stdout.write(JSON.stringify(d.problems)))`;
        const child = spawnSync(
          'setpriv',
          ['--bounding-set', '-dac_override,-dac_read_search', process.execPath, '-e', script, path.join(locked, 'a.json')],
          { encoding: 'utf8' },
        );
        assert.equal(child.status, 0, child.stderr);
        assert.deepEqual(JSON.parse(child.stdout), expected);
      } else {
        t.skip('chmod 000 denies nothing to this user, and setpriv cannot take the capabilities away: describeFsError says EACCES above');
      }
    } finally {
      fs.chmodSync(locked, 0o700);
    }
  });

  test(
    'a folder that cannot be listed while walking is a problem, and the walk goes on',
    { skip: !LINUX && 'needs Linux: PATH_MAX of 4096' },
    async () => {
      // A chain of folders with 200-character names, made relative to each (the kernel takes a path of at most
      // 4096 bytes): listing the first whose full path is longer fails with ENAMETOOLONG, even for root.
      const dir = folder('discover-long');
      write(path.join(dir, 'top.json'));
      const tooLong = foldersBeyondPathMax(dir);
      const found = await discover([dir]);
      assert.deepEqual(found.problems, [`cannot read '${tooLong}': ENAMETOOLONG: name too long, scandir '${tooLong}'`]);
      assert.deepEqual(found.files, [{ path: path.join(dir, 'top.json'), explicit: false }]);
    },
  );
});

describe('the size caps', () => {
  test('each kind of file has its cap', () => {
    assert.deepEqual(SIZE_CAPS, {
      document: 268435456,
      definitions: 268435456,
      plan: 8388608,
      usage: 16777216,
      capacityUnits: 4194304,
      config: 1048576,
    });
  });
});

/** Both readers, the synchronous one made to answer a promise. */
const READERS: { name: string; read: (file: string, kind: FileKind) => Promise<Buffer> }[] = [
  { name: 'readUserFileSync', read: async (file, kind) => readUserFileSync(file, kind) },
  { name: 'readUserFile', read: (file, kind) => readUserFile(file, kind) },
];

/** Rejects with an InputError of exactly this message (and this fsCode). */
async function refused(promise: Promise<unknown>, message: string, fsCode?: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof InputError, `an InputError, not ${String(error)}`);
    assert.equal(error.message, message);
    assert.equal(error.fsCode, fsCode);
    return true;
  });
}

for (const { name, read } of READERS) {
  describe(`${name}: a regular file only, up to its kind's cap`, () => {
    let dir: string;
    before(() => {
      dir = folder(`read-${name}`);
    });

    test('the bytes of a file, of an empty file, of a one-byte file', async () => {
      assert.deepEqual(await read(write(path.join(dir, 'a.json'), '{"a": 1}\n'), 'document'), Buffer.from('{"a": 1}\n'));
      assert.deepEqual(await read(write(path.join(dir, 'empty.json'), ''), 'document'), Buffer.alloc(0));
      assert.deepEqual(await read(write(path.join(dir, 'one.json'), '7'), 'document'), Buffer.from('7'));
    });

    test('a missing file: no such file or directory, with its code', async () => {
      const missing = path.join(dir, 'missing.json');
      await refused(read(missing, 'document'), `cannot read '${missing}': no such file or directory`, 'ENOENT');
    });

    test('a folder, a FIFO, a character device are refused without reading', async (t) => {
      await refused(read(dir, 'document'), `cannot read '${dir}': a folder, not a regular file`);
      if (fs.statSync('/dev/zero', { throwIfNoEntry: false })?.isCharacterDevice())
        await refused(read('/dev/zero', 'document'), "cannot read '/dev/zero': a device, not a regular file");
      else t.diagnostic('no /dev/zero character device here: the device case is not run');
      if (!HAS_MKFIFO) {
        t.diagnostic('no mkfifo (not POSIX): the FIFO case is not run');
        return;
      }
      // Opened without O_NONBLOCK the read would wait for a writer for ever.
      const fifo = mkfifo(path.join(dir, `fifo-${name}.json`));
      await refused(read(fifo, 'document'), `cannot read '${fifo}': a pipe (FIFO), not a regular file`);
    });

    test('a block device is refused too', async (t) => {
      const device = ['/dev/loop0', '/dev/sda', '/dev/vda', '/dev/nvme0n1'].find((file) => {
        try {
          if (!fs.statSync(file).isBlockDevice()) return false;
          fs.closeSync(fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
          return true;
        } catch {
          return false;
        }
      });
      if (!device) {
        t.skip('no block device this user may open (they are root’s)');
        return;
      }
      await refused(read(device, 'document'), `cannot read '${device}': a device, not a regular file`);
    });

    test(
      'a Unix socket cannot even be opened: the system’s own words, with its code',
      { skip: !POSIX && 'needs POSIX sockets' },
      async () => {
        const socket = path.join(dir, `s-${name}.sock`);
        const server = net.createServer();
        await new Promise<void>((resolve) => server.listen(socket, resolve));
        try {
          await refused(read(socket, 'document'), `cannot read '${socket}': ENXIO: no such device or address, open '${socket}'`, 'ENXIO');
        } finally {
          await new Promise((resolve) => server.close(resolve));
        }
      },
    );

    test('a read that fails midway: the system’s words, as an InputError without a code', { skip: !LINUX && 'needs /proc' }, async () => {
      // /proc/self/mem says it is an empty regular file, and reading its first page (unmapped) fails.
      await refused(read('/proc/self/mem', 'document'), "cannot read '/proc/self/mem': EIO: i/o error, read");
    });

    test('a file of exactly the cap is read whole; one byte more is refused, before reading', async () => {
      const exact = write(path.join(dir, 'exact.json'), Buffer.alloc(MiB, 'a'));
      try {
        const bytes = await read(exact, 'config');
        assert.equal(bytes.length, 1048576);
        assert.equal(bytes.toString('latin1'), 'a'.repeat(1048576));
      } finally {
        removeLarge(exact);
      }
      const over = sparse(path.join(dir, 'over.json'), MiB + 1);
      await refused(read(over, 'config'), `'${over}' is too large to read (1 MiB; configuration files are read up to 1 MiB)`);
    });

    test('each kind: one byte over its cap is refused, with its cap and its name in the message', async () => {
      const expected: Record<FileKind, string> = {
        document: '256 MiB; policy documents are read up to 256 MiB',
        definitions: '256 MiB; definition files are read up to 256 MiB',
        plan: '8 MiB; deployment plans are read up to 8 MiB',
        usage: '16 MiB; saved usage files are read up to 16 MiB',
        capacityUnits: '4 MiB; capacity-unit files are read up to 4 MiB',
        config: '1 MiB; configuration files are read up to 1 MiB',
      };
      const caps: Record<FileKind, number> = { document: 256, definitions: 256, plan: 8, usage: 16, capacityUnits: 4, config: 1 };
      for (const kind of Object.keys(expected) as FileKind[]) {
        const file = sparse(path.join(dir, `${kind}-over.json`), caps[kind] * MiB + 1);
        await refused(read(file, kind), `'${file}' is too large to read (${expected[kind]})`);
      }
    });

    test('sizes are said in MiB to one decimal, rounded', async () => {
      // 8.26 MiB is 8.3 (rounded up), 8.24 MiB is 8.2 (rounded down); 10 MiB has no decimal.
      const up = sparse(path.join(dir, 'plan-up.json'), 8 * MiB + 272630);
      await refused(read(up, 'plan'), `'${up}' is too large to read (8.3 MiB; deployment plans are read up to 8 MiB)`);
      const down = sparse(path.join(dir, 'plan-down.json'), 8 * MiB + 251658);
      await refused(read(down, 'plan'), `'${down}' is too large to read (8.2 MiB; deployment plans are read up to 8 MiB)`);
      const whole = sparse(path.join(dir, 'plan-whole.json'), 10 * MiB);
      await refused(read(whole, 'plan'), `'${whole}' is too large to read (10 MiB; deployment plans are read up to 8 MiB)`);
    });

    test(
      'a file that says it is empty and is not (it grows while read) is read whole, in a buffer its size',
      { skip: !LINUX && 'needs /proc' },
      async () => {
        // /proc/self/cmdline: size 0 by fstat, a few hundred bytes when read. Node's own reader is the oracle.
        const bytes = await read('/proc/self/cmdline', 'config');
        const expected = fs.readFileSync('/proc/self/cmdline');
        assert.ok(expected.length > 16, 'the command line is long enough to grow the buffer several times');
        assert.deepEqual(bytes, expected);
        assert.ok(bytes.buffer.byteLength < 64 * 1024, `a buffer of ${bytes.buffer.byteLength} bytes for ${bytes.length}: not the cap`);
      },
    );

    test(
      'a file that grows past the cap while read is refused at one byte over it',
      { skip: !fs.existsSync('/proc/kallsyms') && 'needs /proc/kallsyms' },
      async () => {
        // /proc/kallsyms: size 0 by fstat, megabytes when read (the kernel's symbols, one a line).
        await refused(
          read('/proc/kallsyms', 'config'),
          "'/proc/kallsyms' is too large to read (more than 1 MiB; configuration files are read up to 1 MiB)",
        );
      },
    );

    test('a small file is read into a buffer its size, not the cap', async () => {
      const bytes = await read(write(path.join(dir, 'small.json'), '{}'), 'document');
      assert.ok(bytes.buffer.byteLength < 64 * 1024, `a buffer of ${bytes.buffer.byteLength} bytes`);
    });

    test('a file is read into one buffer of its size and one byte more (the byte that would show it grew)', async () => {
      // One byte under the cap: the buffer is the cap exactly, allocated once (not grown to the cap and one).
      const under = write(path.join(dir, 'under.json'), Buffer.alloc(MiB - 1, 'u'));
      try {
        const bytes = await read(under, 'config');
        assert.equal(bytes.length, 1048575);
        assert.equal(bytes.buffer.byteLength, 1048576);
      } finally {
        removeLarge(under);
      }
    });

    test('no file is left open, whether the read succeeds or is refused', { skip: !LINUX && 'counts /proc/self/fd' }, async () => {
      const file = write(path.join(dir, 'fd.json'), '{}');
      const before = openFds();
      await read(file, 'document');
      await refused(read(dir, 'document'), `cannot read '${dir}': a folder, not a regular file`);
      await refused(
        read(sparse(path.join(dir, 'fd-over.json'), MiB + 1), 'config'),
        `'${path.join(dir, 'fd-over.json')}' is too large to read (1 MiB; configuration files are read up to 1 MiB)`,
      );
      assert.equal(openFds(), before);
    });
  });
}

describe('readBytes and FileReader', () => {
  test('readBytes reads a policy document', async () => {
    const file = write(path.join(folder('read-bytes'), 'a.json'), '[1]');
    assert.deepEqual(await readBytes(file), Buffer.from('[1]'));
  });

  test('FileReader reuses one buffer: each read is a view of it, a larger file grows it, and the grown buffer is kept', () => {
    const dir = folder('file-reader');
    const first = write(path.join(dir, 'first.json'), 'first file');
    const second = write(path.join(dir, 'second.json'), 'second');
    const large = write(path.join(dir, 'large.json'), Buffer.alloc(1572864, 'b'));
    try {
      const reader = new FileReader();
      const a = reader.read(first);
      assert.equal(a.toString(), 'first file');
      const b = reader.read(second);
      assert.equal(b.toString(), 'second');
      assert.equal(b.buffer, a.buffer, 'the same memory');
      assert.equal(a.subarray(0, 6).toString(), 'second', 'the earlier view now shows the later read');
      const c = reader.read(large);
      assert.equal(c.length, 1572864);
      assert.equal(c.toString('latin1'), 'b'.repeat(1572864));
      assert.notEqual(c.buffer, a.buffer, 'grown past 1 MiB');
      const d = reader.read(large);
      assert.equal(d.length, 1572864);
      assert.equal(d.buffer, c.buffer, 'the same file again: the grown buffer is big enough');
      const e = reader.read(first);
      assert.equal(e.toString(), 'first file');
      assert.equal(e.buffer, c.buffer);
      assert.throws(
        () => reader.read(path.join(dir, 'missing.json')),
        (error: unknown) =>
          error instanceof InputError && error.message === `cannot read '${path.join(dir, 'missing.json')}': no such file or directory`,
      );
    } finally {
      removeLarge(large);
    }
  });
});

describe('refuseInputs: -o is never one of the inputs, nor a folder', () => {
  let dir: string;
  let input: string;
  const refusal = (target: string, named: string) => (error: unknown) => {
    assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
    assert.equal(
      error.message,
      `-o '${target}' is one of the inputs ('${named}'): the report would replace it; write the report elsewhere`,
    );
    return true;
  };
  before(() => {
    dir = folder('refuse');
    input = write(path.join(dir, 'in.json'), 'input');
  });

  test('the same path, or another spelling of it', () => {
    assert.throws(() => refuseInputs(input, [input]), refusal(input, input));
    assert.throws(() => refuseInputs(`${dir}/sub/../in.json`, [input]), refusal(`${dir}/sub/../in.json`, input));
    assert.throws(() => refuseInputs(`${dir}/./in.json`, [input]), refusal(`${dir}/./in.json`, input));
  });

  test('an input that is not there is still refused by its path', () => {
    const gone = path.join(dir, 'gone.json');
    assert.throws(() => refuseInputs(gone, [path.join(dir, 'other.json'), gone]), refusal(gone, gone));
  });

  test('a hard link to an input, and the input reached through a linked folder', () => {
    const hard = path.join(dir, 'hard.json');
    fs.linkSync(input, hard);
    assert.throws(() => refuseInputs(hard, [input]), refusal(hard, input));
    const linkedFolder = path.join(dir, 'linked-folder');
    fs.symlinkSync(dir, linkedFolder);
    assert.throws(() => refuseInputs(path.join(linkedFolder, 'in.json'), [input]), refusal(path.join(linkedFolder, 'in.json'), input));
  });

  test('a symbolic link at the target pointing to an input, and a link named like an input', () => {
    const link = path.join(dir, 'link-to-input.json');
    fs.symlinkSync(input, link);
    assert.throws(() => refuseInputs(link, [input]), refusal(link, input));
    assert.throws(() => refuseInputs(link, [link]), refusal(link, link));
  });

  test('a folder is refused as a target', () => {
    const target = folder('refuse/folder');
    assert.throws(
      () => refuseInputs(target, []),
      (error: unknown) => error instanceof InputError && error.message === `cannot write '${target}': it is a folder`,
    );
  });

  test('anything else is allowed, and its lstat returned: nothing there, another file, a dangling link, inputs that are not there', () => {
    assert.equal(refuseInputs(path.join(dir, 'new.json'), [input]), undefined);
    const other = write(path.join(dir, 'other-file.json'), 'twelve bytes');
    const stat = refuseInputs(other, [input, path.join(dir, 'no-such-input.json')]);
    assert.equal(stat?.isFile(), true);
    assert.equal(stat?.size, 12);
    const dangling = path.join(dir, 'dangling.json');
    fs.symlinkSync(path.join(dir, 'nowhere.json'), dangling);
    assert.equal(refuseInputs(dangling, [input, path.join(dir, 'nowhere-input.json')])?.isSymbolicLink(), true);
  });

  test('files are the same only on the same device: the inode alone is not enough', { skip: !LINUX && 'needs /proc and /sys' }, (t) => {
    // /proc and /sys are the roots of two file systems, and both are inode 1.
    const procStat = fs.statSync('/proc');
    const sysStat = fs.statSync('/sys');
    if (procStat.ino !== sysStat.ino || procStat.dev === sysStat.dev) {
      t.skip('/proc and /sys do not share an inode number here');
      return;
    }
    const link = path.join(dir, 'sys-link');
    fs.symlinkSync('/sys', link);
    assert.equal(refuseInputs(link, ['/proc'])?.isSymbolicLink(), true);
  });
});

describe('writeOutputFile and writeAtomically: through a temporary file, renamed; links replaced, not followed', () => {
  let umask: number;
  before(() => {
    umask = process.umask(0o022);
  });
  after(() => {
    process.umask(umask);
  });

  const mode = (file: string) => fs.statSync(file).mode & 0o777;

  test('a new file: its text, the mode the umask allows, and no temporary file left', () => {
    const sub = folder('write/new');
    const input = write(path.join(sub, 'in.json'), 'input');
    writeOutputFile(path.join(sub, 'report.txt'), 'report\n', [input]);
    assert.equal(fs.readFileSync(path.join(sub, 'report.txt'), 'utf8'), 'report\n');
    assert.equal(mode(path.join(sub, 'report.txt')), 0o644);
    assert.deepEqual(fs.readdirSync(sub).sort(), ['in.json', 'report.txt']);
  });

  test('the default inputs: none', () => {
    const sub = folder('write/default');
    writeOutputFile(path.join(sub, 'report.txt'), 'text');
    assert.equal(fs.readFileSync(path.join(sub, 'report.txt'), 'utf8'), 'text');
  });

  test('an input as the target is refused, and the input is left as it was', () => {
    const sub = folder('write/refused');
    const input = write(path.join(sub, 'in.json'), 'input');
    assert.throws(() => writeOutputFile(input, 'report', [input]), UsageError);
    assert.equal(fs.readFileSync(input, 'utf8'), 'input');
    assert.deepEqual(fs.readdirSync(sub), ['in.json']);
  });

  test('over a file: its permission bits kept, as the umask allows; exactly with keepMode', () => {
    const sub = folder('write/modes');
    const restricted = write(path.join(sub, 'restricted.txt'), 'old');
    fs.chmodSync(restricted, 0o640);
    writeOutputFile(restricted, 'new');
    assert.equal(fs.readFileSync(restricted, 'utf8'), 'new');
    assert.equal(mode(restricted), 0o640);

    const open = write(path.join(sub, 'open.txt'), 'old');
    fs.chmodSync(open, 0o666);
    writeOutputFile(open, 'report');
    assert.equal(mode(open), 0o644, 'a report: the umask applies');

    const fixed = write(path.join(sub, 'fixed.json'), 'old');
    fs.chmodSync(fixed, 0o666);
    writeAtomically(fixed, Buffer.from('fixed'), fs.lstatSync(fixed), true);
    assert.equal(fs.readFileSync(fixed, 'utf8'), 'fixed');
    assert.equal(mode(fixed), 0o666, 'a file fixed in place keeps its bits exactly');

    writeAtomically(path.join(sub, 'fresh.json'), 'fresh', undefined, true);
    assert.equal(mode(path.join(sub, 'fresh.json')), 0o644, 'keepMode with nothing there: as the umask allows');
    assert.deepEqual(fs.readdirSync(sub).sort(), ['fixed.json', 'fresh.json', 'open.txt', 'restricted.txt']);
  });

  test('a symbolic link at the target is replaced by the file; the file it pointed to is left as it was', () => {
    const sub = folder('write/link');
    const outside = write(path.join(folder('write/outside'), 'kept.txt'), 'outside');
    fs.chmodSync(outside, 0o600);
    const link = path.join(sub, 'report.txt');
    fs.symlinkSync(outside, link);
    writeOutputFile(link, 'report');
    assert.equal(fs.lstatSync(link).isFile(), true);
    assert.equal(fs.readFileSync(link, 'utf8'), 'report');
    assert.equal(mode(link), 0o644, 'not the bits of the file the link pointed to');
    assert.equal(fs.readFileSync(outside, 'utf8'), 'outside');
    assert.deepEqual(fs.readdirSync(sub), ['report.txt']);
  });

  test('a failed write says the code and leaves no temporary file', () => {
    const sub = folder('write/fails');
    const target = folder('write/fails/full-folder');
    write(path.join(target, 'inside.txt'), 'x');
    // Renaming a file over a folder that is not empty fails once the temporary file is written.
    assert.throws(
      () => writeAtomically(target, 'report', undefined),
      (error: unknown) => error instanceof InputError && error.message === `cannot write '${target}': EISDIR`,
    );
    assert.deepEqual(fs.readdirSync(sub), ['full-folder']);
    const nowhere = path.join(sub, 'missing', 'report.txt');
    assert.throws(
      () => writeOutputFile(nowhere, 'report'),
      (error: unknown) => error instanceof InputError && error.message === `cannot write '${nowhere}': ENOENT`,
    );
  });

  test('a target whose name is as long as a name can be: the temporary name is cut, not refused (ENAMETOOLONG)', () => {
    const sub = folder('write/long-names');
    // 255 bytes: the longest name ext4, XFS and tmpfs take; the temporary name was '.<name>.<pid>.<hex>.tmp'.
    for (const name of ['a'.repeat(251) + '.txt', 'é'.repeat(125) + '.txt']) {
      const target = path.join(sub, name);
      writeOutputFile(target, 'report');
      assert.equal(fs.readFileSync(target, 'utf8'), 'report', `${Buffer.byteLength(name)} bytes`);
      writeOutputFile(target, 'again');
      assert.equal(fs.readFileSync(target, 'utf8'), 'again');
    }
    assert.equal(fs.readdirSync(sub).length, 2, 'no temporary file left');
  });
});

describe('writeOutputFile: a device, a FIFO or a socket at the target', () => {
  /** A device node made here (needs root, or CAP_MKNOD): never one of the system's, which a regression would replace. */
  function mknod(file: string, kind: 'c' | 'b', major: number, minor: number): boolean {
    return POSIX && spawnSync('mknod', [file, kind, String(major), String(minor)]).status === 0;
  }

  test('a character device is written into, and stays a device', (t) => {
    const sub = folder('devices/char');
    const device = path.join(sub, 'null');
    if (!mknod(device, 'c', 1, 3)) {
      t.skip('mknod is not permitted here (not root): no device of our own to write to');
      return;
    }
    writeOutputFile(device, 'report\n', [write(path.join(sub, 'in.json'), 'input')]);
    assert.equal(fs.lstatSync(device).isCharacterDevice(), true);
    assert.deepEqual(fs.readdirSync(sub).sort(), ['in.json', 'null'], 'no temporary file');
  });

  // Writing to standard output itself is tested through the CLI (test/cli/hostile32): here it would mix the
  // report into the test runner's own output. What is refused writes nothing, so it is tested here.
  test("the process's other descriptors are refused; paths that only look like them are files", { skip: !POSIX && 'POSIX paths' }, () => {
    const refusedAsDescriptor = (target: string) => (error: unknown) =>
      error instanceof InputError &&
      error.message === `cannot write '${target}': of this process's descriptors only standard output and standard error take a report`;
    for (const target of ['/dev/stdin', '/dev/fd/0', '/dev/fd/3', '/proc/self/fd/12', '/dev/fd/../fd/4'])
      assert.throws(() => writeOutputFile(target, 'report'), refusedAsDescriptor(target), target);
    // Under another folder, or another name, it is an ordinary output file.
    const sub = folder('descriptors/lookalikes');
    for (const name of ['dev/stdout', 'dev/fd/3', 'proc/self/fd/1']) {
      const target = path.join(sub, name);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      writeOutputFile(target, 'report');
      assert.equal(fs.readFileSync(target, 'utf8'), 'report', name);
    }
    for (const target of ['/dev/fd/1x', '/proc/self/fd/2x']) {
      assert.throws(
        () => writeOutputFile(target, 'report'),
        (error: unknown) => error instanceof InputError && !/descriptors/.test(error.message),
        target,
      );
      assert.equal(fs.existsSync(target), false, target);
    }
  });

  test('a device that cannot be opened: the code', (t) => {
    const device = path.join(folder('devices/dead'), 'nothing');
    // Major 240 is kept for local use: no driver answers it here.
    if (!mknod(device, 'c', 240, 0)) {
      t.skip('mknod is not permitted here (not root)');
      return;
    }
    assert.throws(
      () => writeOutputFile(device, 'report'),
      (error: unknown) => error instanceof InputError && error.message === `cannot write '${device}': ENXIO`,
    );
    assert.equal(fs.lstatSync(device).isCharacterDevice(), true);
  });

  test('a FIFO is written into: the program reading it gets the report', { skip: !HAS_MKFIFO && 'no mkfifo (not POSIX)' }, async () => {
    const fifo = mkfifo(path.join(folder('devices/fifo'), 'report.pipe'));
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
    const ended = new Promise((resolve) => reader.on('close', resolve));
    try {
      // Opening waits for the reader to open its end, as a shell's `>` does.
      writeOutputFile(fifo, 'report\n');
      assert.equal(fs.lstatSync(fifo).isFIFO(), true);
      // A FIFO replaced by a file would leave cat waiting for a writer: 10 s is the bound.
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([ended.then(() => false), new Promise((resolve) => (timer = setTimeout(resolve, 10_000, true)))]);
      clearTimeout(timer);
      assert.equal(timedOut, false, 'cat did not end');
      assert.equal(read, 'report\n');
    } finally {
      reader.kill();
    }
  });

  test(
    'a FIFO swapped for a file or a link after it was looked at is not written through',
    { skip: !HAS_MKFIFO && 'no mkfifo (not POSIX)' },
    () => {
      // The swap is made inside fs.openSync, between the target's lstat and its opening: the race a
      // test cannot win otherwise.
      const sub = folder('devices/swapped');
      const swapping = (target: string, swap: () => void, body: () => void) => {
        const original = Object.getOwnPropertyDescriptor(nodeFs, 'openSync')!;
        const open = nodeFs.openSync;
        Object.defineProperty(nodeFs, 'openSync', {
          ...original,
          value: (file: fs.PathLike, ...rest: unknown[]) => {
            if (file === target) swap();
            return (open as (...args: unknown[]) => number)(file, ...rest);
          },
        });
        try {
          body();
        } finally {
          Object.defineProperty(nodeFs, 'openSync', original);
        }
      };
      const becameFile = mkfifo(path.join(sub, 'becomes-a-file.pipe'));
      swapping(
        becameFile,
        () => {
          fs.rmSync(becameFile);
          fs.writeFileSync(becameFile, 'a file now');
        },
        () =>
          assert.throws(
            () => writeOutputFile(becameFile, 'report'),
            (error: unknown) =>
              error instanceof InputError && error.message === `cannot write '${becameFile}': it is no longer a device or a FIFO`,
          ),
      );
      assert.equal(fs.readFileSync(becameFile, 'utf8'), 'a file now');
      const elsewhere = write(path.join(sub, 'elsewhere.txt'), 'kept');
      const becameLink = mkfifo(path.join(sub, 'becomes-a-link.pipe'));
      swapping(
        becameLink,
        () => {
          fs.rmSync(becameLink);
          fs.symlinkSync(elsewhere, becameLink);
        },
        () =>
          assert.throws(
            () => writeOutputFile(becameLink, 'report'),
            (error: unknown) => error instanceof InputError && error.message === `cannot write '${becameLink}': ELOOP`,
          ),
      );
      assert.equal(fs.readFileSync(elsewhere, 'utf8'), 'kept');
    },
  );

  test('a block device and a socket are refused', async (t) => {
    const sub = folder('devices/refused');
    const socket = path.join(sub, 'service.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      assert.throws(
        () => writeOutputFile(socket, 'report'),
        (error: unknown) => error instanceof InputError && error.message === `cannot write '${socket}': it is a socket`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const block = path.join(sub, 'disk');
    if (!mknod(block, 'b', 7, 200)) {
      t.diagnostic('mknod is not permitted here (not root): the block device case is not run');
      return;
    }
    assert.throws(
      () => writeOutputFile(block, 'report'),
      (error: unknown) => error instanceof InputError && error.message === `cannot write '${block}': it is a block device`,
    );
    assert.equal(fs.lstatSync(block).isBlockDevice(), true);
  });
});

describe('isGlobPattern and expandGlob', () => {
  test('patterns, and paths that only hold a character patterns use', () => {
    for (const pattern of [
      'sets/*.json',
      'a?.json',
      '[ab].json',
      '{a,b}.json',
      '(a|b).json',
      '!(a).json',
      '+(a).json',
      '@(a).json',
      'sets/**',
    ])
      assert.equal(isGlobPattern(pattern), true, pattern);
    for (const plain of ['a.json', 'sets/a.json', 'a+b.json', 'a@b.json', 'a!b.json', '!a.json', 'a].json', 'a}.json', 'a).json'])
      assert.equal(isGlobPattern(plain), false, plain);
  });

  let dir: string;
  before(() => {
    dir = folder('glob');
    // sub.json sorts before sub/d.json ('.' before '/'), though the walk meets sub/ first.
    const names = [
      'b.json',
      'a.json',
      'C.json',
      '.hidden.json',
      'x.txt',
      'folder.json/inner.json',
      'sub.json',
      'sub/d.json',
      'sub/.dot/e.json',
      'v1./f.json',
    ];
    for (const name of names) write(path.join(dir, name));
    for (const skipped of ['node_modules', '.git', '.hg', '.svn']) write(path.join(dir, skipped, 'n.json'));
    fs.symlinkSync(path.join(dir, 'a.json'), path.join(dir, 'link.json'));
  });

  test('the files a pattern matches under its static base, sorted by code unit; dot files and skipped folders left out', () => {
    assert.deepEqual(expandGlob(`${dir}/*.json`), [`${dir}/C.json`, `${dir}/a.json`, `${dir}/b.json`, `${dir}/sub.json`]);
    assert.deepEqual(expandGlob(`${dir}/**/*.json`), [
      `${dir}/C.json`,
      `${dir}/a.json`,
      `${dir}/b.json`,
      `${dir}/folder.json/inner.json`,
      `${dir}/sub.json`,
      `${dir}/sub/d.json`,
      `${dir}/v1./f.json`,
    ]);
    assert.deepEqual(expandGlob(`${dir}/v1./*.json`), [`${dir}/v1./f.json`]);
    assert.deepEqual(expandGlob(`${dir}/sub/*`), [`${dir}/sub/d.json`]);
  });

  test('dot files when the pattern names them; a skipped folder when it is the base', () => {
    assert.deepEqual(expandGlob(`${dir}/.*.json`), [`${dir}/.hidden.json`]);
    assert.deepEqual(expandGlob(`${dir}/**/.dot/*.json`), [`${dir}/sub/.dot/e.json`]);
    assert.deepEqual(expandGlob(`${dir}/node_modules/*.json`), [`${dir}/node_modules/n.json`]);
  });

  test('backslashes are separators', { skip: !POSIX && 'a POSIX path' }, () => {
    assert.deepEqual(expandGlob(`${dir}\\sub\\*.json`), [`${dir}/sub/d.json`]);
  });

  test('a relative pattern, with or without ./, is matched under the current folder', () => {
    const saved = process.cwd();
    try {
      process.chdir(dir);
      assert.deepEqual(expandGlob('*.json'), ['C.json', 'a.json', 'b.json', 'sub.json']);
      assert.deepEqual(expandGlob('./*.json'), ['C.json', 'a.json', 'b.json', 'sub.json']);
      assert.deepEqual(expandGlob('sub/*.json'), ['sub/d.json']);
      assert.deepEqual(expandGlob('v1./*.json'), ['v1./f.json']);
    } finally {
      process.chdir(saved);
    }
  });

  test('a folder spelled otherwise (a doubled slash, `.`, `..`) matches the files it names, spelled as a walk spells them', () => {
    assert.deepEqual(expandGlob(`${dir}//sub/*.json`), [`${dir}/sub/d.json`]);
    assert.deepEqual(expandGlob(`${dir}/sub//*.json`), [`${dir}/sub/d.json`]);
    assert.deepEqual(expandGlob(`${dir}/sub/./*.json`), [`${dir}/sub/d.json`]);
    assert.deepEqual(expandGlob(`${dir}/folder.json/../sub/*.json`), [`${dir}/sub/d.json`]);
    const saved = process.cwd();
    try {
      process.chdir(path.join(dir, 'sub'));
      assert.deepEqual(expandGlob('.//*.json'), ['d.json']);
      assert.deepEqual(expandGlob('../sub/*.json'), ['../sub/d.json']);
      assert.deepEqual(expandGlob('..//sub/*.json'), ['../sub/d.json']);
    } finally {
      process.chdir(saved);
    }
  });

  test('a negated pattern: the files under its base that it does not match', () => {
    assert.deepEqual(expandGlob(`!${dir}/sub/*.json`), [`${dir}/sub/.dot/e.json`]);
    const saved = process.cwd();
    try {
      process.chdir(dir);
      assert.deepEqual(expandGlob('!./sub/*.json'), ['sub/.dot/e.json']);
      assert.deepEqual(expandGlob('!sub/*.json'), ['sub/.dot/e.json']);
    } finally {
      process.chdir(saved);
    }
  });

  test('a base folder that is not there matches nothing', () => {
    assert.deepEqual(expandGlob(`${dir}/missing/*.json`), []);
  });

  test('folders are walked 64 deep', () => {
    const deep = folder('glob-depth');
    const at64 = path.join(deep, ...Array<string>(64).fill('d'));
    write(path.join(at64, 'at64.json'));
    write(path.join(at64, 'd', 'at65.json'));
    assert.deepEqual(expandGlob(`${deep}/**/*.json`), [`${at64}/at64.json`]);
  });

  test('a pattern the engine refuses is a usage error, quoted up to 60 characters', () => {
    const usage = (pattern: string, message: string) =>
      assert.throws(
        () => expandGlob(pattern),
        (error: unknown) => error instanceof UsageError && error.message === message,
      );
    const unsupported = "the extended glob '+(...)' is not supported: use *, ?, [...], ** and {a,b}";
    usage('+(a).json', `the pattern '+(a).json': ${unsupported}`);
    const sixty = `${'x'.repeat(51)}+(a).json`;
    assert.equal(sixty.length, 60);
    usage(sixty, `the pattern '${sixty}': ${unsupported}`);
    usage(`${'x'.repeat(52)}+(a).json`, `the pattern '${'x'.repeat(52)}+(a).jso…': ${unsupported}`);
    usage(`*${'a'.repeat(65536)}`, `the pattern '*${'a'.repeat(59)}…': the pattern is longer than 64 KB`);
    usage(`${'{a,'.repeat(20000)}*`, `the pattern '${'{a,'.repeat(20)}…': the pattern's brace groups nest more than 32 deep`);
  });
});

describe('endQuietlyOnClosedPipes', () => {
  class FakeStream extends EventEmitter {
    destroyed = false;
    readonly written: string[] = [];
    destroy(): this {
      this.destroyed = true;
      return this;
    }
    write(text: string): boolean {
      this.written.push(text);
      return true;
    }
  }
  const asStream = (fake: FakeStream) => fake as unknown as NodeJS.WriteStream;

  /** Runs `body` with fakes for process.stdout and process.stderr and process.exitCode unset; restores all three. */
  function withFakes(body: (out: FakeStream, err: FakeStream) => void): void {
    const descriptors = {
      stdout: Object.getOwnPropertyDescriptor(process, 'stdout')!,
      stderr: Object.getOwnPropertyDescriptor(process, 'stderr')!,
    };
    const exitCode = process.exitCode;
    const out = new FakeStream();
    const err = new FakeStream();
    try {
      Object.defineProperty(process, 'stdout', { value: asStream(out), configurable: true });
      Object.defineProperty(process, 'stderr', { value: asStream(err), configurable: true });
      process.exitCode = undefined;
      body(out, err);
    } finally {
      Object.defineProperty(process, 'stdout', descriptors.stdout);
      Object.defineProperty(process, 'stderr', descriptors.stderr);
      process.exitCode = exitCode;
    }
  }

  const failure = (code: string | undefined, message: string) => errorWith(code, message);

  test('the reader gone (EPIPE, ECONNRESET, a write after the drop): the stream dropped, nothing said, the status untouched', () => {
    for (const code of ['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED'])
      withFakes((out, err) => {
        endQuietlyOnClosedPipes([asStream(out)]);
        out.emit('error', failure(code, `write ${code}`));
        assert.equal(out.destroyed, true, code);
        assert.equal(process.exitCode, undefined, code);
        assert.deepEqual(err.written, [], code);
      });
  });

  test('another failure: the stream dropped, said once on standard error, status 2', () => {
    withFakes((out, err) => {
      endQuietlyOnClosedPipes([asStream(out)]);
      endQuietlyOnClosedPipes([asStream(out)]);
      assert.equal(out.listenerCount('error'), 1, 'guarded once');
      out.emit('error', failure('ENOSPC', 'ENOSPC: no space left on device, write'));
      assert.equal(out.destroyed, true);
      assert.equal(process.exitCode, 2);
      assert.deepEqual(err.written, ['policyset: cannot write the output: ENOSPC: no space left on device, write\n']);
    });
    withFakes((out, err) => {
      endQuietlyOnClosedPipes([asStream(out)]);
      out.emit('error', failure(undefined, 'no code'));
      assert.equal(process.exitCode, 2);
      assert.deepEqual(err.written, ['policyset: cannot write the output: no code\n']);
    });
  });

  test('nothing is said on standard error when it is the stream that failed, or when it is gone', () => {
    withFakes((_out, err) => {
      endQuietlyOnClosedPipes([asStream(err)]);
      err.emit('error', failure('ENOSPC', 'ENOSPC: no space left on device, write'));
      assert.equal(err.destroyed, true);
      assert.equal(process.exitCode, 2);
      assert.deepEqual(err.written, []);
    });
    withFakes((out, err) => {
      endQuietlyOnClosedPipes([asStream(out)]);
      err.destroyed = true;
      out.emit('error', failure('ENOSPC', 'ENOSPC: no space left on device, write'));
      assert.equal(process.exitCode, 2);
      assert.deepEqual(err.written, []);
    });
  });

  test('by default both standard output and standard error are guarded', () => {
    withFakes((out, err) => {
      endQuietlyOnClosedPipes();
      assert.equal(out.listenerCount('error'), 1);
      assert.equal(err.listenerCount('error'), 1);
    });
  });
});

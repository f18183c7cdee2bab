import { promises as fs, openSync, fstatSync, readSync, closeSync } from 'node:fs';
import * as path from 'node:path';

export class UsageError extends Error {}
export class InputError extends Error {}

const IGNORED_DIRECTORIES = new Set(['node_modules', '.git', '.hg', '.svn']);
export const POLICY_FILE = /\.jsonc?$/i;

export interface InputFile {
  path: string;
  /** Named on the command line: reported even when its content is not recognised. */
  explicit: boolean;
}

export interface Discovery {
  files: InputFile[];
  /** Paths that could not be read: the run ends with exit code 2. */
  problems: string[];
}

function describeFsError(error: unknown, target: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' ? 'not a directory' : code === 'ELOOP' ? 'too many symbolic links' : (error as Error).message;
  return `cannot read '${target}': ${reason}`;
}

/** Expands files and folders into the JSON files to lint, sorted; folders are walked for .json and .jsonc files. */
export async function discover(inputs: string[]): Promise<Discovery> {
  const files = new Map<string, InputFile>();
  const problems: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      problems.push(describeFsError(error, dir));
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!IGNORED_DIRECTORIES.has(entry.name) && depth < 64) await walk(full, depth + 1);
      } else if (entry.isFile() && POLICY_FILE.test(entry.name) && !files.has(full)) {
        files.set(full, { path: full, explicit: false });
      }
    }
  };
  for (const input of inputs) {
    let stat;
    try {
      stat = await fs.stat(input);
    } catch (error) {
      problems.push(describeFsError(error, input));
      continue;
    }
    if (stat.isDirectory()) await walk(input, 0);
    else files.set(path.normalize(input), { path: path.normalize(input), explicit: true });
  }
  return { files: [...files.values()].sort((a, b) => a.path.localeCompare(b.path)), problems };
}

export async function readBytes(file: string): Promise<Uint8Array> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    throw new InputError(describeFsError(error, file));
  }
}

/**
 * Reads files one at a time into one buffer that is reused: a view of the bytes read last, valid until
 * the next read. The CLI reads each file twice (to find definitions, then to lint it) instead of keeping
 * every file's bytes: fresh memory is costly on these machines (about 3 ms per MB for its first touch;
 * the corpus is 21 MB), and reading again from the page cache costs less.
 */
export class FileReader {
  private scratch = Buffer.allocUnsafeSlow(1 << 20);

  /** The bytes of `file` (a view of the shared buffer), or an InputError. */
  read(file: string): Buffer {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (error) {
      throw new InputError(describeFsError(error, file));
    }
    try {
      let size = fstatSync(fd).size;
      let length = 0;
      for (;;) {
        if (length >= this.scratch.length || size > this.scratch.length) {
          const larger = Buffer.allocUnsafeSlow(Math.max(size + 1, this.scratch.length * 2));
          this.scratch.copy(larger, 0, 0, length);
          this.scratch = larger;
        }
        const n = readSync(fd, this.scratch, length, this.scratch.length - length, null);
        if (n === 0) break;
        length += n;
        if (length > size) size = length;
      }
      return this.scratch.subarray(0, length);
    } catch (error) {
      throw new InputError(describeFsError(error, file));
    } finally {
      closeSync(fd);
    }
  }
}

export { describeFsError };

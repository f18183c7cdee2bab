import { promises as fs, constants as fsConstants, openSync, fstatSync, readSync, closeSync, type Stats } from 'node:fs';
import * as path from 'node:path';

export class UsageError extends Error {}
export class InputError extends Error {
  /** `fsCode`: the file system's code when a read failed there ('ENOENT': the file is not there), for callers that act on why. */
  constructor(
    message: string,
    readonly fsCode?: string,
  ) {
    super(message);
  }
}

const IGNORED_DIRECTORIES = new Set(['node_modules', '.git', '.hg', '.svn']);
export const POLICY_FILE = /\.jsonc?$/i;
/** The policy-as-code framework's CSV parameter files: checked only when an assignment file linted names one. */
export const PARAMETER_FILE = /\.csv$/i;

export interface InputFile {
  path: string;
  /** Named on the command line: reported even when its content is not recognised. */
  explicit: boolean;
}

export interface Discovery {
  files: InputFile[];
  /** The .csv files found in the folders walked (parameter files, when an assignment names them). */
  parameterFiles: string[];
  /** Paths that could not be read: the run ends with exit code 2. */
  problems: string[];
  /**
   * What the walk of the folders passed over, to be said: symbolic links (never followed inside a folder: a
   * cloned repository's link to `/` would walk the disk; a link named on the command line is read) and
   * folders nested more than 64 deep.
   */
  notWalked: { links: string[]; tooDeep: string[] };
}

function describeFsError(error: unknown, target: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ENOTDIR'
          ? 'not a directory'
          : code === 'ELOOP'
            ? 'too many symbolic links'
            : (error as Error).message;
  return `cannot read '${target}': ${reason}`;
}

async function isFolder(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isDirectory();
  } catch {
    return false;
  }
}

/** How deep the walk of a folder goes: folders below are said, not walked. */
export const MAX_WALK_DEPTH = 64;

/** Expands files and folders into the JSON files to lint, sorted; folders are walked for .json and .jsonc files. */
export async function discover(inputs: string[]): Promise<Discovery> {
  const files = new Map<string, InputFile>();
  const parameterFiles = new Set<string>();
  const problems: string[] = [];
  const notWalked = { links: [] as string[], tooDeep: [] as string[] };
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
        if (IGNORED_DIRECTORIES.has(entry.name)) continue;
        if (depth < MAX_WALK_DEPTH) await walk(full, depth + 1);
        else notWalked.tooDeep.push(full);
      } else if (entry.isSymbolicLink()) {
        // Said when it would have been walked or linted: named like a policy or parameter file, or a folder.
        if (POLICY_FILE.test(entry.name) || PARAMETER_FILE.test(entry.name) || (await isFolder(full))) notWalked.links.push(full);
      } else if (entry.isFile() && POLICY_FILE.test(entry.name) && !files.has(full)) {
        files.set(full, { path: full, explicit: false });
      } else if (entry.isFile() && PARAMETER_FILE.test(entry.name)) {
        parameterFiles.add(full);
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
  return {
    files: [...files.values()].sort((a, b) => a.path.localeCompare(b.path)),
    parameterFiles: [...parameterFiles].sort((a, b) => a.localeCompare(b)),
    problems,
    notWalked: { links: notWalked.links.sort((a, b) => a.localeCompare(b)), tooDeep: notWalked.tooDeep.sort((a, b) => a.localeCompare(b)) },
  };
}

/**
 * What the walk passed over, said in a note each (a path an ignore pattern leaves out is not said), with what
 * to do about it in the CLI (name the file or folder) or the editor (open the file).
 */
export function notWalkedNotes(
  notWalked: Discovery['notWalked'],
  face: 'cli' | 'editor' | 'definitions',
  ignored?: (file: string) => boolean,
): string[] {
  const advice = {
    cli: [
      'name a linked file on the command line to include it',
      (n: number) => `name ${n === 1 ? 'it' : 'them'} on the command line to include ${n === 1 ? 'its' : 'their'} files`,
    ],
    editor: ['open a linked file to check it', () => 'open a file there to check it'],
    definitions: [
      'name a linked file among the definitions to include it',
      (n: number) => `name ${n === 1 ? 'it' : 'them'} among the definitions to include ${n === 1 ? 'its' : 'their'} files`,
    ],
  } as const;
  const [linkAdvice, deepAdvice] = advice[face];
  const listed = (paths: string[]) => {
    const shown = paths.slice(0, 3).map((p) => `'${p}'`);
    return paths.length > 3 ? `${shown.join(', ')} and ${paths.length - 3} more` : shown.join(', ');
  };
  const links = notWalked.links.filter((file) => !ignored?.(file));
  const tooDeep = notWalked.tooDeep.filter((file) => !ignored?.(file));
  const notes: string[] = [];
  if (links.length)
    notes.push(
      `${links.length} symbolic link${links.length === 1 ? '' : 's'} in the folders walked not followed (${listed(links)}): ${linkAdvice}`,
    );
  if (tooDeep.length)
    notes.push(
      `${tooDeep.length} folder${tooDeep.length === 1 ? '' : 's'} nested more than ${MAX_WALK_DEPTH} deep not walked (${listed(tooDeep)}): ${deepAdvice(tooDeep.length)}`,
    );
  return notes;
}

/** A file named by the user, read whole through the bounded reader (see readUserFile). */
export async function readBytes(file: string, kind: FileKind = 'document'): Promise<Uint8Array> {
  return readUserFile(file, kind);
}

/**
 * Reads files one at a time into one buffer that is reused: a view of the bytes read last, valid until
 * the next read. The CLI reads each file twice (to find definitions, then to lint it) instead of keeping
 * every file's bytes: fresh memory is costly on these machines (about 3 ms per MB for its first touch;
 * the corpus is 21 MB), and reading again from the page cache costs less.
 */
export class FileReader {
  private readonly scratch = { buffer: Buffer.allocUnsafeSlow(1 << 20) };

  /** The bytes of `file` (a view of the shared buffer), or an InputError. */
  read(file: string): Buffer {
    return readUserFileSync(file, 'document', this.scratch);
  }
}

/**
 * What a user's file is read as, and its size cap. Every file the CLI and the language server read on a
 * user's behalf goes through readUserFile/readUserFileSync below (a workspace cloned from an untrusted
 * repository names files too: a plan's "usage" may say /dev/zero or name a FIFO).
 */
export type FileKind = 'document' | 'definitions' | 'plan' | 'usage' | 'capacityUnits' | 'config';

const MiB = 1024 * 1024;
export const SIZE_CAPS: Record<FileKind, number> = {
  // Policy documents and definition indexes: far above the largest real one (the built-in index is 3.5 MB).
  document: 256 * MiB,
  definitions: 256 * MiB,
  // A plan larger than the checks take (LARGE_DOCUMENT) could not be checked anyway.
  plan: 8 * MiB,
  usage: 16 * MiB,
  capacityUnits: 4 * MiB,
  config: 1 * MiB,
};

const KIND_NAMES: Record<FileKind, string> = {
  document: 'policy documents',
  definitions: 'definition files',
  plan: 'deployment plans',
  usage: 'saved usage files',
  capacityUnits: 'capacity-unit files',
  config: 'configuration files',
};

function formatMiB(bytes: number): string {
  return bytes >= MiB ? `${Math.round((bytes / MiB) * 10) / 10} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

function notRegular(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined;
  const what = stat.isDirectory()
    ? 'a folder'
    : stat.isFIFO()
      ? 'a pipe (FIFO)'
      : stat.isSocket()
        ? 'a socket'
        : stat.isCharacterDevice() || stat.isBlockDevice()
          ? 'a device'
          : 'not a regular file';
  return `${what}, not a regular file`;
}

function tooLarge(file: string, kind: FileKind, size: number | undefined): InputError {
  const cap = SIZE_CAPS[kind];
  const found = size === undefined ? `more than ${formatMiB(cap)}` : formatMiB(size);
  return new InputError(`'${file}' is too large to read (${found}; ${KIND_NAMES[kind]} are read up to ${formatMiB(cap)})`);
}

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. Not on Windows (no FIFOs to open there).
const OPEN_FLAGS = fsConstants.O_RDONLY | (process.platform === 'win32' ? 0 : (fsConstants.O_NONBLOCK ?? 0));

/**
 * The bytes of a user's file: a regular file only (a FIFO, device, socket or folder is refused without
 * blocking), at most SIZE_CAPS[kind] bytes (checked before reading, and again while reading, for a file
 * that grows). Errors are InputErrors that name the file and never quote its content.
 */
export function readUserFileSync(file: string, kind: FileKind, scratch?: { buffer: Buffer }): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    throw new InputError(describeFsError(error, file), (error as NodeJS.ErrnoException).code);
  }
  try {
    const stat = fstatSync(fd);
    const problem = notRegular(stat);
    if (problem) throw new InputError(`cannot read '${file}': ${problem}`);
    const cap = SIZE_CAPS[kind];
    if (stat.size > cap) throw tooLarge(file, kind, stat.size);
    const holder = scratch ?? { buffer: Buffer.allocUnsafe(0) };
    if (holder.buffer.length < stat.size + 1) holder.buffer = Buffer.allocUnsafeSlow(Math.min(cap + 1, stat.size + 1));
    let length = 0;
    for (;;) {
      if (length >= holder.buffer.length) {
        // The file grew after fstat: read on, up to one byte over the cap.
        const larger = Buffer.allocUnsafeSlow(Math.min(cap + 1, holder.buffer.length * 2));
        holder.buffer.copy(larger, 0, 0, length);
        holder.buffer = larger;
      }
      const n = readSync(fd, holder.buffer, length, holder.buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > cap) throw tooLarge(file, kind, undefined);
    }
    return holder.buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(describeFsError(error, file));
  } finally {
    closeSync(fd);
  }
}

/** readUserFileSync without blocking the event loop on the read itself (the language server's scans). */
export async function readUserFile(file: string, kind: FileKind): Promise<Buffer> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, OPEN_FLAGS);
  } catch (error) {
    throw new InputError(describeFsError(error, file), (error as NodeJS.ErrnoException).code);
  }
  try {
    const stat = await handle.stat();
    const problem = notRegular(stat);
    if (problem) throw new InputError(`cannot read '${file}': ${problem}`);
    const cap = SIZE_CAPS[kind];
    if (stat.size > cap) throw tooLarge(file, kind, stat.size);
    let buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length >= buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(cap + 1, buffer.length * 2));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > cap) throw tooLarge(file, kind, undefined);
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(describeFsError(error, file));
  } finally {
    await handle.close();
  }
}

export { describeFsError };

import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { InputError, UsageError } from './files';

/**
 * Writes a report or a downloaded document to `target` (-o): never over one of the run's inputs (a usage
 * error, exit 2), never half-written (a temporary file beside the target, renamed over it), and never
 * through a symbolic link: a link at `target` is replaced by the file, the file it points to is left as it
 * is. `inputs` are the files the run read (each compared by device and inode, so a hard link or another
 * spelling of the same path counts too). A character device or a FIFO at `target` (/dev/null, a named pipe
 * another program reads) is written into, as a shell's `>` writes: a file renamed over it would replace it
 * (run as root, `-o /dev/null` replaced the system's /dev/null with the report). `/dev/stdout` and
 * `/dev/stderr` are the process's own streams.
 */
export function writeOutputFile(target: string, text: string, inputs: readonly string[] = []): void {
  const descriptor = ownDescriptor(target);
  if (descriptor !== undefined) return writeDescriptor(target, descriptor, text, inputs);
  const existing = refuseInputs(target, inputs);
  if (existing?.isCharacterDevice() || existing?.isFIFO()) writeInto(target, text);
  else writeAtomically(target, text, existing);
}

/**
 * The descriptor of this process that `target` names: `/dev/stdin`, `/dev/stdout`, `/dev/stderr`,
 * `/dev/fd/N`, `/proc/self/fd/N` (links into /proc on Linux, whose own link would be replaced by a file renamed
 * over it: run as root, `-o /dev/stdout` replaced the system's /dev/stdout). Undefined for any other path.
 */
function ownDescriptor(target: string): number | undefined {
  if (process.platform === 'win32') return undefined;
  const resolved = path.resolve(target);
  const named = /^\/dev\/std(in|out|err)$/.exec(resolved);
  if (named) return ['in', 'out', 'err'].indexOf(named[1]);
  const numbered = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(resolved);
  return numbered ? Number(numbered[1]) : undefined;
}

/**
 * Writes the report to standard output or standard error, wherever the shell sent them (`-o /dev/stdout` is
 * the report on standard output, as without -o), never onto an input (standard output redirected onto a file
 * linted). Any other descriptor is refused: past 2 they are Node's own (its event loop's pipes), not one the
 * caller can be known to have opened.
 */
function writeDescriptor(target: string, fd: number, text: string, inputs: readonly string[]): void {
  if (fd !== 1 && fd !== 2)
    throw new InputError(`cannot write '${target}': of this process's descriptors only standard output and standard error take a report`);
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
  } catch (error) {
    throw new InputError(
      `cannot write '${target}': ${fd === 1 ? 'standard output' : 'standard error'} is closed (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  const input = inputs.find((file) => sameFile(file, stat));
  if (input !== undefined) throw inputAsOutput(target, input);
  (fd === 1 ? process.stdout : process.stderr).write(text);
}

/**
 * Writes into the character device or FIFO at `target`: opened without following a link and without
 * creating a file, and checked again once open, so nothing is written if it was swapped since its lstat.
 */
function writeInto(target: string, text: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(target, fs.constants.O_WRONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isCharacterDevice() && !stat.isFIFO()) throw new InputError(`cannot write '${target}': it is no longer a device or a FIFO`);
    fs.writeFileSync(fd, text);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot write '${target}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Throws a usage error when `target` (-o) is one of `inputs` (the same path, or the same file by device and
 * inode: a hard link or another spelling; a link named like an input too), or a folder, a block device or a
 * socket (none takes a report, and a file renamed over one would replace it); else its lstat.
 */
export function refuseInputs(target: string, inputs: readonly string[]): fs.Stats | undefined {
  const resolved = path.resolve(target);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.lstatSync(resolved);
  } catch {
    // Not there yet.
  }
  if (existing?.isDirectory()) throw new InputError(`cannot write '${target}': it is a folder`);
  if (existing?.isBlockDevice()) throw new InputError(`cannot write '${target}': it is a block device`);
  if (existing?.isSocket()) throw new InputError(`cannot write '${target}': it is a socket`);
  // The file a link points to matters for the input check: writing would not touch it, but a link named
  // like an input is refused all the same (the user meant the input).
  let followed: fs.Stats | undefined;
  try {
    followed = fs.statSync(resolved);
  } catch {
    // A dangling link, or nothing.
  }
  for (const input of inputs) {
    const same =
      path.resolve(input) === resolved ||
      (followed !== undefined && sameFile(input, followed)) ||
      (existing !== undefined && sameFile(input, existing));
    if (same) throw inputAsOutput(target, input);
  }
  return existing;
}

/**
 * Writes `data` to `target` through a temporary file beside it, renamed over it: never half-written, and a
 * link at `target` is replaced, never followed. `existing`: the target's lstat; `keepMode`: the new file gets its
 * permission bits exactly (a file fixed in place), else as the umask allows (a report).
 */
export function writeAtomically(target: string, data: string | Uint8Array, existing: fs.Stats | undefined, keepMode = false): void {
  const resolved = path.resolve(target);
  // Named after the target, cut so that it stays within a name's 255 bytes whatever the target's length.
  const temporary = path.join(
    path.dirname(resolved),
    `.${Buffer.from(path.basename(resolved))
      .subarray(0, 200)
      .toString()
      .replace(/\uFFFD+$/, '')}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    // 'wx': created here, never an existing file or a link someone placed.
    fs.writeFileSync(temporary, data, { flag: 'wx', mode: existing?.isFile() ? existing.mode & 0o777 : 0o666 });
    if (keepMode && existing?.isFile()) fs.chmodSync(temporary, existing.mode & 0o777);
    fs.renameSync(temporary, resolved);
  } catch (error) {
    try {
      fs.unlinkSync(temporary);
    } catch {
      // Not made.
    }
    throw new InputError(`cannot write '${target}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function sameFile(file: string, stat: fs.Stats): boolean {
  try {
    const other = fs.statSync(file);
    return other.dev === stat.dev && other.ino === stat.ino;
  } catch {
    return false;
  }
}

/** The usage error of an -o that is one of the run's inputs. */
function inputAsOutput(target: string, input: string): UsageError {
  return new UsageError(`-o '${target}' is one of the inputs ('${input}'): the report would replace it; write the report elsewhere`);
}

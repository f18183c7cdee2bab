// The git binary, for `--against <revision>`: run with an argument list (never a shell), in the current
// folder, and read only (rev-parse, ls-tree, show). The language server never runs git: the editor hands
// it the committed text (see server/README.md).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { InputError, UsageError } from '../../node/files';
import { LARGE_DOCUMENT } from '../../service/json';
import { decodeText } from '../../service';

const MAX_BUFFER = 4 * LARGE_DOCUMENT;

function git(args: string[], cwd: string): { status: number | null; stdout: Buffer; stderr: string; error?: Error } {
  const result = spawnSync('git', args, { cwd, maxBuffer: MAX_BUFFER, windowsHide: true, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } });
  return { status: result.status, stdout: result.stdout ?? Buffer.alloc(0), stderr: result.stderr?.toString('utf8') ?? '', error: result.error };
}

/** Checks the revision names a commit here; a usage error (exit 2) says what is wrong. */
export function verifyRevision(revision: string, cwd = process.cwd()): void {
  if (!revision || revision.startsWith('-')) throw new UsageError(`'${revision}' is not a git revision`);
  const result = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], cwd);
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new InputError(missing ? '--against <revision> needs git, and git was not found on the PATH' : `cannot run git: ${result.error.message}`);
  }
  if (result.status === 0) return;
  const inside = git(['rev-parse', '--is-inside-work-tree'], cwd);
  if (inside.status !== 0) throw new UsageError(`--against ${revision}: ${cwd} is not in a git repository`);
  throw new UsageError(`--against ${revision}: no such commit in this repository`);
}

/** The path git knows a file by, relative to the current folder, with '/' separators. */
function gitPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, path.resolve(cwd, file)).split(path.sep).join('/');
  if (relative.startsWith('../')) throw new UsageError(`${file} is outside the current folder: run policyset from the repository that holds it`);
  return relative;
}

/** The text of a file at a revision; undefined when the file is not there at that revision. */
export function showAtRevision(revision: string, file: string, cwd = process.cwd()): string | undefined {
  const result = git(['show', `${revision}:./${gitPath(file, cwd)}`], cwd);
  if (result.error) throw new InputError(`cannot run git: ${result.error.message}`);
  if (result.status !== 0) {
    if (/does not exist in|exists on disk, but not in|path '.*' does not exist/i.test(result.stderr)) return undefined;
    throw new InputError(`git show ${revision}:${gitPath(file, cwd)} failed: ${result.stderr.trim().split('\n')[0]}`);
  }
  if (result.stdout.length > LARGE_DOCUMENT) throw new InputError(`${file} at ${revision} is larger than ${LARGE_DOCUMENT / 1024 / 1024} MB: not compared`);
  return decodeText(result.stdout).text;
}

/** The .json and .jsonc files under the paths at a revision (relative to the current folder). */
export function filesAtRevision(revision: string, paths: string[], cwd = process.cwd()): string[] {
  const result = git(['ls-tree', '-r', '-z', '--name-only', '--end-of-options', revision, '--', ...paths.map((p) => gitPath(p, cwd) || '.')], cwd);
  if (result.error) throw new InputError(`cannot run git: ${result.error.message}`);
  if (result.status !== 0) throw new InputError(`git ls-tree ${revision} failed: ${result.stderr.trim().split('\n')[0]}`);
  return result.stdout
    .toString('utf8')
    .split('\0')
    .filter((name) => /\.jsonc?$/i.test(name));
}

/**
 * The files renamed or moved since a revision, as git's rename detection sees them (`git diff -M`, the work
 * tree against the revision): new path -> old path, relative to the current folder. Files git does not
 * track yet are not among them (the caller pairs those by content).
 */
export function renamesSince(revision: string, paths: string[], cwd = process.cwd()): Map<string, string> {
  const result = git(['diff', '-M', '--name-status', '-z', '--relative', '--end-of-options', revision, '--', ...paths.map((p) => gitPath(p, cwd) || '.')], cwd);
  if (result.error) throw new InputError(`cannot run git: ${result.error.message}`);
  if (result.status !== 0) throw new InputError(`git diff ${revision} failed: ${result.stderr.trim().split('\n')[0]}`);
  const fields = result.stdout.toString('utf8').split('\0');
  const renames = new Map<string, string>();
  for (let i = 0; i < fields.length; ) {
    const status = fields[i];
    if (!status) break;
    if (status[0] === 'R' || status[0] === 'C') {
      if (status[0] === 'R') renames.set(fields[i + 2], fields[i + 1]);
      i += 3;
    } else i += 2;
  }
  return renames;
}

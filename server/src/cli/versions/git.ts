// The git binary, for `--against <revision>`: run with an argument list (never a shell), in the current
// folder, and read only (rev-parse, ls-tree, show). The language server never runs git: the editor hands
// it the committed text (see server/README.md).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { InputError, UsageError } from '../../node/files';
import { LARGE_DOCUMENT } from '../../service/json';
import { decodeText } from '../../service';

const MAX_BUFFER = 4 * LARGE_DOCUMENT;
/** The time limit of every git call (a repository whose config is a FIFO would block git for ever). */
export const GIT_TIMEOUT_MS = Number(process.env.POLICYSET_GIT_TIMEOUT_MS) > 0 ? Number(process.env.POLICYSET_GIT_TIMEOUT_MS) : 30_000;

interface GitResult {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Every git call: an argument list (never a shell), a time limit, a bounded output; and one clear error for
 * each way it can fail (git missing, stopped at the time limit, an output over the bound). A call that ran
 * and exited non-zero is returned: the caller reads git's message.
 */
function git(args: string[], cwd: string, what: string, input?: string): GitResult {
  const result = spawnSync('git', args, {
    cwd,
    maxBuffer: MAX_BUFFER,
    timeout: GIT_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    windowsHide: true,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
  });
  const error = result.error as NodeJS.ErrnoException | undefined;
  if (error) {
    if (error.code === 'ENOENT') throw new InputError('--against <revision> needs git, and git was not found on the PATH');
    if (error.code === 'ETIMEDOUT')
      throw new InputError(
        `${what}: git did not finish within ${GIT_TIMEOUT_MS / 1000} s and was stopped (a repository file that blocks, such as a FIFO in .git?)`,
      );
    if (error.code === 'ENOBUFS') throw new InputError(`${what}: git's output is larger than ${MAX_BUFFER / 1024 / 1024} MB: not read`);
    throw new InputError(`${what}: cannot run git: ${error.message}`);
  }
  return { status: result.status, stdout: result.stdout ?? Buffer.alloc(0), stderr: result.stderr?.toString('utf8') ?? '' };
}

/** What git said, in one line (its first 'fatal:' or 'error:' line, else its first line). */
function gitSaid(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const said = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? 'no message';
  const hint = /dubious ownership/.test(stderr)
    ? ' (the repository belongs to another user: git refuses it until it is added to safe.directory, see git config --global --add safe.directory)'
    : '';
  return `${said.length > 300 ? `${said.slice(0, 300)}…` : said}${hint}`;
}

/** Checks the revision names a commit here; a usage error (exit 2) says what is wrong. */
export function verifyRevision(revision: string, cwd = process.cwd()): void {
  if (!revision || revision.startsWith('-')) throw new UsageError(`'${revision}' is not a git revision`);
  const what = `--against ${revision}`;
  const result = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], cwd, what);
  if (result.status === 0) return;
  const inside = git(['rev-parse', '--is-inside-work-tree'], cwd, what);
  if (inside.status !== 0) {
    // Not a repository, or one git refuses (another user's: dubious ownership): say what git said.
    if (/not a git repository/i.test(inside.stderr) || !inside.stderr.trim())
      throw new UsageError(`${what}: ${cwd} is not in a git repository`);
    throw new InputError(`${what}: git cannot read the repository at ${cwd}: ${gitSaid(inside.stderr)}`);
  }
  throw new UsageError(`${what}: no such commit in this repository`);
}

/** The path git knows a file by, relative to the current folder, with '/' separators. */
function gitPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, path.resolve(cwd, file)).split(path.sep).join('/');
  if (relative === '..' || relative.startsWith('../'))
    throw new UsageError(`${file} is outside the current folder: run policyset from the repository that holds it`);
  return relative;
}

/**
 * The text of a file at a revision; undefined when the file is not there at that revision. `--end-of-options`:
 * a revision shaped like an option (`--output=x`) is not one, whoever calls.
 */
export function showAtRevision(revision: string, file: string, cwd = process.cwd()): string | undefined {
  const result = git(['show', '--end-of-options', `${revision}:./${gitPath(file, cwd)}`], cwd, `${file} at ${revision}`);
  if (result.status !== 0) {
    if (/does not exist in|exists on disk, but not in|path '.*' does not exist/i.test(result.stderr)) return undefined;
    throw new InputError(`git show ${revision}:${gitPath(file, cwd)} failed: ${gitSaid(result.stderr)}`);
  }
  if (result.stdout.length > LARGE_DOCUMENT)
    throw new InputError(`${file} at ${revision} is larger than ${LARGE_DOCUMENT / 1024 / 1024} MB: not compared`);
  return decodeText(result.stdout).text;
}

/**
 * The .json and .jsonc files under the paths at a revision (relative to the current folder), from one
 * `git ls-tree`, with their texts read in one `git cat-file --batch` per MAX_BUFFER / 2 of blobs instead of one
 * `git show` a file (500 files: 25 s of process starts). A file over LARGE_DOCUMENT is among the names but has no
 * text: showAtRevision says it is too large.
 */
export function textsAtRevision(revision: string, paths: string[], cwd = process.cwd()): { names: string[]; texts: Map<string, string> } {
  // git ls-tree takes no '--' before its paths: after --end-of-options it would be a path, and a folder named
  // '--' at the revision would be listed whatever paths were asked for.
  const listed = git(
    ['ls-tree', '-r', '-z', '-l', '--end-of-options', revision, ...paths.map((p) => gitPath(p, cwd) || '.')],
    cwd,
    `the files at ${revision}`,
  );
  if (listed.status !== 0) throw new InputError(`git ls-tree ${revision} failed: ${gitSaid(listed.stderr)}`);
  const names: string[] = [];
  const blobs: { oid: string; size: number; name: string }[] = [];
  for (const entry of listed.stdout.toString('utf8').split('\0')) {
    const match = /^\d+ blob ([0-9a-f]+) +(\d+)\t(.*)$/s.exec(entry);
    if (!match || !/\.jsonc?$/i.test(match[3])) continue;
    names.push(match[3]);
    if (Number(match[2]) <= LARGE_DOCUMENT) blobs.push({ oid: match[1], size: Number(match[2]), name: match[3] });
  }
  const texts = new Map<string, string>();
  for (let start = 0; start < blobs.length;) {
    let end = start;
    for (let bytes = 0; end < blobs.length && (end === start || bytes + blobs[end].size < MAX_BUFFER / 2); end++)
      bytes += blobs[end].size + 64;
    const batch = blobs.slice(start, end);
    const result = git(['cat-file', '--batch'], cwd, `the files at ${revision}`, batch.map((b) => b.oid).join('\n') + '\n');
    if (result.status !== 0) throw new InputError(`git cat-file at ${revision} failed: ${gitSaid(result.stderr)}`);
    let offset = 0;
    for (const blob of batch) {
      // Each answer: '<oid> blob <size>\n', the content, '\n'.
      const header = result.stdout.indexOf(10, offset);
      const size = Number(/ (\d+)$/.exec(result.stdout.subarray(offset, header).toString('latin1'))?.[1]);
      if (header < 0 || !Number.isFinite(size))
        throw new InputError(`git cat-file at ${revision}: an answer that is not a blob (${blob.name})`);
      texts.set(blob.name, decodeText(result.stdout.subarray(header + 1, header + 1 + size)).text);
      offset = header + 1 + size + 1;
    }
    start = end;
  }
  return { names, texts };
}

/** The .json and .jsonc files under the paths at a revision (relative to the current folder). */
export function filesAtRevision(revision: string, paths: string[], cwd = process.cwd()): string[] {
  const result = git(
    ['ls-tree', '-r', '-z', '--name-only', '--end-of-options', revision, ...paths.map((p) => gitPath(p, cwd) || '.')],
    cwd,
    `the files at ${revision}`,
  );
  if (result.status !== 0) throw new InputError(`git ls-tree ${revision} failed: ${gitSaid(result.stderr)}`);
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
  const result = git(
    ['diff', '-M', '--name-status', '-z', '--relative', '--end-of-options', revision, '--', ...paths.map((p) => gitPath(p, cwd) || '.')],
    cwd,
    `the renames since ${revision}`,
  );
  if (result.status !== 0) throw new InputError(`git diff ${revision} failed: ${gitSaid(result.stderr)}`);
  const fields = result.stdout.toString('utf8').split('\0');
  const renames = new Map<string, string>();
  for (let i = 0; i < fields.length;) {
    const status = fields[i];
    if (!status) break;
    if (status[0] === 'R' || status[0] === 'C') {
      if (status[0] === 'R') renames.set(fields[i + 2], fields[i + 1]);
      i += 3;
    } else i += 2;
  }
  return renames;
}

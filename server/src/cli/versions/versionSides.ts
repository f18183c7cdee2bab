// Reading the two sides of a version comparison for the CLI: files on disk (through the bounded reader),
// a file's content at a git revision, a built-in set read through E1. The comparison itself is the
// service's (server/src/service/versions).
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  compareSets,
  decodeText,
  NOT_A_SET,
  pairSides,
  readSides,
  readSplitSide,
  splitPartOf,
  splitSetOf,
  type ChangeReport,
  type CompareOptions,
  type ReadSides,
} from '../../service';
import { LARGE_DOCUMENT } from '../../service/json';
import { discover, FileReader, InputError, readBytes } from '../../node/files';
import { filesAtRevision, renamesSince, showAtRevision, textsAtRevision, verifyRevision } from './git';

/** Where the text of a file comes from: undefined when the file is not there. */
export type TextOf = (file: string) => string | undefined;

/** The text of a file on disk, or undefined when it does not exist; other failures are input errors. */
export async function diskText(file: string): Promise<string | undefined> {
  if (!fs.existsSync(file)) return undefined;
  const bytes = await readBytes(file);
  if (bytes.length > LARGE_DOCUMENT) throw new InputError(`${file} is larger than ${LARGE_DOCUMENT / 1024 / 1024} MB: not compared`);
  return decodeText(bytes).text;
}

/** A disk reader that caches (split parts read their siblings). */
export async function diskReader(files: string[]): Promise<TextOf> {
  const texts = new Map<string, string | undefined>();
  const wanted = new Set<string>();
  for (const file of files) {
    wanted.add(file);
    const part = splitPartOf(file);
    if (part)
      for (const sibling of ['definitions', 'parameters', 'groups'].flatMap((p) => [`${part.base}.${p}.json`, `${part.base}.${p}.jsonc`]))
        wanted.add(sibling);
  }
  for (const file of wanted) texts.set(file, await diskText(file));
  return (file) => texts.get(file);
}

/** The sets of a file (a split part brings its siblings); absent: no sets. */
export function readSetFile(file: string, textOf: TextOf, labelOf: (file: string) => string = (f) => f): ReadSides {
  const split = splitPartOf(file) ? splitSetOf(file, textOf) : undefined;
  if (split) {
    for (const part of Object.values(split)) part.uri = labelOf(part.uri);
    return readSplitSide(split);
  }
  const text = textOf(file);
  if (text === undefined) return { ok: true, sides: [] };
  return readSides(labelOf(file), text);
}

export function compareRead(oldRead: ReadSides, newRead: ReadSides, options: CompareOptions): ChangeReport[] {
  if (!oldRead.ok) throw new InputError(oldRead.problem);
  if (!newRead.ok) throw new InputError(newRead.problem);
  return pairSides(oldRead.sides, newRead.sides).map(([old, next]) => compareSets(old, next, options));
}

export interface RevisionComparison {
  reports: ChangeReport[];
  /** Files passed over that are not JSON (and name no policy key), and why: each said, as lint says them. */
  skipped: string[];
  /** JSON files that hold no set, on both sides: counted, as lint counts other JSON files. */
  otherJson: number;
  unchanged: number;
  /** Files renamed or moved since the revision: compared with their old path (new path -> old path). */
  renamed: Map<string, string>;
}

/**
 * Each set file under the paths (on disk now, or at the revision) compared with its content at the
 * revision: a file new since has no old side, a deleted one no new side. Split parts are compared once,
 * as the set they make (from their definitions part).
 */
export async function compareAgainstRevision(
  revision: string,
  paths: string[],
  options: CompareOptions,
  cwd = process.cwd(),
): Promise<RevisionComparison> {
  verifyRevision(revision, cwd);
  const inputs = paths.length ? paths : ['.'];
  const onDisk = inputs.filter((p) => fs.existsSync(p));
  // A path that names nothing, now or at the revision (a typo, a glob the shell did not expand): exit 2, as
  // lint does for a pattern that matches nothing, never "0 sets compared" and exit 0.
  for (const missing of inputs.filter((p) => !fs.existsSync(p))) {
    if (filesAtRevision(revision, [missing], cwd).length) continue;
    const glob = /[*?[\]{}]/.test(missing);
    throw new InputError(
      `no such file or folder '${missing}' (now or at ${revision})${glob ? ': --against takes files and folders, not glob patterns' : ''}`,
    );
  }
  const discovered = onDisk.length ? await discover(onDisk) : { files: [], problems: [] };
  if (discovered.problems.length) throw new InputError(discovered.problems[0]);
  const names = new Set<string>();
  for (const file of discovered.files) names.add(path.relative(cwd, path.resolve(cwd, file.path)).split(path.sep).join('/'));
  const atRevision = textsAtRevision(revision, inputs, cwd);
  for (const file of atRevision.names) names.add(file);
  const oldTexts = new Map<string, string | undefined>(atRevision.texts);
  const oldOf: TextOf = (file) => {
    if (!oldTexts.has(file)) oldTexts.set(file, showAtRevision(revision, file, cwd));
    return oldTexts.get(file);
  };
  const newTexts = new Map<string, string | undefined>();
  for (const name of names) newTexts.set(name, await diskText(path.resolve(cwd, name)));
  const reader = new FileReader();
  const newOf: TextOf = (file) => {
    // A split part's sibling outside the paths given: read now, through the same reader.
    if (!newTexts.has(file))
      newTexts.set(file, fs.existsSync(path.resolve(cwd, file)) ? decodeText(reader.read(path.resolve(cwd, file))).text : undefined);
    return newTexts.get(file);
  };
  const result: RevisionComparison = { reports: [], skipped: [], otherJson: 0, unchanged: 0, renamed: new Map() };
  // Renames and moves: git's rename detection, then a file that is byte for byte one that is gone (git
  // does not see a rename it does not track yet). The new path is compared with the old one; the old path
  // is not a removal.
  const gitRenames = renamesSince(revision, inputs, cwd);
  const gone = [...names].filter((name) => newOf(name) === undefined && oldOf(name) !== undefined);
  const movedAway = new Set<string>();
  for (const name of [...names].sort()) {
    if (oldOf(name) !== undefined || newOf(name) === undefined) continue;
    const byGit = gitRenames.get(name);
    const from =
      byGit !== undefined && !movedAway.has(byGit) && newOf(byGit) === undefined && oldOf(byGit) !== undefined
        ? byGit
        : gone.find((old) => !movedAway.has(old) && oldOf(old) === newOf(name));
    if (from === undefined) continue;
    result.renamed.set(name, from);
    movedAway.add(from);
  }
  for (const name of [...names].sort()) {
    if (movedAway.has(name)) continue;
    const from = result.renamed.get(name);
    const part = splitPartOf(name);
    // A split set is compared from its definitions part; the other parts are part of it.
    if (part && part.part !== 'definitions' && (splitSetOf(name, newOf) || splitSetOf(name, oldOf))) continue;
    const oldRead = readSetFile(from ?? name, oldOf, (file) => `${revision}:${file}`);
    const newRead = readSetFile(name, newOf);
    const notASet = (read: ReadSides) => (read.ok ? read.sides.length === 0 : !!read.notASet);
    if (notASet(oldRead) && notASet(newRead)) {
      const notJson = [newRead, oldRead].find((read) => !read.ok && read.notASet && read.notASet !== NOT_A_SET);
      if (oldOf(from ?? name) === undefined && newOf(name) === undefined) continue;
      if (notJson && !notJson.ok) result.skipped.push(`${name}: ${notJson.notASet}, skipped`);
      else result.otherJson++;
      continue;
    }
    const unchanged = oldOf(from ?? name) === newOf(name);
    const unreadable = [newRead, oldRead].find((read): read is { ok: false; problem: string } => !read.ok && !notASet(read));
    if (unreadable && unchanged) {
      // Not read (sets built from expressions it cannot see, say), and not changed: nothing to compare, said; a
      // changed one still stops the run (exit 2), never a "none" it could not tell.
      result.skipped.push(`${unreadable.problem} (unchanged since ${revision})`);
      continue;
    }
    const reports = compareRead(
      notASet(oldRead) ? { ok: true, sides: [] } : oldRead,
      notASet(newRead) ? { ok: true, sides: [] } : newRead,
      options,
    );
    if (unchanged) result.unchanged++;
    result.reports.push(...reports);
  }
  return result;
}

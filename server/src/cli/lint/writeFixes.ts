// `lint --fix`: the fixed texts the engine made, written back. Each file is written only when it changed,
// still holds the text that was fixed, is a regular file of its own (no symbolic link, no other hard link)
// and is no input of another kind (a definitions file, the report's -o); atomically (a temporary file
// beside it, renamed over it), in the encoding it was read in, with its permission bits. A file that is not
// written keeps the report of its text as it is, and the reason is said.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeText, encodeText } from '../../service';
import { hashText } from '../../service/text';
import { readUserFileSync } from '../../node/files';
import { writeAtomically } from '../../node/output';
import type { FileResult } from './lintFile';

export interface WrittenFixes {
  /** Files written, and the fixes in them. */
  written: Array<{ file: string; fixes: number }>;
  /** Files whose fixes were not written, and why (their results now hold the report of the file as it is). */
  notWritten: Array<{ file: string; reason: string }>;
}

function sameFile(a: fs.Stats, b: fs.Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Why `file` must not be written, or undefined. `others`: the lstat of every input of another kind. */
function refusal(file: string, others: fs.Stats[]): { reason: string } | { stat: fs.Stats } {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    return { reason: `cannot be read again (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  if (stat.isSymbolicLink()) return { reason: 'it is a symbolic link: the file it points to is left as it is (fix that file itself)' };
  if (!stat.isFile()) return { reason: 'not a regular file' };
  if (stat.nlink > 1) return { reason: `it has ${stat.nlink - 1} other hard link(s): a new file would part them` };
  if (others.some((other) => sameFile(other, stat)))
    return { reason: 'it is also an input of another kind (a definitions file or the report)' };
  return { stat };
}

/**
 * Writes the fixed texts of `results` (those with a `fix` that changed the text). `otherInputs`: the files
 * read as something else than a document to lint (definitions, indexes) and the -o target.
 */
export function writeFixes(results: FileResult[], otherInputs: readonly string[]): WrittenFixes {
  const others: fs.Stats[] = [];
  for (const input of otherInputs) {
    try {
      others.push(fs.statSync(input));
    } catch {
      // Not there (a report not written yet): nothing to compare.
    }
  }
  const outcome: WrittenFixes = { written: [], notWritten: [] };
  for (const result of results) {
    const fix = result.fix;
    if (!fix || !fix.fixes.length) continue;
    const keep = (reason: string) => {
      outcome.notWritten.push({ file: result.file, reason });
      result.diagnostics = fix.before.diagnostics;
      result.identities = fix.before.identities;
      result.fix = undefined;
      result.notFixed = reason;
    };
    const checked = refusal(result.file, others);
    if ('reason' in checked) {
      keep(checked.reason);
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = readUserFileSync(result.file, 'document');
    } catch (error) {
      keep((error as Error).message);
      continue;
    }
    const decoded = decodeText(bytes);
    if (decoded.encodingProblem || decoded.encoding !== fix.encoding || hashText(decoded.text) !== fix.sourceHash) {
      keep('it changed while it was being fixed');
      continue;
    }
    // Only text that is written back byte for byte as it was read (a UTF-16 file with an odd last byte is not).
    if (!Buffer.from(encodeText(decoded.text, decoded.encoding)).equals(bytes)) {
      keep(`its bytes do not survive being read as ${decoded.encoding ?? 'UTF-8'} and written back`);
      continue;
    }
    try {
      writeAtomically(result.file, encodeText(fix.output, fix.encoding), checked.stat, true);
    } catch (error) {
      keep((error as Error).message);
      continue;
    }
    outcome.written.push({ file: path.normalize(result.file), fixes: fix.fixes.length });
  }
  return outcome;
}

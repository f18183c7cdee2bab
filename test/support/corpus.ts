import * as fs from 'node:fs';
import * as path from 'node:path';

/** The shared corpus: POLICYSET_CORPUS, or ../shared/corpus beside the checkout. Absent outside this workplace. */
export const CORPUS_DIR = process.env.POLICYSET_CORPUS ?? path.resolve(__dirname, '../../../../shared/corpus');
export const CORPUS_SETS = path.join(CORPUS_DIR, 'builtin-policy-sets');
export const CORPUS_INDEX = path.join(CORPUS_DIR, 'builtin-policy-definitions-index.json');
export const corpusAvailable = fs.existsSync(CORPUS_SETS);
export const SKIP_NO_CORPUS = corpusAvailable ? false : `the corpus is not at ${CORPUS_DIR} (set POLICYSET_CORPUS)`;

export function listJsonFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(dir);
  return files.sort();
}

export const REPO_ROOT = path.resolve(__dirname, '../../..');

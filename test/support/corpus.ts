import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * A corpus of real built-in policy sets: `sets` (builtin-policy-sets/<Category>/...json) and the definitions
 * index `index` (builtin-policy-definitions-index.json).
 */
export interface Corpus {
  /** 'subset': the one in the repository; 'full': the shared corpus beside the checkout. */
  label: 'subset' | 'full';
  dir: string;
  sets: string;
  index: string;
  manifest: string;
}

function corpusAt(label: Corpus['label'], dir: string): Corpus {
  return {
    label,
    dir,
    sets: path.join(dir, 'builtin-policy-sets'),
    index: path.join(dir, 'builtin-policy-definitions-index.json'),
    manifest: path.join(dir, 'builtin-policy-sets-manifest.json'),
  };
}

/**
 * The subset of the corpus in the repository (test/fixtures/corpus, see its SOURCE.md): small, medium and
 * the largest sets and every oddity of the full corpus. Every corpus test runs on it, on any clone.
 */
export const SUBSET_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'corpus');
export const SUBSET = corpusAt('subset', SUBSET_DIR);

/** Where the full corpus would be: POLICYSET_CORPUS, or ../shared/corpus beside the checkout. */
export const FULL_CORPUS_DIR = process.env.POLICYSET_CORPUS ?? path.resolve(REPO_ROOT, '..', 'shared', 'corpus');
/** The full corpus (257 sets, 5009 definitions), when it is there: it adds to the corpus tests, never decides them. */
export const FULL_CORPUS: Corpus | undefined = fs.existsSync(path.join(FULL_CORPUS_DIR, 'builtin-policy-sets'))
  ? corpusAt('full', FULL_CORPUS_DIR)
  : undefined;

/** The corpora every corpus test runs on: the subset always, then the full corpus when it is there. */
export const CORPORA: Corpus[] = FULL_CORPUS ? [SUBSET, FULL_CORPUS] : [SUBSET];

/** The largest corpus at hand: the full one when it is there, else the subset (benchmarks, the local service). */
export const LARGEST_CORPUS: Corpus = FULL_CORPUS ?? SUBSET;

// The names before the subset existed, still read by test/lsp/fuzz.test.ts: the full corpus only.
export const CORPUS_DIR = FULL_CORPUS_DIR;
export const CORPUS_SETS = path.join(CORPUS_DIR, 'builtin-policy-sets');
export const CORPUS_INDEX = path.join(CORPUS_DIR, 'builtin-policy-definitions-index.json');
export const corpusAvailable = FULL_CORPUS !== undefined;

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

/**
 * A built-in set the local service serves on any clone (NIS2, in the subset and in the full corpus): what the
 * service tests and the docs' fetch demo ask for.
 */
export const SERVED_BUILT_IN = '32ff9e30-4725-4ca7-ba3a-904a7721ee87';

/** The set files of a corpus. */
export const setFilesOf = (corpus: Corpus): string[] => listJsonFiles(corpus.sets);

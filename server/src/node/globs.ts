// Glob patterns given to the CLI in quotes ('sets/**/*.json'), expanded as ESLint expands them: an input
// that names an existing file or folder is that path; otherwise, when it holds glob characters, it is
// matched against the files under its static base folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type picomatchType from 'picomatch';
import { globMatcher, PatternError } from '../service/patterns';
import { UsageError } from './files';

/** picomatch is loaded only when a pattern is given: most runs name files and folders (17 ms saved unbundled). */
export function picomatch(): typeof picomatchType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  return require('picomatch') as typeof picomatchType;
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.hg', '.svn']);
const MAX_DEPTH = 64;

export function isGlobPattern(input: string): boolean {
  return /[*?[\]{}()!+@]/.test(input) && picomatch().scan(input).isGlob;
}

/** The files a pattern matches, sorted; dot files only when the pattern names them. */
export function expandGlob(pattern: string): string[] {
  const normalized = pattern.replace(/\\/g, '/');
  const { prefix, base, glob } = picomatch().scan(normalized);
  // The static base folder, spelled as path.join spells the files found under it ('sets//', 'sets/.',
  // 'a/../sets' and './/sets' are all 'sets'; '.' is ''), and the pattern matched against those files spelled
  // the same way: else a pattern whose folder is written otherwise would match nothing. A leading `!` stays.
  const negation = /^!*/.exec(prefix)![0];
  const root = path.join(prefix.slice(negation.length), base, '.'); // '.': without a trailing separator
  const spelled = root === '.' ? '' : root.split(path.sep).join('/');
  let isMatch: (file: string) => boolean;
  try {
    // The one bounded pattern engine (picomatch only finds the static base folder).
    isMatch = globMatcher(`${negation}${spelled}${spelled && !spelled.endsWith('/') ? '/' : ''}${glob}`, { dot: false });
  } catch (error) {
    if (error instanceof PatternError)
      throw new UsageError(`the pattern '${pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern}': ${error.message}`);
    throw error;
  }
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name) && depth < MAX_DEPTH) walk(full, depth + 1);
      } else if (entry.isFile() && isMatch(full.split(path.sep).join('/'))) {
        found.push(full);
      }
    }
  };
  walk(root, 0);
  return found.sort();
}

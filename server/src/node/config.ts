// Finds and reads `.policysetrc.json` (JSON with comments): from the current folder upward for the CLI,
// in each workspace folder for the language server. What the keys mean is checked in service/config.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { globMatcher, PatternError } from '../service/patterns';
import { InputError, readUserFileSync } from './files';
import { decodeText } from '../service/json/encoding';
import { checkConfig, ConfigError, CONFIG_FILE_NAME, type PolicySetConfig } from '../service/config';

export { CONFIG_FILE_NAME };

/** A config file, read: its settings with every path made absolute (relative to the file's folder). */
export interface LoadedConfig {
  file: string;
  dir: string;
  config: PolicySetConfig;
}

/** The nearest `.policysetrc.json` in `start` or a folder above it. */
export function findConfigFile(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * A config file that is unreadable, not JSON, or holds an unknown key or a bad value: the message names the
 * file and the key; `reason` says which, for callers that act on it ('missing': there is no such file).
 */
export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly key: string | undefined,
    message: string,
    readonly reason: 'missing' | 'unreadable' | 'invalid' = 'invalid',
  ) {
    super(`${file}: ${message}`);
  }
}

export function loadConfigFile(file: string): LoadedConfig {
  let text: string;
  try {
    // The one bounded reader: a regular file, at most 1 MB (a device or FIFO is refused without blocking).
    text = decodeText(readUserFileSync(file, 'config')).text.replace(/^\uFEFF/, '');
  } catch (error) {
    // The reader names the file; the error names it once, first.
    const missing = error instanceof InputError && error.fsCode === 'ENOENT';
    const reason = missing ? 'no such file' : (error as Error).message.replace(/^cannot read '.*?': /s, '');
    throw new ConfigFileError(file, undefined, `cannot read it: ${reason}`, missing ? 'missing' : 'unreadable');
  }
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    // The parser recurses: a file nested thousands deep exhausts the stack. No config nests beyond a few levels.
    if (error instanceof RangeError) throw new ConfigFileError(file, undefined, 'nested too deeply to be a config file');
    throw error;
  }
  if (errors.length) {
    const first = errors[0];
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - before.lastIndexOf('\n');
    throw new ConfigFileError(file, undefined, `not valid JSON at line ${line}, column ${column} (${printParseErrorCode(first.error)})`);
  }
  let config: PolicySetConfig;
  try {
    config = checkConfig(value);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigFileError(file, error.key, error.message);
    throw error;
  }
  const dir = path.dirname(path.resolve(file));
  if (config.ignore?.length) {
    // Every pattern compiled once here, so that one too long or malformed is said with the file's name
    // (the CLI exits 2, the server shows the message), never skipped in silence.
    try {
      ignoreMatcher(config.ignore, dir);
    } catch (error) {
      if (error instanceof PatternError) throw new ConfigFileError(file, 'ignore', error.message);
      throw error;
    }
  }
  const absolute = (p: string) => path.resolve(dir, p);
  return {
    file: path.resolve(file),
    dir,
    config: {
      ...config,
      definitions: config.definitions?.map(absolute),
      capacityUnits: config.capacityUnits === undefined ? undefined : absolute(config.capacityUnits),
      usage: config.usage?.map(absolute),
    },
  };
}

/**
 * Whether a path is ignored by `ignore` patterns, read as ESLint reads its `ignores` and git its
 * .gitignore: relative to `baseDir`, a pattern without a slash matches at any depth, a pattern that
 * matches a folder ignores what is in it, `!` takes a path back, and the last pattern that matches wins.
 */
export function ignoreMatcher(patterns: string[], baseDir: string): (file: string) => boolean {
  const compiled = patterns.map((pattern, index) => {
    const negated = pattern.startsWith('!');
    let body = negated ? pattern.slice(1) : pattern;
    body = body.replace(/\\/g, '/').replace(/\/+$/, '');
    const anchored = body.includes('/');
    body = body.replace(/^\//, '');
    let isMatch: (path: string) => boolean;
    try {
      // The one bounded pattern engine: no pattern and no file name can make this backtrack.
      isMatch = globMatcher(anchored ? body : `**/${body}`, { dot: true });
    } catch (error) {
      if (error instanceof PatternError)
        throw new PatternError(
          `'ignore' pattern ${index + 1} (${pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern}): ${error.message}`,
        );
      throw error;
    }
    return { negated, isMatch };
  });
  return (file: string) => {
    const relative = path.relative(baseDir, path.resolve(file)).split(path.sep).join('/');
    if (!relative || relative.startsWith('../') || relative === '..') return false;
    // The path itself and each folder above it, up to baseDir.
    const candidates: string[] = [];
    for (let p = relative; p && p !== '.'; p = path.posix.dirname(p)) candidates.push(p);
    let ignored = false;
    for (const { negated, isMatch } of compiled) {
      if (negated ? isMatch(relative) : candidates.some((c) => isMatch(c))) ignored = !negated;
    }
    return ignored;
  };
}

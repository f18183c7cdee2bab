import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { createHash } from 'node:crypto';
import Module from 'node:module';

/**
 * Runs a CommonJS file (the CLI's bundle) with V8's code cache: the functions compiled in one run are
 * stored after it, and the next run of the same file on the same Node.js takes them instead of parsing
 * and compiling again (some 25-35 ms of a lint's start-up). It is what Node.js 22's
 * `module.enableCompileCache()` does for every module, done here for one file so that it works on
 * Node.js 20 too.
 *
 * The cache is a file per bundle and Node.js version in a folder of the user's own
 * (`<tmpdir>/policyset-compile-cache-<uid>`, or POLICYSET_COMPILE_CACHE), written once, atomically, after
 * the run. Nothing here may fail a run: a cache that cannot be read, written or is rejected by V8 (another
 * V8, other flags) is ignored. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node.js's own.
 */
export interface CachedModule {
  exports: unknown;
  /** Stores the compiled code, unless the cache was used as it is: call when the run's work is done. */
  save(): void;
  /** What happened to the cache (for tests): not used, none yet, used, or refused by V8. */
  readonly state: 'off' | 'missing' | 'used' | 'rejected';
}

/**
 * Whether a bundle (bin/policyset.js's, bin/policyset-language-server.js's) is the one to run: it exists and
 * is not older than the last `tsc -b` (`buildInfo`; a developer's compile that did not bundle), and
 * POLICYSET_NO_BUNDLE is not 1. An installed package carries no build info: its bundle is what was built.
 */
export function bundleIsCurrent(bundle: string, buildInfo: string): boolean {
  if (process.env.POLICYSET_NO_BUNDLE === '1') return false;
  let bundled: number;
  try {
    bundled = fs.statSync(bundle).mtimeMs;
  } catch {
    return false;
  }
  try {
    return bundled >= fs.statSync(buildInfo).mtimeMs;
  } catch {
    return true;
  }
}

export function cacheFolder(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const configured = process.env.POLICYSET_COMPILE_CACHE;
  if (configured === '0' || configured === 'off') return undefined;
  return configured || path.join(os.tmpdir(), `policyset-compile-cache-${process.getuid?.() ?? 'user'}`);
}

/** A folder that is ours alone: a code cache planted by another user must never be run. */
function ownFolder(folder: string): boolean {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.statSync(folder);
    // Owned by this user, and no one else may write in it (on Windows neither can be asked).
    return stat.isDirectory() && (process.getuid === undefined || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0));
  } catch {
    return false;
  }
}

export function requireWithCompileCache(file: string): CachedModule {
  const source = fs.readFileSync(file, 'utf8');
  const folder = cacheFolder();
  const usable = folder !== undefined && ownFolder(folder);
  // The name: the file's path (each checkout or installation has caches of its own), then its size and
  // time and the Node.js that runs it. V8 checks the rest itself (its version, its flags, the source's
  // length) and refuses a cache that does not fit: it is then rewritten.
  const stat = fs.statSync(file);
  const hash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 12);
  const name = `${path.basename(file, '.js')}-${hash(file)}-${hash(`${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`)}`;
  const cacheFile = usable ? path.join(folder, `${name}.v8cache`) : undefined;
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // A `#!` line (the server's entry has one) is what Node.js's own loader drops: a comment here, same length.
  const code = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  const script = new vm.Script(Module.wrap(code), { filename: file, cachedData });
  const state: CachedModule['state'] = !usable
    ? 'off'
    : cachedData === undefined
      ? 'missing'
      : script.cachedDataRejected
        ? 'rejected'
        : 'used';
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  return {
    get exports() {
      return module.exports;
    },
    state,
    save() {
      if (!cacheFile || state === 'used') return;
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temporary, cacheFile);
        removeStale(cacheFile);
      } catch {
        fs.rmSync(temporary, { force: true });
      }
    },
  };
}

/** The caches of earlier builds of the same file (same path): each build has a name of its own, and one is kept. */
function removeStale(kept: string): void {
  const folder = path.dirname(kept);
  const prefix = path.basename(kept).replace(/-[0-9a-f]+\.v8cache$/, '-');
  for (const name of fs.readdirSync(folder)) {
    if (name.startsWith(prefix) && name.endsWith('.v8cache') && name !== path.basename(kept))
      fs.rmSync(path.join(folder, name), { force: true });
  }
}

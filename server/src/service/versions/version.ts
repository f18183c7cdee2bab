/**
 * The version arithmetic of policy set versions: `#.#.#` (spec A1, "Versioning"), compared as three
 * numbers. Pre-release and build suffixes (`1.2.0-preview`, `1.2.0+build`) and other shapes are refused
 * with a message that says what is accepted: the service names versions `^\d+\.\d+\.\d+$` only.
 */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

/** From the least to the most a change asks. */
export const BUMPS: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

export function bumpRank(bump: Bump): number {
  return BUMPS.indexOf(bump);
}

export function maxBump(a: Bump, b: Bump): Bump {
  return bumpRank(a) >= bumpRank(b) ? a : b;
}

export function isBump(value: unknown): value is Bump {
  return typeof value === 'string' && (BUMPS as readonly string[]).includes(value);
}

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

export type ParsedVersion = { ok: true; version: Version } | { ok: false; problem: string };

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;
const PRE_RELEASE = /^\d+\.\d+\.\d+[-+]/;

/** Reads `#.#.#`; anything else comes back with the reason it is refused. */
export function parseVersion(text: string): ParsedVersion {
  const match = VERSION.exec(text);
  if (match) {
    const [major, minor, patch] = [match[1], match[2], match[3]].map(Number);
    if ([major, minor, patch].every(Number.isSafeInteger)) return { ok: true, version: { major, minor, patch } };
    return { ok: false, problem: `'${text}' has a number too large to compare` };
  }
  if (PRE_RELEASE.test(text)) {
    return { ok: false, problem: `'${text}' is a pre-release or build version: a version of a set is #.#.# (digits only, like 1.2.0), so it cannot be compared` };
  }
  return { ok: false, problem: `'${text}' is not a version: use #.#.# (digits, like 1.2.0)` };
}

export function formatVersion(version: Version): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** The smallest version after `old` that is bumped at least as far as `bump` asks (`none`: the old one). */
export function nextVersion(old: Version, bump: Bump): Version {
  switch (bump) {
    case 'major':
      return { major: old.major + 1, minor: 0, patch: 0 };
    case 'minor':
      return { major: old.major, minor: old.minor + 1, patch: 0 };
    case 'patch':
      return { major: old.major, minor: old.minor, patch: old.patch + 1 };
    default:
      return old;
  }
}

/** How far `next` is bumped from `old`: the highest component that grew (none when it did not grow). */
export function bumpBetween(old: Version, next: Version): Bump {
  if (compareVersions(next, old) <= 0) return 'none';
  if (next.major > old.major) return 'major';
  if (next.minor > old.minor) return 'minor';
  return 'patch';
}

/**
 * Why a check failed (`newInvalid`: the new version is not #.#.#; `notGreater`: it is not greater than the old
 * one; `notEnough`: greater, but bumped less than the changes need) or could not be made (`oldInvalid`,
 * `missing`: a side has no version).
 */
export type VersionCheckReason = 'newInvalid' | 'notGreater' | 'notEnough' | 'oldInvalid' | 'missing';

export interface VersionCheck {
  /** true: the new version is greater and bumped enough; false: it is not; null: there is nothing to compare. */
  ok: boolean | null;
  /** The smallest version that would do, when the old version is known. */
  suggested: string | undefined;
  /** Why the check failed or could not be made, for code to tell apart (never the sentence of `problem`). */
  reason?: VersionCheckReason;
  /** Why the check failed or could not be made, in a sentence. */
  problem: string | undefined;
}

/**
 * The version check: when both sides have a version, the new one must be greater than the old one and
 * bumped at least as far as `required`; with no change at all (`none`), keeping the version is fine.
 */
export function checkVersions(oldText: string | undefined, newText: string | undefined, required: Bump): VersionCheck {
  const old = oldText === undefined ? undefined : parseVersion(oldText);
  const next = newText === undefined ? undefined : parseVersion(newText);
  const suggested = old?.ok ? formatVersion(nextVersion(old.version, required)) : undefined;
  if (next && !next.ok) return { ok: false, suggested, problem: `The new version ${next.problem}`, reason: 'newInvalid' };
  if (old && !old.ok) return { ok: null, suggested: undefined, problem: `The old version ${old.problem}`, reason: 'oldInvalid' };
  if (!old?.ok || !next?.ok) {
    const missing = !old && !next ? 'Neither side has a version' : !old ? 'The old side has no version' : 'The new side has no version';
    return { ok: null, suggested, problem: `${missing} (properties.version, a version resource's name or metadata.version): the bump is reported, not checked`, reason: 'missing' };
  }
  const order = compareVersions(next.version, old.version);
  if (required === 'none' && order >= 0) return { ok: true, suggested, problem: undefined };
  if (order <= 0) {
    return { ok: false, suggested, problem: `The new version '${newText}' is not greater than the old version '${oldText}': use ${suggested}`, reason: 'notGreater' };
  }
  const bumped = bumpBetween(old.version, next.version);
  if (bumpRank(bumped) < bumpRank(required)) {
    return { ok: false, suggested, problem: `The change needs a ${required} version, but '${oldText}' -> '${newText}' is a ${bumped} bump: use ${suggested}`, reason: 'notEnough' };
  }
  return { ok: true, suggested, problem: undefined };
}

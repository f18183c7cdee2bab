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
    return {
      ok: false,
      problem: `'${text}' is a pre-release or build version: a version of a set is #.#.# (digits only, like 1.2.0), so it cannot be compared`,
    };
  }
  return { ok: false, problem: `'${text}' is not a version: use #.#.# (digits, like 1.2.0)` };
}

/** What a suffix on a version marks: the vendor appends `-deprecated` and `-preview` to a version's numbers. */
export type VersionMarker = 'deprecated' | 'preview' | 'other';

export type MarkedVersion =
  { ok: true; version: Version; suffix: string | undefined; marker: VersionMarker | undefined } | { ok: false; problem: string };

const MARKED = /^(\d+)\.(\d+)\.(\d+)([-+][0-9A-Za-z.+-]+)?$/;

/**
 * Reads `#.#.#` with an optional suffix (`1.2.0-deprecated`, `1.0.0-preview`, `1.2.0+5`): the numbers are
 * the version, the suffix a marker of its state (built-in sets and landing-zone libraries carry both).
 */
export function parseMarkedVersion(text: string): MarkedVersion {
  const match = MARKED.exec(text);
  if (!match) return { ok: false, problem: `'${text}' is not a version: use #.#.# (digits, like 1.2.0)` };
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number);
  if (![major, minor, patch].every(Number.isSafeInteger)) return { ok: false, problem: `'${text}' has a number too large to compare` };
  const suffix = match[4];
  const marker: VersionMarker | undefined =
    suffix === undefined ? undefined : /deprecated/i.test(suffix) ? 'deprecated' : /preview/i.test(suffix) ? 'preview' : 'other';
  return { ok: true, version: { major, minor, patch }, suffix, marker };
}

const MARKER_WORDS: Record<VersionMarker, string> = {
  deprecated: 'a deprecation marker',
  preview: 'a preview marker',
  other: 'a pre-release or build suffix',
};

/** A sentence on the markers of two versions, when either has one. */
function markerNote(
  oldText: string | undefined,
  old: MarkedVersion | undefined,
  newText: string | undefined,
  next: MarkedVersion | undefined,
): string | undefined {
  const parts: string[] = [];
  for (const [text, parsed] of [
    [oldText, old],
    [newText, next],
  ] as const) {
    if (parsed?.ok && parsed.suffix)
      parts.push(`'${text}' carries ${MARKER_WORDS[parsed.marker ?? 'other']} ('${parsed.suffix.slice(1)}')`);
  }
  if (!parts.length) return undefined;
  return `${parts.join('; ')}: versions are compared on their numbers, and a marker is a state of the set, not a change to it`;
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
  /** What a suffix on either side marks (`-deprecated`, `-preview`), when one does: said, never a failure by itself. */
  note?: string;
}

export interface CheckOptions {
  /**
   * Versions with a suffix (`1.2.0-deprecated`, `-preview`) are compared on their numbers, the suffix
   * reported as the marker it is (the diff of files). Without it, a new version must be `#.#.#`: what the
   * service accepts (deploy).
   */
  markers?: boolean;
}

/**
 * The version check: when both sides have a version, the new one must be greater than the old one and
 * bumped at least as far as `required`; with no change at all (`none`), keeping the version is fine.
 * With `markers`, a version that gains, loses or changes its marker under the same numbers is the same
 * version in another state: words and metadata (a patch change) may come with it.
 */
export function checkVersions(
  oldText: string | undefined,
  newText: string | undefined,
  required: Bump,
  options: CheckOptions = {},
): VersionCheck {
  if (options.markers) return checkMarkedVersions(oldText, newText, required);
  const old = oldText === undefined ? undefined : parseVersion(oldText);
  const next = newText === undefined ? undefined : parseVersion(newText);
  const suggested = old?.ok ? formatVersion(nextVersion(old.version, required)) : undefined;
  if (next && !next.ok) return { ok: false, suggested, problem: `The new version ${next.problem}`, reason: 'newInvalid' };
  if (old && !old.ok) return { ok: null, suggested: undefined, problem: `The old version ${old.problem}`, reason: 'oldInvalid' };
  if (!old?.ok || !next?.ok) {
    const missing = !old && !next ? 'Neither side has a version' : !old ? 'The old side has no version' : 'The new side has no version';
    return {
      ok: null,
      suggested,
      problem: `${missing} (properties.version, a version resource's name or metadata.version): the bump is reported, not checked`,
      reason: 'missing',
    };
  }
  return compareChecked(oldText as string, old.version, newText as string, next.version, required, suggested, false);
}

function compareChecked(
  oldText: string,
  old: Version,
  newText: string,
  next: Version,
  required: Bump,
  suggested: string | undefined,
  markerChanged: boolean,
): VersionCheck {
  const order = compareVersions(next, old);
  if (required === 'none' && order >= 0) return { ok: true, suggested, problem: undefined };
  if (order === 0 && markerChanged && bumpRank(required) <= bumpRank('patch')) return { ok: true, suggested, problem: undefined };
  if (order <= 0) {
    return {
      ok: false,
      suggested,
      problem: `The new version '${newText}' is not greater than the old version '${oldText}': use ${suggested}`,
      reason: 'notGreater',
    };
  }
  const bumped = bumpBetween(old, next);
  if (bumpRank(bumped) < bumpRank(required)) {
    return {
      ok: false,
      suggested,
      problem: `The change needs a ${required} version, but '${oldText}' -> '${newText}' is a ${bumped} bump: use ${suggested}`,
      reason: 'notEnough',
    };
  }
  return { ok: true, suggested, problem: undefined };
}

function checkMarkedVersions(oldText: string | undefined, newText: string | undefined, required: Bump): VersionCheck {
  const old = oldText === undefined ? undefined : parseMarkedVersion(oldText);
  const next = newText === undefined ? undefined : parseMarkedVersion(newText);
  const note = markerNote(oldText, old, newText, next);
  const withNote = (check: VersionCheck): VersionCheck => (note ? { ...check, note } : check);
  const suggestedOf = (v: MarkedVersion | undefined) =>
    v?.ok ? formatVersion(nextVersion(v.version, required)) + (v.suffix ?? '') : undefined;
  const suggested = suggestedOf(old);
  if (next && !next.ok) return withNote({ ok: false, suggested, problem: `The new version ${next.problem}` });
  if (old && !old.ok) return withNote({ ok: null, suggested: undefined, problem: `The old version ${old.problem}` });
  if (!old?.ok || !next?.ok) {
    const missing = !old && !next ? 'Neither side has a version' : !old ? 'The old side has no version' : 'The new side has no version';
    return withNote({
      ok: null,
      suggested,
      problem: `${missing} (properties.version, a version resource's name or metadata.version): the bump is reported, not checked`,
    });
  }
  // The suggestion keeps the new side's marker: a set being deprecated stays marked.
  const suggestion = formatVersion(nextVersion(old.version, required)) + (next.suffix ?? '');
  return withNote(
    compareChecked(
      oldText as string,
      old.version,
      newText as string,
      next.version,
      required,
      suggestion,
      (old.suffix ?? '').toLowerCase() !== (next.suffix ?? '').toLowerCase(),
    ),
  );
}

import { compareSets, type ChangeReport, type CompareOptions } from './changes';
import { readSides, type ReadSides, type SetSide } from './side';

/**
 * Pairs the sets of two files: by the resource's name (the set part of a template's '<set>/<version>'),
 * else in order. A file holds one set nearly always; a template may hold several.
 */
export function pairSides(oldSides: SetSide[], newSides: SetSide[]): Array<[SetSide | undefined, SetSide | undefined]> {
  if (oldSides.length === 1 && newSides.length === 1) return [[oldSides[0], newSides[0]]];
  const setName = (side: SetSide) => side.name?.split('/')[0].toLowerCase();
  const left = [...oldSides];
  const matched = new Map<SetSide, SetSide>();
  // A template may hold one set several times (a variant per cloud, a deprecated copy beside its
  // successor): the same name and the same version first, then the same name in order.
  for (const sameVersion of [true, false]) {
    for (const next of newSides) {
      if (matched.has(next)) continue;
      const name = setName(next);
      const index = left.findIndex(
        (old) => setName(old) === name && (!sameVersion || (name !== undefined && old.version?.text === next.version?.text)),
      );
      if (index >= 0) matched.set(next, left.splice(index, 1)[0]);
    }
  }
  const pairs: Array<[SetSide | undefined, SetSide | undefined]> = newSides.map((next) => [matched.get(next), next]);
  for (const old of left) pairs.push([old, undefined]);
  return pairs;
}

export type CompareResult = { ok: true; reports: ChangeReport[] } | { ok: false; problem: string };

/** Compares two texts of one file (either may be absent: a file new in the change, or deleted by it). */
export function compareTexts(
  oldFile: { file: string; text: string } | undefined,
  newFile: { file: string; text: string } | undefined,
  options: CompareOptions = {},
): CompareResult {
  const read = (file: { file: string; text: string } | undefined): ReadSides =>
    file ? readSides(file.file, file.text) : { ok: true, sides: [] };
  const oldRead = read(oldFile);
  if (!oldRead.ok) return oldRead;
  const newRead = read(newFile);
  if (!newRead.ok) return newRead;
  return { ok: true, reports: pairSides(oldRead.sides, newRead.sides).map(([old, next]) => compareSets(old, next, options)) };
}

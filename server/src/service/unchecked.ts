import { stringValue } from './json';
import { customDefinitionName, isGuid, isTenantDefinitionId } from './definitionIds';
import { definitionsNamedBy, type DefinitionCatalog } from './definitions';
import type { SetModel } from './model/policySet';

/**
 * References whose definition was not checked (its parameters, allowed values, versions), and why: no
 * definitions of that kind were loaded, or the definition is not among those that were. A green run says
 * how much it did not check (docs/cli.md: checking built-ins out of the box).
 */
export interface UncheckedReferences {
  builtIn: { noDefinitions: number; notFound: number };
  custom: { noDefinitions: number; notFound: number };
}

export const noUnchecked = (): UncheckedReferences => ({
  builtIn: { noDefinitions: 0, notFound: 0 },
  custom: { noDefinitions: 0, notFound: 0 },
});

export function uncheckedTotal(u: UncheckedReferences): number {
  return u.builtIn.noDefinitions + u.builtIn.notFound + u.custom.noDefinitions + u.custom.notFound;
}

export function addUnchecked(into: UncheckedReferences, more: UncheckedReferences | undefined): UncheckedReferences {
  if (!more) return into;
  for (const kind of ['builtIn', 'custom'] as const) {
    into[kind].noDefinitions += more[kind].noDefinitions;
    into[kind].notFound += more[kind].notFound;
  }
  return into;
}

/** Counts the references of the sets to definitions that the catalogue could not check. */
export function uncheckedReferencesOf(sets: readonly SetModel[], catalog: DefinitionCatalog | undefined): UncheckedReferences {
  const counts = noUnchecked();
  for (const set of sets) {
    for (const reference of set.references) {
      const rawId = stringValue(reference.idNode);
      const id = rawId?.startsWith('[[') ? rawId.slice(1) : rawId;
      const name = stringValue(reference.nameNode);
      let kind: 'builtIn' | 'custom' | undefined;
      if (id !== undefined) {
        // A nested set, or an expression that names no definition: other rules speak of those.
        if (/\/policySetDefinitions\//i.test(id)) continue;
        if (customDefinitionName(id) !== undefined) kind = 'custom';
        else if (isTenantDefinitionId(id)) kind = 'builtIn';
      } else if (name !== undefined) kind = isGuid(name) ? 'builtIn' : 'custom';
      if (!kind) continue;
      const loaded = kind === 'builtIn' ? !!catalog?.hasBuiltIns : !!catalog && (catalog.customCount > 0 || catalog.unreadableCount > 0);
      if (!loaded) counts[kind].noDefinitions++;
      else if (!definitionsNamedBy(catalog, id, name, reference.idKey).length) counts[kind].notFound++;
    }
  }
  return counts;
}

/** One sentence: how many references were not checked, and why. */
export function describeUnchecked(u: UncheckedReferences): string | undefined {
  const total = uncheckedTotal(u);
  if (!total) return undefined;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const part = (n: number, what: string, noDefinitions: number, notFound: number, hint: string) => {
    if (!n) return undefined;
    const why = [
      noDefinitions ? `${noDefinitions} with none loaded${hint}` : '',
      notFound ? `${notFound} not found among those loaded` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `${n} to ${what} (${why})`;
  };
  const parts = [
    part(
      u.builtIn.noDefinitions + u.builtIn.notFound,
      'built-in definitions',
      u.builtIn.noDefinitions,
      u.builtIn.notFound,
      ': --definitions <index>, see policyset definitions index',
    ),
    part(
      u.custom.noDefinitions + u.custom.notFound,
      'custom definitions',
      u.custom.noDefinitions,
      u.custom.notFound,
      ': lint their files alongside, or --definitions <folder>',
    ),
  ].filter(Boolean);
  return `${plural(total, 'reference')} not checked against ${total === 1 ? 'its definition' : 'their definitions'}: ${parts.join('; ')}`;
}

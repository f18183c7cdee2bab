// The landing-zone library's default values (`alz_policy_default_values.json`) name assignments of the library
// (`*.alz_policy_assignment.json`, by their `name`) and parameters of the sets they assign. The library's
// assignment files are given by the host (ValidationOptions.libraryAssignments); this reads them once per run.
import type { DefinitionCatalog } from '../definitions';
import { parseJson, property, stringValue } from '../json';
import { LineIndex } from '../text';
import { consumersOf } from './recognise';
import { resolveConsumer, type ResolvedConsumer } from './resolve';

export interface LibraryAssignment {
  name: string;
  uri: string;
  /** Where its `name` is written. */
  at: { line: number; character: number };
  resolved: ResolvedConsumer;
}

const cache = new WeakMap<object, WeakMap<object, Map<string, LibraryAssignment[]>>>();
const NO_CATALOG = {};

/** The library's assignments by lowercased name (several files may hold one name: all are kept). */
export function libraryAssignmentsByName(
  files: { files: Array<{ uri: string; text: string }> },
  catalog: DefinitionCatalog | undefined,
): Map<string, LibraryAssignment[]> {
  let byCatalog = cache.get(files);
  if (!byCatalog) cache.set(files, (byCatalog = new WeakMap()));
  const key = catalog ?? NO_CATALOG;
  let found = byCatalog.get(key);
  if (found) return found;
  found = new Map();
  for (const file of files.files) {
    const parsed = parseJson(file.text);
    if (parsed.tooLarge || parsed.tooDeep) continue;
    const lines = new LineIndex(file.text);
    for (const consumer of consumersOf(parsed.root)) {
      if (consumer.shape !== 'assignment') continue;
      const nameNode = property(consumer.node, 'name');
      const name = stringValue(nameNode);
      if (!nameNode || name === undefined) continue;
      const entry = { name, uri: file.uri, at: lines.positionAt(nameNode.offset), resolved: resolveConsumer(consumer, catalog) };
      found.set(name.toLowerCase(), [...(found.get(name.toLowerCase()) ?? []), entry]);
    }
  }
  byCatalog.set(key, found);
  return found;
}

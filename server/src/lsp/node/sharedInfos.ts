// What a workspace file defines (a policy definition or a set, as DefinitionCatalog reads them), made once per
// file and bytes and shared by the two readers of the workspace: its known definitions (workspaceDefinitions.ts)
// and the workspace check (workspaceDependencies.ts). Each used to make and keep its own copy of every set's
// references and groups: 37 MiB each on a repository of 1,000 sets, most of what the server held once quiet.
import { createHash } from 'node:crypto';
import { DefinitionCatalog, type DefinitionInfo, type SetInfo } from '../../service';
import { isPolicyDefinition, isPolicySet } from '../../node/definitions';

export type Defined =
  | { definition: { info: DefinitionInfo; key: 'id' | 'name' } | undefined; set?: undefined }
  | { set: SetInfo | undefined; definition?: undefined }
  | { definition?: undefined; set?: undefined };

/**
 * By file: the hash of the bytes it was made of and what they define, held weakly (an entry's object lives as
 * long as a reader keeps it; the map keeps a path and a hash). A file that defines nothing is not remembered.
 */
const made = new Map<string, { hash: string; kind: 'definition' | 'set'; ref: WeakRef<object> }>();

export function bytesHash(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64');
}

/**
 * What the document of a file defines: the object another reader made of the same bytes when it is still held,
 * else made now from `value()` (the parsed document; called only then, and what it throws is the caller's).
 */
export function definedBy(file: string, hash: string, value: () => unknown): Defined {
  const known = made.get(file);
  if (known && known.hash === hash) {
    const object = known.ref.deref();
    if (object)
      return known.kind === 'definition'
        ? { definition: object as { info: DefinitionInfo; key: 'id' | 'name' } }
        : { set: object as SetInfo };
  }
  const document = value();
  if (isPolicyDefinition(document)) {
    const definition = DefinitionCatalog.definitionOf(document, file);
    remember(file, hash, 'definition', definition);
    return { definition };
  }
  if (isPolicySet(document)) {
    const set = DefinitionCatalog.setOf(document, file);
    remember(file, hash, 'set', set);
    return { set };
  }
  made.delete(file);
  return {};
}

function remember(file: string, hash: string, kind: 'definition' | 'set', object: object | undefined): void {
  if (object) made.set(file, { hash, kind, ref: new WeakRef(object) });
  else made.delete(file);
}

// What a `field` reads of a resource: the top-level fields the service names (name, fullName, kind, type,
// location, id, identity.type, tags, tags['x']), or an alias. An alias resolves through the caller's alias
// catalogue, else the bundled one (bundledAliases.json: the aliases of a resource type whose path the
// mechanical rule does not give), else by the mechanical rule (`<type>/<a.b>` -> `properties.a.b`, `[*]` for
// every member, a member's own `properties` looked into). An alias none resolves is reported, never read as a
// raw path.
import { isExpression } from './expression';
import { Unknown, getIgnoreCase, isObject, type Json, type JsonObject, type Resource } from './types';

/** A path into the resource: property names, '*' for every member of an array. */
export type Path = string[];

export interface ResolvedField {
  /** The path read from the root (undefined for the computed fields: name, fullName). */
  path?: Path;
  computed?: Json | undefined;
  /** How it was resolved, for the trace. */
  how: 'top-level' | 'catalogue' | 'bundled' | 'mechanical';
}

interface BundledCatalogue {
  types: Record<string, Record<string, string>>;
}

let bundled: Map<string, Map<string, string>> | undefined;

/** The bundled catalogue's path of an alias on a resource type (the same alias reads another path on another type). */
export function bundledAliasPath(type: string, alias: string): string | undefined {
  if (!bundled) {
    // Loaded on first use: the data is inlined in the bundles (and the web worker's), parsed only when an alias is read.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- JSON data, read when first asked for
    const data = require('./bundledAliases.json') as BundledCatalogue;
    bundled = new Map(
      Object.entries(data.types).map(([t, aliases]) => [
        t.toLowerCase(),
        new Map(Object.entries(aliases).map(([name, path]) => [name.toLowerCase(), path])),
      ]),
    );
  }
  return bundled.get(type.toLowerCase())?.get(alias.toLowerCase());
}

const TOP_LEVEL_ALIAS_ROOTS = new Set(['sku', 'identity', 'plan', 'zones', 'extendedlocation', 'managedby', 'kind', 'location', 'tags']);

/** 'properties.a[*].b' -> ['properties', 'a', '*', 'b']. */
export function splitPath(text: string): Path {
  const out: Path = [];
  for (const part of text.split('.')) {
    const match = /^(.*?)((\[\*\])*)$/.exec(part);
    const name = match ? match[1] : part;
    if (name) out.push(name);
    for (let i = 0; match && i < match[2].length / 3; i++) out.push('*');
  }
  return out;
}

/** The name and full name of a resource: a child's name in a template is 'parent/child'. */
export function namesOf(resource: Resource): { name?: string; fullName?: string } {
  const name = typeof resource.name === 'string' ? resource.name : undefined;
  if (name?.includes('/')) return { name: name.split('/').pop(), fullName: name };
  const id = typeof resource.id === 'string' ? resource.id : undefined;
  const providers = id ? id.split('/providers/').pop() : undefined;
  if (providers && name) {
    const segments = providers.split('/').slice(1);
    const names = segments.filter((_, i) => i % 2 === 1);
    if (names.length > 1 && names[names.length - 1].toLowerCase() === name.toLowerCase()) return { name, fullName: names.join('/') };
  }
  return { name, fullName: name };
}

function tagField(field: string): string | undefined {
  const match = /^tags(?:\[\s*'((?:[^']|'')*)'\s*\]|\.(.+)|\[([^\]']+)\])$/i.exec(field);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/''/g, "'") : (match[2] ?? match[3]);
}

/** Resolves a field name for a resource of a type; throws Unknown when it cannot be resolved. */
export function resolveField(field: string, resource: Resource, aliases?: Map<string, string>): ResolvedField {
  const lower = field.toLowerCase();
  if (lower === 'name' || lower === 'fullname')
    return { computed: namesOf(resource)[lower === 'name' ? 'name' : 'fullName'], how: 'top-level' };
  if (['type', 'kind', 'location', 'id', 'tags'].includes(lower)) return { path: [lower], how: 'top-level' };
  if (lower.startsWith('identity.')) return { path: splitPath(field), how: 'top-level' };
  const tag = tagField(field);
  if (tag !== undefined) return { path: ['tags', tag], how: 'top-level' };
  const type = typeof resource.type === 'string' ? resource.type : '';
  const fromCatalogue = aliases?.get(typedKey(type, lower)) ?? aliases?.get(lower);
  if (fromCatalogue !== undefined) return { path: splitPath(fromCatalogue), how: 'catalogue' };
  if (!field.includes('/')) throw new Unknown(`'${field}' is neither a field the service names nor an alias`);
  const fromBundled = type ? bundledAliasPath(type, field) : undefined;
  if (fromBundled !== undefined) return { path: splitPath(fromBundled), how: 'bundled' };
  return mechanicalField(field, resource);
}

/** The mechanical rule alone: `<type>/<a.b>` -> `properties.a.b` (top-level `sku.*`, ... when the resource has them). */
export function mechanicalField(field: string, resource: Resource): ResolvedField {
  const type = typeof resource.type === 'string' ? resource.type : '';
  const rest = type && field.toLowerCase().startsWith(type.toLowerCase() + '/') ? field.slice(type.length + 1) : undefined;
  if (rest === undefined || rest.includes('/') || rest === '') {
    throw new Unknown(
      `the alias '${field}' is not of the resource's type '${type || '(none)'}' and no alias catalogue (given or bundled) names it`,
    );
  }
  const path = splitPath(rest);
  if (TOP_LEVEL_ALIAS_ROOTS.has(path[0].toLowerCase()) && getIgnoreCase(resource, path[0]) !== undefined)
    return { path, how: 'mechanical' };
  return { path: ['properties', ...path], how: 'mechanical' };
}

/** One step into a value: the key, or the key inside a member's own `properties` (the API's nesting). */
function step(value: Json | undefined, key: string, lenient: boolean): Json | undefined {
  if (!isObject(value)) return undefined;
  const direct = getIgnoreCase(value, key);
  if (direct !== undefined || !lenient) return direct;
  const inner = getIgnoreCase(value, 'properties');
  return isObject(inner) ? getIgnoreCase(inner, key) : undefined;
}

export interface Read {
  /** true when the path has '*': `values` are every member's value. */
  multi: boolean;
  values: Array<Json | undefined>;
}

/** Reads a path from a value (a resource, or an array member under count); from `lenientFrom` on, a member's own `properties` is looked into. */
export function readPath(root: Json | undefined, path: Path, lenientFrom = Infinity): Read {
  let current: Array<Json | undefined> = [root];
  let multi = false;
  path.forEach((key, i) => {
    if (key === '*') {
      multi = true;
      current = current.flatMap((v) => (Array.isArray(v) ? v : []));
    } else current = current.map((v) => step(v, key, i >= lenientFrom));
  });
  for (const v of current) {
    if (isExpression(v))
      throw new Unknown(`the resource's value '${v}' at '${path.join('.')}' is a template expression, not evaluated offline`);
  }
  return { multi, values: current };
}

/** The value of a resolved field on a resource. */
export function readField(resolved: ResolvedField, resource: JsonObject): Read {
  if (!resolved.path) {
    if (isExpression(resolved.computed))
      throw new Unknown(`the resource's name '${resolved.computed}' is a template expression, not evaluated offline`);
    return { multi: false, values: [resolved.computed] };
  }
  return readPath(resource, resolved.path, resolved.how === 'top-level' ? Infinity : 1);
}

/** A catalogue's key for an alias on one resource type (the same alias reads another path on another type). */
const typedKey = (type: string, alias: string) => `${type.toLowerCase()}|${alias.toLowerCase()}`;

/**
 * Reads an alias catalogue: `az provider list --expand resourceTypes/aliases` output, or `{ alias: path }`.
 * The service's list names each alias under its resource type: those are kept by type (`<type>|<alias>`), and by
 * name alone (the last type listed) for a resource of a type the list does not name.
 */
export function aliasCatalogue(document: unknown): Map<string, string> {
  const map = new Map<string, string>();
  const add = (alias: unknown, path: unknown, type?: string) => {
    if (typeof alias !== 'string' || typeof path !== 'string') return;
    map.set(alias.toLowerCase(), path);
    if (type) map.set(typedKey(type, alias), path);
  };
  const providers = Array.isArray(document) ? document : isObject(document) && Array.isArray(document.value) ? document.value : undefined;
  if (!providers) {
    if (isObject(document)) for (const [alias, path] of Object.entries(document)) add(alias, path);
    return map;
  }
  for (const provider of providers) {
    const types = isObject(provider) && Array.isArray(provider.resourceTypes) ? provider.resourceTypes : [];
    const namespace = isObject(provider) && typeof provider.namespace === 'string' ? provider.namespace : undefined;
    for (const type of types) {
      const aliases = isObject(type) && Array.isArray(type.aliases) ? type.aliases : [];
      const typeName =
        namespace && isObject(type) && typeof type.resourceType === 'string' ? `${namespace}/${type.resourceType}` : undefined;
      for (const alias of aliases) {
        if (!isObject(alias)) continue;
        const paths = Array.isArray(alias.paths) ? alias.paths : [];
        const first = paths.find(isObject);
        add(alias.name, typeof alias.defaultPath === 'string' ? alias.defaultPath : first?.path, typeName);
      }
    }
  }
  return map;
}

import { cloudOfPath, DEFAULT_CLOUD } from './definitions';

/**
 * One entry of a definitions index: the shape of the corpus's builtin-policy-definitions-index.json, which
 * `--definitions <index>` reads (DefinitionCatalog.addIndex). What the rules read of a definition, without
 * its rule: a few hundred bytes instead of its file.
 */
export interface IndexEntry {
  name: string;
  id: string;
  version?: string;
  versions?: string[];
  parameters: Record<string, { type?: string; allowedValues?: unknown[]; defaultValue?: unknown; strongType?: string }>;
  displayName?: string;
  cloud: string;
  category?: string;
  deprecated?: true;
  preview?: true;
  /** `"Version"` when the file spells the key `properties.Version`. */
  versionPropertyName?: 'Version';
  sourcePath: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The index entry of a policy definition document, or undefined when it is not one (no `properties.policyRule`,
 * no name). `sourcePath` is the file's path as the index should name it (relative, `/` separated); the cloud
 * is read from it (the vendor keeps US Government variants under an `Azure Government` folder).
 */
export function indexEntryOf(document: unknown, sourcePath: string): IndexEntry | undefined {
  if (!isObject(document) || !isObject(document['properties']) || document['properties']['policyRule'] === undefined) return undefined;
  const properties = document['properties'];
  const id = asString(document['id']);
  const name = asString(document['name']) ?? (id ? id.slice(id.lastIndexOf('/') + 1) : undefined);
  if (!name) return undefined;
  const metadata = isObject(properties['metadata']) ? properties['metadata'] : {};
  const spelledUpper = properties['version'] === undefined && typeof properties['Version'] === 'string';
  const version = asString(properties['version']) ?? asString(properties['Version']) ?? asString(metadata['version']);
  const versions = Array.isArray(properties['versions']) ? properties['versions'].filter((v): v is string => typeof v === 'string') : [];
  const parameters: IndexEntry['parameters'] = {};
  if (isObject(properties['parameters'])) {
    for (const [key, raw] of Object.entries(properties['parameters'])) {
      if (!isObject(raw)) continue;
      const parameterMetadata = isObject(raw['metadata']) ? raw['metadata'] : {};
      const strongType = asString(parameterMetadata['strongType']) ?? asString(raw['strongType']);
      parameters[key] = {
        ...(typeof raw['type'] === 'string' ? { type: raw['type'] } : {}),
        ...(Array.isArray(raw['allowedValues']) ? { allowedValues: raw['allowedValues'] } : {}),
        ...('defaultValue' in raw ? { defaultValue: raw['defaultValue'] } : {}),
        ...(strongType ? { strongType } : {}),
      };
    }
  }
  const displayName = asString(properties['displayName']);
  // A file without its ID: a built-in (policyType BuiltIn) is at tenant level; any other is a custom
  // definition whose scope is given when it is deployed (`{scope}`, found by name as custom IDs are).
  const builtIn = asString(properties['policyType'])?.toLowerCase() === 'builtin';
  const fullId =
    id ??
    (builtIn
      ? `/providers/Microsoft.Authorization/policyDefinitions/${name}`
      : `{scope}/providers/Microsoft.Authorization/policyDefinitions/${name}`);
  const category = asString(metadata['category']);
  return {
    name,
    id: fullId,
    ...(version ? { version } : {}),
    ...(versions.length ? { versions } : version ? { versions: [version] } : {}),
    parameters,
    ...(displayName !== undefined ? { displayName } : {}),
    cloud: cloudOfPath(sourcePath) ?? DEFAULT_CLOUD,
    ...(category !== undefined ? { category } : {}),
    ...(metadata['deprecated'] === true ? { deprecated: true as const } : {}),
    ...(metadata['preview'] === true ? { preview: true as const } : {}),
    ...(spelledUpper ? { versionPropertyName: 'Version' as const } : {}),
    sourcePath,
  };
}

/** Entries in a stable order: by ID (case-insensitively), then cloud, then path. */
export function sortIndex(entries: IndexEntry[]): IndexEntry[] {
  const key = (e: IndexEntry) => `${e.id.toLowerCase()}\u0000${e.cloud}\u0000${e.sourcePath}`;
  return [...entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

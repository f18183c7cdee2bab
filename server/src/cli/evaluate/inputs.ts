// The files `policyset evaluate` and `policyset test` read: the set or definition, the definitions it
// references, resources, an assignment, exemptions, an alias catalogue, a context. Every read goes through
// the one bounded reader (node/files.ts); a file that is not what it should be is an InputError (exit 2).
import * as path from 'node:path';
import { decodeText, namedBy, relatedIn, resourcesOf, type EvaluationContext, type Resource } from '../../service';
import { aliasCatalogue } from '../../service';
import { InputError, readUserFile, type FileKind } from '../../node/files';
import { parseDocumentText } from '../../node/definitions';
import { definitionNotes, resolveDefinitionSources } from '../../node/definitions';
import type { JsonObject } from '../../service';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON (or JSONC) file's value, its name in the error when it is not JSON. */
export async function readJson(file: string, what: string, kind: FileKind = 'document'): Promise<unknown> {
  const bytes = await readUserFile(file, kind);
  try {
    return parseDocumentText(decodeText(bytes).text);
  } catch (error) {
    throw new InputError(`${what} '${file}' is not valid JSON: ${(error as Error).message}`);
  }
}

const hasRule = (value: unknown): value is JsonObject =>
  isObject(value) && (isObject(value.properties) ? isObject(value.properties.policyRule) : isObject(value.policyRule));
const isSetDocument = (value: unknown): value is JsonObject =>
  isObject(value) && isObject(value.properties) && Array.isArray(value.properties.policyDefinitions);

/** The set or definition to evaluate. */
export async function readTarget(file: string): Promise<JsonObject> {
  const value = await readJson(file, 'the set or definition');
  if (!hasRule(value) && !isSetDocument(value))
    throw new InputError(`'${file}' is neither a policy definition (with a policyRule) nor a policy set`);
  return value;
}

/** The definitions read from --definitions: the full ones (with their rules), and the IDs and names an index only describes. */
export interface Definitions {
  documents: JsonObject[];
  /** Lowercased IDs and names of index entries: parameters only, no policy rule to evaluate. */
  indexOnly: Set<string>;
  /** What the walk of the definitions' folders passed over, to be said. */
  notes: string[];
}

/** The full definitions (with their rules) in the --definitions paths: files, folders, arrays of definitions. */
export async function readDefinitions(paths: string[]): Promise<Definitions> {
  const found: Definitions = { documents: [], indexOnly: new Set(), notes: [] };
  if (!paths.length) return found;
  const sources = await resolveDefinitionSources(paths);
  found.notes.push(...definitionNotes(sources));
  for (const file of sources.indexFiles) {
    const value = await readJson(file, '--definitions', 'definitions');
    const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.definitions) ? value.definitions : [value];
    for (const item of list) {
      if (hasRule(item)) found.documents.push(item);
      else if (isObject(item)) for (const key of [item.id, item.name]) if (typeof key === 'string') found.indexOnly.add(key.toLowerCase());
    }
    if (!list.some(isObject)) throw new InputError(`--definitions: '${file}' holds no policy definition`);
  }
  for (const file of sources.definitionFiles) {
    try {
      const value = await readJson(file, '--definitions', 'definitions');
      // A definition file without its name or ID goes by its file name (as the policy-as-code layouts keep them).
      if (hasRule(value))
        found.documents.push(
          typeof value.name === 'string' || typeof value.id === 'string'
            ? value
            : { ...value, name: path.basename(file).replace(/\.jsonc?$/i, '') },
        );
    } catch {
      // A broken file in a folder of definitions is not a definition; a member that needs it is reported unknown.
    }
  }
  return found;
}

/** Why a member's definition is missing: not given, or given by an index that has no rules. */
export function missingReason(definitions: Definitions): (id: string) => string {
  return (id) => {
    const lower = id.toLowerCase();
    const name = lower.replace(/\/+$/, '').split('/').pop() ?? lower;
    if (definitions.indexOnly.has(lower) || definitions.indexOnly.has(name))
      return `the definition '${id}' is known from an index only (its parameters, no policy rule): give its definition file with --definitions`;
    return `the definition '${id}' was not found (give it with --definitions)`;
  };
}

export function definitionFinder(definitions: JsonObject[]): (id: string) => JsonObject | undefined {
  return (id) => definitions.find((d) => namedBy(d, id));
}

/** A resource file's resources, and the related ones a wrapper names beside them. */
export async function readResourceFile(file: string, what: string): Promise<{ resources: Resource[]; related: Resource[] }> {
  const document = (await readJson(file, what)) as never;
  const resources = resourcesOf(document);
  if (!resources.length) throw new InputError(`${what} '${file}' holds no resource`);
  return { resources, related: relatedIn(document) };
}

export async function readResources(file: string, what: string): Promise<Resource[]> {
  const { resources, related } = await readResourceFile(file, what);
  return [...resources, ...related];
}

export async function readObject(file: string, what: string): Promise<JsonObject> {
  const value = await readJson(file, what);
  if (!isObject(value)) throw new InputError(`${what} '${file}' is not a JSON object`);
  return value;
}

/** Exemptions: one exemption, or an array of them. */
export async function readExemptions(files: string[]): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for (const file of files) {
    const value = await readJson(file, '--exemptions');
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isObject(item)) throw new InputError(`--exemptions '${file}' holds something that is not an exemption`);
      out.push(item);
    }
  }
  return out;
}

export async function readAliases(file: string | undefined): Promise<Map<string, string> | undefined> {
  if (!file) return undefined;
  const map = aliasCatalogue(await readJson(file, '--aliases', 'definitions'));
  if (!map.size)
    throw new InputError(
      `--aliases '${file}' holds no alias (give the output of 'az provider list --expand resourceTypes/aliases', or { "alias": "path" })`,
    );
  return map;
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The evaluation's context: a context file's subscription, resourceGroup, apiVersion and now; --now wins. */
export function contextOf(file: JsonObject | undefined, now: string | undefined): EvaluationContext {
  const context: EvaluationContext = {};
  if (file) {
    if (isObject(file.subscription)) context.subscription = file.subscription;
    if (isObject(file.resourceGroup)) context.resourceGroup = file.resourceGroup;
    if (typeof file.apiVersion === 'string') context.apiVersion = file.apiVersion;
    if (typeof file.now === 'string') context.now = file.now;
  }
  if (now !== undefined) context.now = now;
  if (context.now !== undefined && !DATE.test(context.now))
    throw new InputError(`the clock '${context.now}' is not an ISO 8601 date-time (2026-01-31T12:00:00Z)`);
  return context;
}

import { findNodeAtLocation, type JSONPath } from 'jsonc-parser';
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Range } from 'vscode-languageserver-types';
import { bundledSchema } from '../schema/schemas';
import type { Node } from '../json';
import type { DocumentKind } from '../model/documentKind';

/**
 * Property keys and enum values from our schemas, read from the document's own tree: no second parse of
 * the text (the JSON language service would parse it again on every edit, which costs more on a large
 * set than everything else that completion does). The schemas use a small subset of JSON Schema:
 * properties, additionalProperties, items, local $refs, enum, type, description.
 */
interface Schema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  $ref?: string;
  definitions?: Record<string, Schema>;
}

type SchemaKind = 'policySetDefinition' | 'policySetDefinitionVersion' | 'workspaceItem';
const SCHEMA_KINDS: readonly string[] = ['policySetDefinition', 'policySetDefinitionVersion', 'workspaceItem'];
const schemas = new Map<SchemaKind, Schema>();

function rootSchema(kind: DocumentKind): Schema | undefined {
  if (!SCHEMA_KINDS.includes(kind)) return undefined;
  let schema = schemas.get(kind as SchemaKind);
  if (!schema) {
    schema = bundledSchema(kind as SchemaKind) as Schema;
    schemas.set(kind as SchemaKind, schema);
  }
  return schema;
}

function resolve(root: Schema, schema: Schema | undefined): Schema | undefined {
  for (let i = 0; schema?.$ref && i < 32; i++) {
    const match = /^#\/definitions\/(.+)$/.exec(schema.$ref);
    schema = match ? root.definitions?.[decodeURIComponent(match[1])] : undefined;
  }
  return schema;
}

/** The property of a schema's `properties` that a key names: the service reads keys case-insensitively. */
function propertyOf(schema: Schema, key: string): Schema | undefined {
  const properties = schema.properties ?? {};
  if (Object.prototype.hasOwnProperty.call(properties, key)) return properties[key];
  const lower = key.toLowerCase();
  const found = Object.keys(properties).find((k) => k.toLowerCase() === lower);
  return found !== undefined
    ? properties[found]
    : typeof schema.additionalProperties === 'object'
      ? schema.additionalProperties
      : undefined;
}

function schemaAt(root: Schema, path: JSONPath): Schema | undefined {
  let schema = resolve(root, root);
  for (const segment of path) {
    if (!schema) return undefined;
    schema = resolve(root, typeof segment === 'number' ? schema.items : propertyOf(schema, segment));
  }
  return schema;
}

const typesOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** What a new property's value starts as, by its type. */
function valueSnippet(schema: Schema | undefined): string {
  const [type] = schema ? typesOf(schema) : [];
  if (schema?.enum?.length) return '${1|' + schema.enum.map((v) => JSON.stringify(v).replace(/[,|}\\$]/g, '\\$&')).join(',') + '|}';
  switch (type) {
    case 'object':
      return '{$1}';
    case 'array':
      return '[$1]';
    case 'string':
      return '"$1"';
    case 'boolean':
      return '${1|true,false|}';
    case 'integer':
    case 'number':
      return '${1:0}';
    default:
      return '$1';
  }
}

export interface SchemaCompletionContext {
  kind: DocumentKind;
  root: Node | undefined;
  text: string;
  path: JSONPath;
  atKey: boolean;
  /** The string token the cursor is in, quotes included. */
  inString: { start: number; end: number } | undefined;
  offset: number;
  range(start: number, end: number): Range;
}

export function schemaCompletions(where: SchemaCompletionContext): CompletionItem[] {
  const root = rootSchema(where.kind);
  if (!root) return [];
  const [start, end] = where.inString ? [where.inString.start, where.inString.end] : [where.offset, where.offset];
  const range = where.range(start, end);
  const documentation = (schema: Schema | undefined) =>
    schema?.description ? { kind: MarkupKind.Markdown, value: schema.description } : undefined;

  if (where.atKey) {
    const objectPath = where.path.slice(0, -1);
    const schema = schemaAt(root, objectPath);
    if (!schema?.properties) return [];
    const objectNode = where.root && (objectPath.length ? findNodeAtLocation(where.root, objectPath) : where.root);
    const present = new Set<string>();
    for (const prop of objectNode?.type === 'object' ? (objectNode.children ?? []) : []) {
      const keyNode = prop.children?.[0];
      // The key being typed is not "present".
      if (keyNode && !(where.inString && keyNode.offset === where.inString.start)) present.add(String(keyNode.value).toLowerCase());
    }
    // Another property follows: the new one needs a comma.
    const rest = where.text.slice(end, end + 200);
    const comma = /^\s*"/.test(rest) ? ',' : '';
    const hasValue = /^\s*:/.test(rest);
    return Object.entries(schema.properties)
      .filter(([key]) => !present.has(key.toLowerCase()))
      .map(([key, property]) => {
        const resolved = resolve(root, property);
        return {
          label: key,
          kind: CompletionItemKind.Property,
          documentation: documentation(resolved),
          filterText: JSON.stringify(key),
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: { range, newText: hasValue ? JSON.stringify(key) : `${JSON.stringify(key)}: ${valueSnippet(resolved)}${comma}` },
        };
      });
  }

  const schema = schemaAt(root, where.path);
  if (!schema) return [];
  const values = schema.enum ?? (typesOf(schema).includes('boolean') ? [true, false] : []);
  return values.map((value) => {
    const text = JSON.stringify(value);
    return {
      label: text,
      kind: CompletionItemKind.Value,
      documentation: documentation(schema),
      filterText: text,
      textEdit: { range, newText: text },
    };
  });
}

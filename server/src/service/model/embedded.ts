import { parseTree, type ParseError } from 'jsonc-parser';
import { entries, property, type Node } from '../json';
import { classify } from './documentKind';

/**
 * A set kept as a string of JSON in a template variable: what Bicep's `loadTextContent()` and
 * `loadJsonContent()` compile to (`variables['$fxv#0']` holds the text of a set file, and a resource's
 * properties read it back with `[json(variables('$fxv#0'))]` or through a copy loop). The template's own
 * set resource is then all expressions; the sets are in the strings.
 */
export interface EmbeddedSet {
  /** The variable's name (`$fxv#0`). */
  variable: string;
  /** The variable's string node in the template: where anything found inside it is shown. */
  node: Node;
  /** The set file's text, as the string holds it (JSON escapes undone), or the object's own text. */
  text: string;
  /** An object variable (what `loadJsonContent()` may compile to): its text is the template's own, from here. */
  offset?: number;
}

/** Cheap signs that a string holds a set (most template strings are expressions or words). */
const SET_SIGN = /"policyDefinitions"|\.Authorization\/policySetDefinitions"/i;

/**
 * The sets embedded as strings in a template's `variables` (only in a deployment template: a document
 * with a `$schema` of a deployment template, or `resources` and `contentVersion`). Strings that are not
 * JSON, or JSON that is no set, are not sets.
 */
export function embeddedSets(root: Node | undefined, templateText?: string): EmbeddedSet[] {
  if (root?.type !== 'object') return [];
  const schema = property(root, '$schema');
  const isTemplate =
    (schema?.type === 'string' && /deploymentTemplate\.json#?$/i.test(String(schema.value))) ||
    (property(root, 'resources') !== undefined && property(root, 'contentVersion') !== undefined);
  if (!isTemplate) return [];
  const found: EmbeddedSet[] = [];
  for (const entry of entries(property(root, 'variables'))) {
    const node = entry.valueNode;
    if (node?.type === 'object' && templateText !== undefined) {
      const classification = classify(node);
      if (classification.resources.length && classification.kind !== 'unknown')
        found.push({ variable: entry.key, node, text: templateText.slice(node.offset, node.offset + node.length), offset: node.offset });
      continue;
    }
    if (node?.type !== 'string' || typeof node.value !== 'string' || !SET_SIGN.test(node.value)) continue;
    const text = node.value;
    if (!/^\s*\{/.test(text)) continue;
    const errors: ParseError[] = [];
    const inner = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length || !inner) continue;
    const classification = classify(inner);
    if (
      classification.resources.length &&
      (classification.kind === 'policySetDefinition' ||
        classification.kind === 'policySetDefinitionVersion' ||
        classification.kind === 'armTemplate')
    ) {
      found.push({ variable: entry.key, node, text });
    }
  }
  return found;
}

/**
 * Whether a template's set resource is only a reader of embedded sets: its `properties` (or their
 * `policyDefinitions`) is an expression, so the set it deploys is one of the strings.
 */
export function readsEmbedded(resource: Node): boolean {
  const properties = property(resource, 'properties');
  if (properties?.type === 'string') return /^\[/.test(String(properties.value));
  const definitions = property(properties, 'policyDefinitions');
  return definitions?.type === 'string' && /^\[(?!\[)/.test(String(definitions.value));
}

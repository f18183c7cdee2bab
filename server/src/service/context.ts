import type { ErrorObject } from 'ajv';
import { nodeAtPointer, type Node, type ParsedJson } from './json';
import type { Classification } from './model/documentKind';
import type { SetModel, ReferenceModel } from './model/policySet';
import type { DefinitionCatalog, DefinitionInfo } from './definitions';
import { validateAgainst } from './schema/schemas';

export interface SchemaError {
  error: ErrorObject;
  node: Node;
}

export interface ValidationOptions {
  /** Known policy definitions, for the checks of referenced definitions. */
  definitions?: DefinitionCatalog;
  /**
   * The cloud whose definitions win when an index holds several variants of one ('AzureCloud',
   * 'AzureUSGovernment'); default AzureCloud. See cloudOfPath.
   */
  cloud?: string;
  /** Set when the bytes the text came from were not valid UTF-8 (see decodeUtf8). */
  encodingProblem?: { offset: number; byteOffset: number; byte: number };
}

/** What the rules see: the parsed document, its model, and analyses shared between rules (computed once). */
export interface ValidationContext {
  text: string;
  parsed: ParsedJson;
  classification: Classification;
  sets: SetModel[];
  options: ValidationOptions;
  /** Schema errors of one set (ajv, all errors) with the node each is about; errors on deployment-time values are dropped. */
  schemaErrors(set: SetModel): SchemaError[];
  /** Variants of the referenced definition, when it is known. */
  definitionsOf(reference: ReferenceModel): DefinitionInfo[];
}

export function createValidationContext(
  parsed: ParsedJson,
  classification: Classification,
  sets: SetModel[],
  options: ValidationOptions,
): ValidationContext {
  const schemaCache = new Map<SetModel, SchemaError[]>();
  const definitionCache = new Map<ReferenceModel, DefinitionInfo[]>();
  const value = parsed.value();
  return {
    text: parsed.text,
    parsed,
    classification,
    sets,
    options,
    schemaErrors(set) {
      let errors = schemaCache.get(set);
      if (!errors) {
        errors = [];
        for (const error of validateSet(set, value)) {
          const node = nodeAtPointer(parsed.root, error.instancePath);
          if (node && !set.isDynamic(node)) errors.push({ error, node });
        }
        schemaCache.set(set, errors);
      }
      return errors;
    },
    definitionsOf(reference) {
      let found = definitionCache.get(reference);
      if (!found) {
        const id = reference.idNode?.type === 'string' ? (reference.idNode.value as string) : undefined;
        found = id && reference.idKey && options.definitions ? options.definitions.lookup(id, reference.idKey) : [];
        definitionCache.set(reference, found);
      }
      return found;
    },
  };
}

/** Paths from the document root to a node, as JSON pointer segments. */
function pointerOf(node: Node): string {
  const segments: string[] = [];
  let current: Node | undefined = node;
  while (current?.parent) {
    const parent: Node = current.parent;
    if (parent.type === 'property') {
      segments.push(String(parent.children![0].value));
      current = parent.parent;
    } else if (parent.type === 'array') {
      segments.push(String(parent.children!.indexOf(current)));
      current = parent;
    } else {
      current = parent;
    }
  }
  return segments.reverse().map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function valueAtPointer(value: unknown, pointer: string): unknown {
  let current = value;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function validateSet(set: SetModel, documentValue: unknown): ErrorObject[] {
  if (set.inTemplate) {
    // In a template, only the properties are ours to check; the resource envelope is the template's.
    if (!set.properties) return [];
    const pointer = pointerOf(set.properties);
    const errors = validateAgainst(set.kind === 'policySetDefinition' ? 'setProperties' : 'versionProperties', valueAtPointer(documentValue, pointer));
    return errors.map((e) => ({ ...e, instancePath: pointer + e.instancePath }));
  }
  return validateAgainst(set.kind, documentValue);
}

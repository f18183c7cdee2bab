import { getLocation, findNodeAtLocation, findNodeAtOffset, type JSONPath } from 'jsonc-parser';
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type Range,
} from 'vscode-languageserver-types';
import { entries, items, property, propertyIgnoreCase, stringValue, type Node } from '../json';
import { modelOfResource, PARAMETER_TYPES, type SetModel } from '../model/policySet';
import { classify } from '../model/documentKind';
import { ITEM_ONLY_KEYS, ITEM_TYPES } from '../model/itemTypes';
import { STRONG_TYPES } from '../data/strongTypes';
import {
  definitionsNamedBy,
  newestVersionFirst,
  variantFor,
  type DefinitionCatalog,
  type DefinitionInfo,
  type DefinitionParameter,
} from '../definitions';
import type { PolicyDocument } from '../validate';
import { schemaCompletions } from './schemaCompletion';
import { planCompletions } from './deploymentPlan';
import { asDefinition, consumerAt, consumerParametersAt, declarationsOfConsumer } from './consumerParameters';
import type { TargetDeclaration } from '../consumers';
import type { CapacityTable } from '../quota/capacity';

export interface CompletionOptions {
  /** Known policy definitions: the parameters and versions of referenced definitions. */
  definitions?: DefinitionCatalog;
  /** The cloud whose variant of a definition wins ('AzureCloud' by default), as in validation. */
  cloud?: string;
  /** For deployment plans: the capacity-unit table (built in when absent). */
  quota?: { table?: CapacityTable };
}

/** The characters after which an editor should ask for completions. */
export const COMPLETION_TRIGGER_CHARACTERS = ['"', "'", ':', '(', '[', ','];

// ---- Where the cursor is ---------------------------------------------------------------------

/**
 * Where the cursor is: the path of keys and indexes to it, whether it is on a property key, the token
 * just before or around it, and the string it is inside, if any. From the tree when the text parses
 * (a descent: fast anywhere in a large document); otherwise from jsonc-parser's scanner, which works on
 * any text however broken.
 */
interface Where {
  offset: number;
  text: string;
  path: JSONPath;
  atKey: boolean;
  /** The key or scalar value the cursor is in or right after. */
  previous: { offset: number; length: number } | undefined;
  /** The string token (key or value) the cursor is inside: [start, end) of the token, quotes included. */
  inString: { start: number; end: number; closed: boolean } | undefined;
}

function locate(document: PolicyDocument, offset: number): Where {
  const text = document.parsed.text;
  const root = document.parsed.root;
  const fromTree = root && document.parsed.syntaxErrors.length === 0 ? locateInTree(root, text, offset) : undefined;
  let path: JSONPath;
  let atKey: boolean;
  let previous: Where['previous'];
  let repairable = false;
  if (fromTree) {
    ({ path, atKey, previous } = fromTree);
  } else {
    const location = getLocation(text, offset);
    path = location.path;
    previous = location.previousNode;
    // The scanner leaves isAtPropertyKey set in an array after an object item: only a key segment is a key.
    atKey = location.isAtPropertyKey && typeof path[path.length - 1] === 'string';
    repairable = true;
  }
  let inString: Where['inString'];
  if (previous && text[previous.offset] === '"') {
    const start = previous.offset;
    const end = previous.offset + previous.length;
    const closed = previous.length >= 2 && text[end - 1] === '"' && !isEscaped(text, end - 1, start);
    if (offset > start && (offset < end || (offset === end && !closed))) inString = { start, end, closed };
  }
  if (repairable) {
    // After a syntax error (a half-typed key on an earlier line, a missing comma) the parser's recovery can
    // lose the key the cursor's value belongs to: the `"key": ` before the cursor on its own line decides.
    const repaired = keyBeforeCursor(text, offset);
    if (repaired && path.length && (atKey || path[path.length - 1] !== repaired.key)) {
      path = [...path.slice(0, -1), repaired.key];
      atKey = false;
      inString = repaired.inString;
    }
  }
  return { offset, text, path, atKey, previous, inString };
}

/**
 * The location in a well-formed tree, with getLocation's conventions: in the whitespace of an object the
 * path ends with '' (a new key); in the whitespace of an array, with the index a new item would take.
 * Undefined outside the root value (then the scanner answers).
 */
function locateInTree(root: Node, text: string, offset: number): Pick<Where, 'path' | 'atKey' | 'previous'> | undefined {
  const end = (n: Node) => n.offset + n.length;
  if (root.type !== 'object' && root.type !== 'array') return undefined;
  if (offset <= root.offset || offset >= end(root)) return undefined;
  const path: JSONPath = [];
  let node = root;
  for (;;) {
    if (node.type === 'object') {
      let next: Node | undefined;
      for (const prop of node.children ?? []) {
        const key = prop.children?.[0];
        const value = prop.children?.[1];
        if (!key) continue;
        if (offset >= key.offset && offset <= end(key)) {
          path.push(String(key.value));
          return { path, atKey: true, previous: offset > key.offset ? key : undefined };
        }
        const afterColon = prop.colonOffset !== undefined ? prop.colonOffset + 1 : end(key);
        if (value && offset >= afterColon && offset <= end(value)) {
          path.push(String(key.value));
          if ((value.type === 'object' || value.type === 'array') && offset > value.offset && offset < end(value)) {
            next = value;
            break;
          }
          // In a scalar, or right before or after the value: not a place for another one.
          return { path, atKey: false, previous: value };
        }
      }
      if (!next) {
        path.push('');
        return { path, atKey: true, previous: undefined };
      }
      node = next;
    } else {
      // An array.
      const children = node.children ?? [];
      let next: Node | undefined;
      let slot = 0;
      for (let i = 0; i < children.length; i++) {
        const child = children[i];
        if (offset >= child.offset && offset <= end(child)) {
          path.push(i);
          if ((child.type === 'object' || child.type === 'array') && offset > child.offset && offset < end(child)) {
            next = child;
            break;
          }
          // In a scalar, or right before or after an item: not a place for a new one.
          return { path, atKey: false, previous: child };
        }
        if (end(child) <= offset) slot = i + 1;
      }
      if (!next) {
        path.push(slot);
        // After an item with no comma yet, a new item does not go here either.
        const before = slot > 0 ? children[slot - 1] : undefined;
        const separated = !before || text.slice(end(before), offset).includes(',');
        return { path, atKey: false, previous: separated ? undefined : before };
      }
      node = next;
    }
  }
}

const KEY_BEFORE_CURSOR = /"((?:[^"\\\r\n]|\\.)*)"\s*:\s*("(?:[^"\\\r\n]|\\.)*)?$/;

function keyBeforeCursor(text: string, offset: number): { key: string; inString: Where['inString'] } | undefined {
  const lineStart = Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1)) + 1;
  const match = KEY_BEFORE_CURSOR.exec(text.slice(lineStart, offset));
  if (!match) return undefined;
  let key: string;
  try {
    key = JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return undefined;
  }
  if (match[2] === undefined) return { key, inString: undefined };
  const start = offset - match[2].length;
  // The string goes on to its closing quote, or to the end of the line.
  let end = offset;
  while (end < text.length && text[end] !== '"' && text[end] !== '\n' && text[end] !== '\r') end += text[end] === '\\' ? 2 : 1;
  const closed = text[end] === '"';
  return { key, inString: { start, end: closed ? end + 1 : end, closed } };
}

function isEscaped(text: string, quote: number, start: number): boolean {
  let backslashes = 0;
  for (let i = quote - 1; i > start && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

const lower = (segment: string | number) => (typeof segment === 'string' ? segment.toLowerCase() : segment);

/**
 * Matches the end of the path against a pattern: strings match keys case-insensitively, '*' any key or
 * index, '#' an index. Returns the index in the path where the pattern starts, or -1.
 */
function matchTail(path: JSONPath, pattern: Array<string>): number {
  const start = path.length - pattern.length;
  if (start < 0) return -1;
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i];
    const got = path[start + i];
    if (want === '*') continue;
    if (want === '#') {
      if (typeof got !== 'number') return -1;
    } else if (typeof got !== 'string' || got.toLowerCase() !== want.toLowerCase()) return -1;
  }
  return start;
}

/** Like matchTail, anywhere in the path: the first position where the pattern occurs. */
function matchAt(path: JSONPath, pattern: Array<string>): number {
  for (let start = 0; start + pattern.length <= path.length; start++) {
    if (matchTail(path.slice(0, start + pattern.length), pattern) === start) return start;
  }
  return -1;
}

// ---- Completion building ----------------------------------------------------------------------

class Builder {
  readonly items: CompletionItem[] = [];
  private readonly labels = new Set<string>();

  constructor(private readonly document: PolicyDocument) {}

  range(start: number, end: number): Range {
    return this.document.lines.rangeOf(start, end);
  }

  add(item: CompletionItem) {
    if (this.labels.has(item.label)) return;
    this.labels.add(item.label);
    item.sortText ??= String(this.items.length).padStart(5, '0');
    this.items.push(item);
  }

  has(label: string) {
    return this.labels.has(label);
  }
}

/** A string value: replaces the string the cursor is in (quotes included), or inserts a quoted one. */
function addStringValue(b: Builder, where: Where, label: string, item: Partial<CompletionItem>) {
  const [start, end] = where.inString ? [where.inString.start, where.inString.end] : [where.offset, where.offset];
  const newText = JSON.stringify(label);
  b.add({ label, kind: CompletionItemKind.Value, filterText: newText, textEdit: { range: b.range(start, end), newText }, ...item });
}

function markdown(value: string) {
  return { kind: MarkupKind.Markdown, value };
}

// ---- The set around the cursor ------------------------------------------------------------------

/**
 * The set model of the resource at `resourcePath`: the document's own when it has one there, else built
 * now from the tolerant tree (a document being typed may not be recognised as a set yet).
 */
function setAt(document: PolicyDocument, resourcePath: JSONPath): SetModel | undefined {
  const root = document.parsed.root;
  if (!root) return undefined;
  const node = resourcePath.length ? findNodeAtLocation(root, resourcePath) : root;
  if (!node || node.type !== 'object') return undefined;
  const own = document.sets.find((set) => set.resource === node);
  if (own) return own;
  // Built once per document snapshot (the nodes are the snapshot's).
  let built = builtSets.get(node);
  if (!built) {
    // Read as validation reads it: a set kept as a template fragment reads '[[' as its own expressions.
    const fragment = !!classify(root).resources.find((r) => r.node === node)?.fragment;
    built = modelOfResource(
      document.parsed.text,
      { kind: 'policySetDefinition', node, fragment },
      isInTemplate(document, resourcePath) || fragment,
    );
    builtSets.set(node, built);
  }
  return built;
}

const builtSets = new WeakMap<Node, SetModel>();

function isInTemplate(document: PolicyDocument, resourcePath: JSONPath): boolean {
  return document.kind === 'armTemplate' || resourcePath.some((s) => lower(s) === 'resources');
}

function definitionOf(node: Node | undefined, options: CompletionOptions): DefinitionInfo | undefined {
  const id = stringValue(propertyIgnoreCase(node, 'policyDefinitionId'));
  const name = stringValue(propertyIgnoreCase(node, 'policyDefinitionName'));
  return variantFor(definitionsNamedBy(options.definitions, id, name), options.cloud);
}

function referenceNode(document: PolicyDocument, referencePath: JSONPath): Node | undefined {
  const root = document.parsed.root;
  return root ? findNodeAtLocation(root, referencePath) : undefined;
}

// ---- The contexts -------------------------------------------------------------------------------

function strongTypes(b: Builder, where: Where) {
  for (const entry of STRONG_TYPES) {
    addStringValue(b, where, entry.value, {
      kind: entry.documented ? CompletionItemKind.EnumMember : CompletionItemKind.Value,
      detail: entry.documented ? 'strongType (documented)' : entry.value.includes('/') ? 'strongType: resource type' : 'strongType',
      documentation: entry.documentation,
    });
  }
  // Any resource type is a valid strongType: a template to fill in.
  if (!where.inString || where.text.slice(where.inString.start + 1, where.offset).indexOf('/') < 0) {
    const [start, end] = where.inString ? [where.inString.start, where.inString.end] : [where.offset, where.offset];
    b.add({
      label: '<Namespace>/<type>',
      kind: CompletionItemKind.Snippet,
      detail: 'strongType: a resource type',
      documentation: 'Any resource type, such as Microsoft.Network/virtualNetworks: the portal offers the existing resources of that type.',
      filterText: '"Microsoft.',
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range: b.range(start, end), newText: '"${1:Microsoft.Namespace}/${2:resourceType}"' },
    });
  }
}

function itemTypes(b: Builder, where: Where) {
  for (const type of ITEM_TYPES) {
    addStringValue(b, where, type, {
      kind: CompletionItemKind.EnumMember,
      detail: 'ItemType',
      documentation:
        type === 'Eventstream' ? 'An eventstream: the type an eventstream item reads with.' : `A workspace item of type ${type}.`,
    });
  }
}

function groupNames(b: Builder, where: Where, set: SetModel, arrayNode: Node | undefined) {
  const used = new Set<string>();
  for (const entry of items(arrayNode)) {
    const inside = where.inString && entry.offset === where.inString.start;
    if (entry.type === 'string' && !inside) used.add((entry.value as string).toLowerCase());
  }
  for (const group of set.groups) {
    if (used.has(group.name.toLowerCase())) continue;
    const displayName = stringValue(propertyIgnoreCase(group.node, 'displayName'));
    const category = stringValue(propertyIgnoreCase(group.node, 'category'));
    const description = stringValue(propertyIgnoreCase(group.node, 'description'));
    addStringValue(b, where, group.name, {
      kind: CompletionItemKind.Module,
      detail: [displayName, category && `(${category})`].filter(Boolean).join(' ') || 'group',
      documentation: description || undefined,
    });
  }
}

/** `parameters(` in a string, before the cursor: the name's range and whether it is quoted yet. */
interface ParameterCallAt {
  /** The string opens with '[[': an escaped expression (in a template, a policy expression). */
  escaped: boolean;
  quoted: boolean;
  start: number;
  end: number;
}

const CALL_BEFORE_CURSOR = /parameters\s*\(\s*(?:'([^'\\"]*)|([A-Za-z0-9_.$-]*))$/i;

function parameterCallAt(where: Where): ParameterCallAt | undefined {
  if (!where.inString) return undefined;
  const contentStart = where.inString.start + 1;
  const before = where.text.slice(contentStart, where.offset);
  if (!before.startsWith('[')) return undefined;
  const match = CALL_BEFORE_CURSOR.exec(before);
  if (!match) return undefined;
  const quoted = match[1] !== undefined;
  const typed = match[1] ?? match[2] ?? '';
  const start = where.offset - typed.length;
  // The name goes on to the closing quote (or, unquoted, to the end of the identifier).
  const contentEnd = where.inString.closed ? where.inString.end - 1 : where.inString.end;
  let end = where.offset;
  const stop = quoted ? /['"\\]/ : /[^A-Za-z0-9_.$-]/;
  while (end < contentEnd && !stop.test(where.text[end])) end++;
  return { escaped: before.startsWith('[['), quoted, start, end };
}

function parameterNames(b: Builder, call: ParameterCallAt, names: Array<{ name: string; detail: string; documentation?: string }>) {
  for (const { name, detail, documentation } of names) {
    const newText = call.quoted ? name : `'${name}'`;
    b.add({
      label: name,
      kind: CompletionItemKind.Variable,
      detail,
      documentation,
      filterText: newText,
      textEdit: { range: b.range(call.start, call.end), newText },
    });
  }
}

function setParameterEntries(set: SetModel) {
  return set.parameters.map((p) => {
    const description = stringValue(propertyIgnoreCase(propertyIgnoreCase(p.node, 'metadata'), 'description'));
    const displayName = stringValue(propertyIgnoreCase(propertyIgnoreCase(p.node, 'metadata'), 'displayName'));
    return {
      name: p.name,
      detail: `set parameter${p.type ? `: ${p.type}` : ''}`,
      documentation: [displayName, description].filter(Boolean).join('\n\n') || undefined,
    };
  });
}

function templateParameterEntries(document: PolicyDocument) {
  return entries(property(document.parsed.root, 'parameters')).map(({ key, valueNode }) => {
    const type = stringValue(propertyIgnoreCase(valueNode, 'type'));
    return { name: key, detail: `template parameter${type ? `: ${type}` : ''}`, documentation: 'Evaluated by the template at deployment.' };
  });
}

function snippetText(value: string): string {
  return value.replace(/[$}\\]/g, '\\$&');
}

function valuePlaceholder(parameter: DefinitionParameter): string {
  const allowed = parameter.allowedValues?.filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
  if (allowed?.length && allowed.length === parameter.allowedValues?.length) {
    const choice = allowed.map((v) => String(v).replace(/[,|$}\\]/g, '\\$&')).join(',');
    return allowed.every((v) => typeof v === 'string') ? `"\${1|${choice}|}"` : `\${1|${choice}|}`;
  }
  switch (parameter.type) {
    case 'String':
    case 'DateTime':
      return '"$1"';
    case 'Array':
      return '[$1]';
    case 'Object':
      return '{$1}';
    case 'Boolean':
      return '${1|true,false|}';
    case 'Integer':
    case 'Float':
      return '${1:0}';
    default:
      return '$1';
  }
}

function describeDefinitionParameter(p: DefinitionParameter): string {
  const lines: string[] = [];
  if (p.allowedValues?.length) lines.push(`Allowed values: ${p.allowedValues.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  if (p.hasDefault) lines.push(`Default: \`${JSON.stringify(p.defaultValue)}\``);
  if (p.strongType) lines.push(`strongType: \`${p.strongType}\``);
  return lines.join('\n\n');
}

function definitionParameterKeys(
  b: Builder,
  where: Where,
  document: PolicyDocument,
  definition: DefinitionInfo,
  parametersNode: Node | undefined,
  /** The values as they are (the policy-as-code framework's tree), not inside `{ "value": ... }`. */
  raw = false,
) {
  const root = document.parsed.root;
  // The key the cursor is on, and whether its property has a value already (then only the key is replaced).
  const keyRange = where.inString ? [where.inString.start, where.inString.end] : [where.offset, where.offset];
  const treeNode = root ? findNodeAtOffset(root, where.inString ? where.inString.start + 1 : where.offset, true) : undefined;
  const propertyNode = treeNode?.parent?.type === 'property' && treeNode.parent.children?.[0] === treeNode ? treeNode.parent : undefined;
  const hasValue = !!propertyNode?.children?.[1] && !!where.inString;
  const present = new Set(
    entries(parametersNode)
      .filter((e) => !where.inString || e.keyNode.offset !== where.inString.start)
      .map((e) => e.key.toLowerCase()),
  );
  const parameters = [...definition.parameters.values()].filter((p) => !present.has(p.name.toLowerCase()));
  // Required ones (no default) first.
  parameters.sort((x, y) => Number(x.hasDefault) - Number(y.hasDefault));
  parameters.forEach((p, i) => {
    const quoted = JSON.stringify(p.name);
    const newText = hasValue
      ? quoted
      : raw
        ? `${snippetText(quoted)}: ${valuePlaceholder(p)}`
        : `${snippetText(quoted)}: {\n\t"value": ${valuePlaceholder(p)}\n}`;
    b.add({
      label: p.name,
      kind: CompletionItemKind.Property,
      detail: `${p.type ?? 'parameter'}${p.hasDefault ? '' : ' · required'} · ${definition.displayName ?? definition.name}`,
      documentation: markdown(describeDefinitionParameter(p) || 'A parameter of the referenced definition.'),
      sortText: `${p.hasDefault ? 1 : 0}${String(i).padStart(4, '0')}`,
      filterText: quoted,
      insertTextFormat: hasValue ? InsertTextFormat.PlainText : InsertTextFormat.Snippet,
      textEdit: { range: b.range(keyRange[0], keyRange[1]), newText },
    });
  });
}

/**
 * Completion in a set's consumers (docs/consumers.md), from the set the consumer assigns as the rules resolve
 * it: the set's parameters as keys of an assignment resource's `parameters` (`{ "value": ... }`) or of any
 * node's `parameters` in the policy-as-code framework's tree (values as they are); the allowed values of a
 * passed parameter's value (or of its array's items); the set's reference IDs in `nonComplianceMessages`,
 * override selectors of kind `policyDefinitionReferenceId` and the framework's exemption
 * `policyDefinitionReferenceIds`. Returns true when the cursor is in one of these places and the set is known.
 */
function consumerCompletions(
  b: Builder,
  where: Where,
  document: PolicyDocument,
  options: CompletionOptions,
  keySlot: boolean,
  valueSlot: boolean,
): boolean {
  const { path } = where;
  const root = document.parsed.root;
  if (keySlot) {
    const found = consumerParametersAt(document, where.offset, options);
    if (found && found.consumer.shape === 'assignment' && found.consumer.parametersNode) {
      definitionParameterKeys(b, where, document, asDefinition(found.declarations[0]), found.consumer.parametersNode);
      return true;
    }
  }
  const consumer = consumerAt(document, where.offset);
  if (!consumer || !root) return false;
  const parametersAt = matchAt(path, ['parameters']);
  const tree = consumer.shape === 'epacAssignment';
  // The framework's tree: any node's parameters.
  if (keySlot && tree && parametersAt === path.length - 2) {
    const declarations = declarationsOfConsumer(consumer, options);
    if (!declarations.length) return false;
    definitionParameterKeys(b, where, document, mergedDefinition(declarations), findNodeAtLocation(root, path.slice(0, -1)), true);
    return true;
  }
  if (!valueSlot) return false;
  // A passed parameter's value: `parameters.<name>.value` of a resource, `parameters.<name>` of a tree node; or an item of it.
  const valueTail = tree ? ['parameters', '*'] : ['parameters', '*', 'value'];
  const atValue = matchTail(path, valueTail);
  const atItem = atValue < 0 ? matchTail(path, [...valueTail, '#']) : -1;
  const parametersStart = atValue >= 0 ? atValue : atItem;
  if (parametersStart >= 0) {
    const parametersNode = findNodeAtLocation(root, path.slice(0, parametersStart + 1));
    if (!tree && parametersNode?.offset !== consumer.parametersNode?.offset) return false;
    const lowerName = String(path[parametersStart + 1]).toLowerCase();
    const declared = declarationsOfConsumer(consumer, options).flatMap((d) => d.parameters.get(lowerName) ?? []);
    const allowed = declared.find((p) => p.allowedValues?.length)?.allowedValues;
    if (!allowed) return declared.length > 0;
    const list = atItem >= 0 ? findNodeAtLocation(root, path.slice(0, -1)) : undefined;
    const present = new Set(items(list).map((n) => JSON.stringify(n.value)));
    const parameter = declared[0];
    for (const value of allowed) {
      if (present.has(JSON.stringify(value)) || (atItem < 0 && parameter.type === 'Array' && !Array.isArray(value))) continue;
      const detail = `allowed value of '${parameter.name}'`;
      if (typeof value === 'string') addStringValue(b, where, value, { detail, kind: CompletionItemKind.EnumMember });
      else if (!where.inString) {
        const text = JSON.stringify(value);
        b.add({
          label: text,
          kind: CompletionItemKind.EnumMember,
          detail,
          textEdit: { range: b.range(where.offset, where.offset), newText: text },
        });
      }
    }
    return true;
  }
  // A reference ID: a message's, an override selector's of that kind, a framework exemption's.
  const inSelector = matchTail(path, ['selectors', '#', '*', '#']);
  const selector =
    inSelector >= 0 && /^(in|notin)$/i.test(String(path[path.length - 2])) ? findNodeAtLocation(root, path.slice(0, -2)) : undefined;
  const listed =
    (selector && stringValue(property(selector, 'kind'))?.toLowerCase() === 'policydefinitionreferenceid') ||
    (consumer.shape === 'epacExemption' && matchTail(path, ['policyDefinitionReferenceIds', '#']) >= 0);
  if (!listed && matchTail(path, ['nonComplianceMessages', '#', 'policyDefinitionReferenceId']) < 0) return false;
  const declarations = declarationsOfConsumer(consumer, options);
  if (!declarations.length) return false;
  const present = new Set(listed ? items(findNodeAtLocation(root, path.slice(0, -1))).map((n) => String(n.value).toLowerCase()) : []);
  const offered = new Set<string>();
  for (const declaration of declarations) {
    for (const [lowerId, id] of declaration.referenceIds ?? []) {
      if (present.has(lowerId) || offered.has(lowerId)) continue;
      offered.add(lowerId);
      addStringValue(b, where, id, { kind: CompletionItemKind.Reference, detail: `member of ${declaration.kind} ${declaration.name}` });
    }
  }
  return true;
}

/** The parameters of every declaration a consumer's targets may mean (the framework's tree: every entry's), the first of each name. */
function mergedDefinition(declarations: TargetDeclaration[]): DefinitionInfo {
  const parameters = new Map<string, DefinitionParameter>();
  for (const declaration of declarations)
    for (const [lower, p] of declaration.parameters) if (!parameters.has(lower)) parameters.set(lower, p);
  const names = [...new Set(declarations.map((d) => d.name))];
  return { ...asDefinition(declarations[0]), displayName: `${declarations[0].kind} ${names.join(', ')}`, parameters };
}

function definitionNames(b: Builder, where: Where, catalog: DefinitionCatalog) {
  for (const definition of catalog.named()) {
    const custom = catalog.isCustom(definition);
    addStringValue(b, where, definition.name, {
      kind: CompletionItemKind.Reference,
      detail: `${custom ? 'custom' : 'built-in'}: ${definition.displayName ?? definition.name}`,
      sortText: `${custom ? 0 : 1}${definition.displayName ?? definition.name}`,
      filterText: `${JSON.stringify(definition.name)} ${definition.displayName ?? ''}`,
      documentation: definition.source ? `From ${definition.source}` : undefined,
    });
  }
}

function definitionVersions(b: Builder, where: Where, definition: DefinitionInfo) {
  const versions = [...new Set([...definition.versions, ...(definition.version ? [definition.version] : [])])].sort(newestVersionFirst);
  const latest = versions[0];
  const majors = [...new Set(versions.map((v) => /^(\d+)\./.exec(v)?.[1]).filter((m): m is string => !!m))];
  for (const major of majors) {
    addStringValue(b, where, `${major}.*.*`, {
      kind: CompletionItemKind.EnumMember,
      detail: `the latest ${major}.x.x version`,
      documentation: `Any version ${major}.x.x of ${definition.displayName ?? definition.name}: minor versions and patches are taken as they are released.`,
    });
  }
  for (const version of versions) {
    addStringValue(b, where, version, {
      kind: CompletionItemKind.Value,
      detail: version === latest ? 'latest known version' : 'known version',
      documentation: `Pins ${definition.displayName ?? definition.name} to version ${version}.`,
    });
  }
}

// ---- Snippets -------------------------------------------------------------------------------------

const REFERENCE_SNIPPET = [
  '{',
  '\t"policyDefinitionReferenceId": "${1:referenceId}",',
  '\t"policyDefinitionId": "${2:/providers/Microsoft.Authorization/policyDefinitions/00000000-0000-0000-0000-000000000000}",',
  '\t"parameters": {$3},',
  '\t"groupNames": [$4]',
  '}',
].join('\n');

const GROUP_SNIPPET = [
  '{',
  '\t"name": "${1:groupName}",',
  '\t"displayName": "$2",',
  '\t"category": "$3",',
  '\t"description": "$4"',
  '}',
].join('\n');

const PARAMETER_SNIPPET = [
  '"${1:parameterName}": {',
  `\t"type": "\${2|${PARAMETER_TYPES.join(',')}|}",`,
  '\t"metadata": {',
  '\t\t"displayName": "$3",',
  '\t\t"description": "$4"',
  '\t}$0',
  '}',
].join('\n');

const DEFINITIONS_BODY = [
  '\t\t"parameters": {},',
  '\t\t"policyDefinitionGroups": [],',
  '\t\t"policyDefinitions": [',
  '\t\t\t{',
  '\t\t\t\t"policyDefinitionReferenceId": "${4:referenceId}",',
  '\t\t\t\t"policyDefinitionId": "${5:/providers/Microsoft.Authorization/policyDefinitions/00000000-0000-0000-0000-000000000000}",',
  '\t\t\t\t"parameters": {}$0',
  '\t\t\t}',
  '\t\t]',
];

const SET_BODY = [
  '\t"type": "Microsoft.Authorization/policySetDefinitions",',
  '\t"name": "${1:myPolicySet}",',
  '\t"properties": {',
  '\t\t"displayName": "${2:My policy set}",',
  '\t\t"description": "$3",',
  '\t\t"policyType": "Custom",',
  '\t\t"metadata": { "category": "General" },',
  '\t\t"version": "1.0.0",',
  ...DEFINITIONS_BODY,
  '\t}',
];

const VERSION_BODY = [
  '\t"type": "Microsoft.Authorization/policySetDefinitions/versions",',
  '\t"apiVersion": "2025-11-01",',
  '\t"name": "${1:1.0.0}",',
  '\t"properties": {',
  '\t\t"displayName": "${2:My policy set}",',
  '\t\t"description": "$3",',
  '\t\t"policyType": "Custom",',
  '\t\t"version": "${1:1.0.0}",',
  ...DEFINITIONS_BODY,
  '\t}',
];

function snippet(b: Builder, where: Where, label: string, detail: string, body: string, documentation: string, range?: [number, number]) {
  const [start, end] = range ?? [where.offset, where.offset];
  b.add({
    label,
    kind: CompletionItemKind.Snippet,
    detail,
    documentation,
    insertTextFormat: InsertTextFormat.Snippet,
    // Over a string, the editor filters by the text from its opening quote.
    filterText: range ? `"${label}` : label,
    textEdit: { range: b.range(start, end), newText: body },
  });
}

function documentSnippets(b: Builder, where: Where, withBraces: boolean) {
  const wrap = (lines: string[]) => (withBraces ? ['{', ...lines, '}'] : lines.map((l) => l.slice(1))).join('\n');
  const range: [number, number] | undefined = where.inString ? [where.inString.start, where.inString.end] : undefined;
  snippet(
    b,
    where,
    'policy set definition',
    'snippet: a whole policy set definition',
    wrap(SET_BODY),
    'A policy set definition (spec A3) with one reference.',
    range,
  );
  snippet(
    b,
    where,
    'policy set definition version',
    'snippet: a whole version resource (A1)',
    wrap(VERSION_BODY),
    'A deployable policy set definition version resource (spec A1), API version 2025-11-01.',
    range,
  );
}

// ---- The entry point ------------------------------------------------------------------------------

/**
 * Completions at an offset: the schema's keys and enum values (see schemaCompletion.ts) merged
 * with our own items for the context, which win where they apply. Works on broken text; never validates.
 */
export async function getCompletions(document: PolicyDocument, offset: number, options: CompletionOptions = {}): Promise<CompletionList> {
  const text = document.parsed.text;
  // Nesting too deep to walk (the scanner's parser is recursive) or a document too large for a model: nothing to offer.
  if (document.parsed.tooDeep || document.parsed.tooLarge) return { isIncomplete: false, items: [] };
  offset = Math.max(0, Math.min(offset, text.length));
  if (document.kind === 'deploymentPlan') {
    const own = planCompletions(document, offset, options.quota?.table);
    if (own) return own;
  }
  const where = locate(document, offset);
  const b = new Builder(document);
  // In our own value contexts the schema has nothing to add: the JSON service is not asked (nor parses).
  const exclusive = ownCompletions(b, where, document, options);
  if (!exclusive) {
    const { keySlot, valueSlot } = slotsOf(where);
    if (keySlot || valueSlot) {
      const schemaItems = schemaCompletions({
        kind: document.kind,
        root: document.parsed.root,
        text,
        path: where.path,
        atKey: keySlot,
        inString: where.inString,
        offset,
        range: (s, e) => b.range(s, e),
      });
      for (const item of schemaItems) if (!b.has(item.label)) b.add(item);
    }
  }
  return { isIncomplete: false, items: b.items };
}

/**
 * Whether a new key or a value can go at the cursor: a key on a key after '{' or ','; a value not on a
 * key, not after a complete value (a string closed before the cursor), nor before a value already there
 * on the same line (broken text, where the scanner has not reached it).
 */
function slotsOf(where: Where): { keySlot: boolean; valueSlot: boolean } {
  const keySlot = where.atKey && /[{,]/.test(previousToken(where.text, where.inString?.start ?? where.offset));
  const valueSlot = !where.atKey && (!!where.inString || (!where.previous && !/^["\d{[tfn-]/.test(nextOnLine(where.text, where.offset))));
  return { keySlot, valueSlot };
}

/** Adds our items; returns true when the context is one where the schema's items add nothing. */
function ownCompletions(b: Builder, where: Where, document: PolicyDocument, options: CompletionOptions): boolean {
  const { path, atKey } = where;
  const root = document.parsed.root;
  // A value goes here: not on a key, and not after a complete value (a string closed before the cursor).
  // Nor before a value that is already there on the same line (broken text, where the scanner has not reached it).
  // A new key goes here: on a key, after '{' or ','.
  const { keySlot, valueSlot } = slotsOf(where);

  // An empty document: a whole resource.
  if (document.parsed.text.trim() === '') {
    documentSnippets(b, where, true);
    return false;
  }
  // A key at the top of an (almost) empty object: the body of a whole resource.
  if (atKey && path.length === 1 && root?.type === 'object') {
    const others = entries(root).filter((e) => !where.inString || e.keyNode.offset !== where.inString.start);
    if (others.length === 0) documentSnippets(b, where, false);
  }

  // In a set's consumer: the set's parameter names, allowed values and reference IDs.
  if (document.consumers.length && consumerCompletions(b, where, document, options, keySlot, valueSlot)) return true;

  // A workspace item's type.
  if (valueSlot && path.length === 1 && lower(path[0]) === 'type' && isWorkspaceItemLike(document)) {
    itemTypes(b, where);
    return true;
  }

  // metadata.strongType of a parameter (of a set, or of a definition).
  if (valueSlot && matchTail(path, ['properties', 'parameters', '*', 'metadata', 'strongType']) >= 0) {
    strongTypes(b, where);
    return true;
  }

  // Inside a reference.
  const refAt = matchAt(path, ['properties', 'policyDefinitions', '#']);
  if (refAt >= 0) {
    const resourcePath = path.slice(0, refAt);
    const referencePath = path.slice(0, refAt + 3);
    const rest = path.slice(refAt + 3);
    // groupNames entries
    if (valueSlot && rest.length === 2 && lower(rest[0]) === 'groupnames' && typeof rest[1] === 'number') {
      const set = setAt(document, resourcePath);
      if (set) groupNames(b, where, set, root ? findNodeAtLocation(root, [...referencePath, rest[0]]) : undefined);
      return true;
    }
    // definitionVersion
    if (valueSlot && rest.length === 1 && lower(rest[0]) === 'definitionversion') {
      const definition = definitionOf(referenceNode(document, referencePath), options);
      if (definition) definitionVersions(b, where, definition);
      return true;
    }
    // policyDefinitionName (the policy-as-code framework): the known definitions' names, custom ones first.
    if (valueSlot && rest.length === 1 && lower(rest[0]) === 'policydefinitionname') {
      if (options.definitions) definitionNames(b, where, options.definitions);
      return true;
    }
    // The referenced definition's parameters, as keys of the reference's parameters.
    if (atKey && rest.length === 2 && lower(rest[0]) === 'parameters') {
      if (!keySlot) return true;
      const definition = definitionOf(referenceNode(document, referencePath), options);
      if (definition)
        definitionParameterKeys(b, where, document, definition, root ? findNodeAtLocation(root, [...referencePath, rest[0]]) : undefined);
      return true;
    }
    // parameters('...') inside a parameter value.
    if (rest.length >= 2 && lower(rest[0]) === 'parameters') {
      const call = parameterCallAt(where);
      if (call) {
        // Read as validation reads the set: a fragment (or a file a template loads) is in its template.
        const set = setAt(document, resourcePath);
        const inTemplate = isInTemplate(document, resourcePath) || !!set?.inTemplate;
        if (inTemplate && !call.escaped) parameterNames(b, call, templateParameterEntries(document));
        else if (!inTemplate && call.escaped)
          return true; // '[[' outside a template is a literal string
        else if (set) parameterNames(b, call, setParameterEntries(set));
        return true;
      }
    }
  }

  // A new reference or group: an array slot, not inside a value.
  if (
    !atKey &&
    !where.inString &&
    !where.previous &&
    /[[,]/.test(previousToken(where.text, where.offset)) &&
    /^[\],]?$/.test(nextToken(where.text, where.offset))
  ) {
    if (matchTail(path, ['properties', 'policyDefinitions', '#']) >= 0) {
      snippet(
        b,
        where,
        'new policy definition reference',
        'snippet: a reference to a policy definition',
        REFERENCE_SNIPPET,
        'A policyDefinitions entry: reference ID, definition ID, parameters and groups.',
      );
    } else if (matchTail(path, ['properties', 'policyDefinitionGroups', '#']) >= 0) {
      snippet(
        b,
        where,
        'new group',
        'snippet: a policy definition group',
        GROUP_SNIPPET,
        'A policyDefinitionGroups entry: name, displayName, category and description.',
      );
    }
  }
  // A new parameter: a key of the set's (or a definition's) parameters.
  if (keySlot && matchTail(path, ['properties', 'parameters', '*']) >= 0) {
    const range: [number, number] | undefined = where.inString ? [where.inString.start, where.inString.end] : undefined;
    snippet(
      b,
      where,
      'new parameter',
      'snippet: a parameter declaration',
      PARAMETER_SNIPPET,
      'A parameter with its type, display name and description.',
      range,
    );
  }
  return false;
}

/** The last character before the offset that is not whitespace ('' at the start). */
function previousToken(text: string, offset: number): string {
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i >= 0 ? text[i] : '';
}

/** The first character from the offset on that is not whitespace ('' at the end). */
function nextToken(text: string, offset: number): string {
  let i = offset;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i < text.length ? text[i] : '';
}

/** The rest of the line from the offset on, without the leading blanks. */
function nextOnLine(text: string, offset: number): string {
  let i = offset;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text.slice(i, i + 1);
}

function isWorkspaceItemLike(document: PolicyDocument): boolean {
  if (document.kind === 'workspaceItem') return true;
  if (document.kind !== 'unknown') return false;
  const root = document.parsed.root;
  return !property(root, 'properties') && ITEM_ONLY_KEYS.some((key) => property(root, key) !== undefined);
}

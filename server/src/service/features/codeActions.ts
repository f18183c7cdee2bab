import { findNodeAtOffset } from 'jsonc-parser';
import type { CodeAction, Diagnostic, Range, TextEdit } from 'vscode-languageserver-types';
import { keyNodeOf, property, valueOf, type Node } from '../json';
import type { PolicyDocument } from '../validate';
import { canonicalParameterType, type ParameterType, type ReferenceModel, type SetModel } from '../model/policySet';
import { DEFAULT_CLOUD, type DefinitionCatalog } from '../definitions';
import { DIAGNOSTIC_SOURCE } from '../diagnostics';
import { DEFINITION_VERSION, STRICT_VERSION, SUFFIXED_VERSION } from '../rules/util';

/**
 * Quick fixes for the service's diagnostics. The diagnostics come back from the client, so a fix relies on
 * the diagnostic's `code`, its `data` and the document model at the diagnostic's range, never on its message.
 * A diagnostic that no longer matches the document (a stale one) gets no fix.
 *
 * Edits are built from the tree's offsets and keep the document's own layout (its line ending, indentation
 * unit, one-line or one-per-line lists); nothing around the edit is reformatted.
 */
export interface CodeActionOptions {
  /** Known policy definitions: the type of a declared parameter is taken from the definition it is passed to. */
  definitions?: DefinitionCatalog;
  /** The cloud whose definition variants win (as in validation); default AzureCloud. */
  cloud?: string;
}

export const QUICK_FIX = 'quickfix';

interface Candidate {
  /** Actions with the same key are one action that fixes all their diagnostics (one group declared for all its uses). */
  key: string;
  title: string;
  edits: Edit[];
  preferred?: boolean;
}

interface Edit {
  offset: number;
  length: number;
  content: string;
}

interface Context {
  document: PolicyDocument;
  text: string;
  layout: Layout;
  options: CodeActionOptions;
  start: number;
  end: number;
  data: Record<string, unknown>;
}

type Fixer = (ctx: Context) => Candidate[];

export function getCodeActions(document: PolicyDocument, uri: string, diagnostics: Diagnostic[], range: Range, options: CodeActionOptions = {}): CodeAction[] {
  if (!document.parsed.root || document.parsed.tooDeep) return [];
  const text = document.parsed.text;
  const layout = layoutOf(document);
  const merged = new Map<string, { candidate: Candidate; diagnostics: Diagnostic[] }>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== undefined && diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
    if (!overlaps(diagnostic.range, range)) continue;
    const fixer = typeof diagnostic.code === 'string' ? FIXERS[diagnostic.code] : undefined;
    if (!fixer) continue;
    const start = document.lines.offsetAt(diagnostic.range.start);
    const end = document.lines.offsetAt(diagnostic.range.end);
    const data = isRecord(diagnostic.data) ? diagnostic.data : {};
    for (const candidate of fixer({ document, text, layout, options, start, end, data })) {
      const key = `${diagnostic.code}:${candidate.key}`;
      const existing = merged.get(key);
      if (existing) existing.diagnostics.push(diagnostic);
      else merged.set(key, { candidate, diagnostics: [diagnostic] });
    }
  }
  // Casing fixes are single-string replacements that never overlap: one action can do them all.
  const fixedCodes = new Set([...merged.keys()].map((key) => key.slice(0, key.indexOf(':'))));
  for (const [code, fixAll] of Object.entries(FIX_ALL)) {
    if (!fixedCodes.has(code)) continue;
    const asked = diagnostics.filter((d) => d.code === code && overlaps(d.range, range));
    const all = fixAll(document, asked, document.lines);
    if (all) merged.set(`${code}:all`, { candidate: { key: 'all', ...all }, diagnostics: asked });
  }
  const actions: CodeAction[] = [];
  for (const { candidate, diagnostics: fixed } of merged.values()) {
    const edits: TextEdit[] = candidate.edits.map((e) => ({ range: document.lines.rangeOf(e.offset, e.offset + e.length), newText: e.content }));
    const action: CodeAction = { title: candidate.title, kind: QUICK_FIX, diagnostics: fixed, edit: { changes: { [uri]: edits } } };
    if (candidate.preferred) action.isPreferred = true;
    actions.push(action);
  }
  return actions;
}

// ---- The fixes, by code -------------------------------------------------------------------

const FIXERS: Record<string, Fixer> = {
  PS2004: renameKey((ctx) => stringData(ctx, 'suggestion'), (to) => `Rename to '${to}'`, false),
  PS2005: renameKey((ctx) => stringData(ctx, 'canonical'), (to) => `Rename to '${to}'`),
  PS2006: fixEnumCasing,
  PS3001: normalizeVersionName,
  PS3002: normalizeSetVersion,
  PS3003: normalizeDefinitionVersion,
  PS3004: removeResponseOnly,
  PS3006: writeSuggestedVersion,
  PS4001: uniqueReferenceId,
  PS4002: addReferenceId,
  PS5001: declareGroup,
  PS5002: removeDuplicateGroup,
  PS5003: removeUnusedGroup,
  PS5004: fixGroupCasing,
  PS7001: declareParameter,
  PS7002: fixParameterReferenceCasing,
  PS7003: removeUnusedParameter,
  PS8001: renameKey((ctx) => stringData(ctx, 'suggestion'), (to) => `Rename to '${to}'`, false),
  PS8008: renameKey((ctx) => stringData(ctx, 'declared'), (to) => `Rename to '${to}' as the definition declares it`),
};

function declareGroup(ctx: Context): Candidate[] {
  const found = groupUseAt(ctx);
  if (!found || found.use.declared) return [];
  const { set, use } = found;
  const name = use.name;
  // Into the declared groups, or a new policyDefinitionGroups at the end of the properties.
  const insert = set.groupsNode
    ? insertInto(ctx, set.groupsNode, 'array', undefined, { name }, undefined)
    : insertInto(ctx, set.properties, 'object', 'policyDefinitionGroups', [{ name }], undefined);
  if (!insert) return [];
  const candidates: Candidate[] = [];
  const suggestion = set.groups.find((g) => g.name === stringData(ctx, 'suggestion'))?.name;
  if (suggestion) {
    candidates.push({ key: `rename:${use.node.offset}`, title: `Change to '${suggestion}'`, edits: [replaceNode(use.node, suggestion)], preferred: true });
  }
  candidates.push({ key: `declare:${set.resource.offset}:${name.toLowerCase()}`, title: `Declare group '${name}' in policyDefinitionGroups`, edits: [insert], preferred: !suggestion });
  return candidates;
}

function declareParameter(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  if (!found) return [];
  const { set } = found;
  const use = set.parameterUses.find((u) => u.start === ctx.start && u.end === ctx.end);
  if (!use || !use.name || set.parametersByLower.has(use.lower)) return [];
  const type = inferParameterType(ctx, set, use.lower);
  const declaration = { type, metadata: { displayName: displayNameOf(use.name) } };
  // Into the declared parameters, or a new parameters object before the policyDefinitions.
  const insert = set.parametersNode
    ? insertInto(ctx, set.parametersNode, 'object', use.name, declaration, undefined)
    : insertInto(ctx, set.properties, 'object', 'parameters', { [use.name]: declaration }, indexOfKey(set.properties, 'policyDefinitions'));
  if (!insert) return [];
  const candidates: Candidate[] = [];
  const suggestion = set.parameters.find((p) => p.name === stringData(ctx, 'suggestion'))?.name;
  if (suggestion) {
    candidates.push({ key: `rename:${use.start}`, title: `Change to '${suggestion}'`, edits: [replaceExpressionName(use.start, use.end, suggestion)], preferred: true });
  }
  candidates.push({ key: `declare:${set.resource.offset}:${use.lower}`, title: `Declare parameter '${use.name}' (${type})`, edits: [insert], preferred: !suggestion });
  return candidates;
}

function fixParameterReferenceCasing(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  const use = found?.set.parameterUses.find((u) => u.start === ctx.start && u.end === ctx.end);
  const declared = use && found?.set.parametersByLower.get(use.lower);
  if (!use || !declared || declared.name === use.name) return [];
  return [{ key: `${use.start}`, title: `Change to '${declared.name}' as declared`, edits: [replaceExpressionName(use.start, use.end, declared.name)], preferred: true }];
}

function fixGroupCasing(ctx: Context): Candidate[] {
  const found = groupUseAt(ctx);
  const declared = found?.use.declared;
  if (!found || !declared || declared.name === found.use.name) return [];
  return [{ key: `${ctx.start}`, title: `Change to '${declared.name}' as declared`, edits: [replaceNode(found.use.node, declared.name)], preferred: true }];
}

function fixEnumCasing(ctx: Context): Candidate[] {
  const node = nodeAt(ctx, 'string');
  if (!node) return [];
  const value = node.value as string;
  let canonical = stringData(ctx, 'canonical');
  // Without data (a client that drops it), a parameter's type is still known.
  if (canonical === undefined && keyNodeOf(node)?.value === 'type') canonical = canonicalParameterType(value);
  if (!canonical || canonical === value || canonical.toLowerCase() !== value.toLowerCase()) return [];
  return [{ key: `${ctx.start}`, title: `Change to '${canonical}'`, edits: [replaceNode(node, canonical)], preferred: true }];
}

/** Renames a property key: to another casing of itself, or (a typo) to the close match the rule suggests. */
function renameKey(target: (ctx: Context) => string | undefined, title: (to: string) => string, casingOnly = true): Fixer {
  return (ctx) => {
    const key = nodeAt(ctx, 'string');
    const to = target(ctx);
    const owner = key?.parent;
    if (!key || !to || owner?.type !== 'property' || owner.children?.[0] !== key) return [];
    const from = key.value as string;
    if (to === from || (casingOnly ? to.toLowerCase() !== from.toLowerCase() : stringData(ctx, 'name') !== from)) return [];
    // Never onto a key the object already has.
    if (owner.parent?.children?.some((p) => p.children?.[0]?.value === to)) return [];
    return [{ key: `${ctx.start}`, title: title(to), edits: [replaceNode(key, to)], preferred: true }];
  };
}

function uniqueReferenceId(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  const reference = found?.set.references.find((r) => r.refIdNode && r.refIdNode.type === 'string' && sameRange(ctx, r.refIdNode));
  if (!found || !reference?.refIdNode || found.set.isDynamic(reference.refIdNode)) return [];
  const base = reference.refIdNode.value as string;
  const lower = base.toLowerCase();
  if (found.set.references.filter((r) => r.refIdLower === lower).length < 2) return [];
  const id = freeReferenceId(found.set, `${base}_`, 2);
  return [{ key: `${ctx.start}`, title: `Change to '${id}'`, edits: [replaceNode(reference.refIdNode, id)], preferred: true }];
}

function addReferenceId(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  const reference = found?.set.references.find((r) => {
    const key = r.idNode && keyNodeOf(r.idNode);
    return key && sameRange(ctx, key);
  });
  if (!found || !reference?.idNode || reference.refIdNode || reference.idKey === undefined) return [];
  const id = newReferenceId(found.set, reference);
  const after = reference.node.children!.indexOf(reference.idNode.parent!) + 1;
  const insert = insertInto(ctx, reference.node, 'object', 'policyDefinitionReferenceId', id, after);
  return insert ? [{ key: `${ctx.start}`, title: `Add policyDefinitionReferenceId '${id}'`, edits: [insert], preferred: true }] : [];
}

function removeResponseOnly(ctx: Context): Candidate[] {
  const key = nodeAt(ctx, 'string');
  const owner = key?.parent;
  if (!key || owner?.type !== 'property' || owner.children?.[0] !== key || !owner.parent) return [];
  const name = key.value as string;
  if (name !== 'effectiveDefinitionVersion' && name !== 'latestDefinitionVersion') return [];
  return [{ key: `${ctx.start}`, title: `Remove '${name}'`, edits: [removeChild(owner.parent, owner)], preferred: true }];
}

function removeUnusedParameter(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  if (!found || found.set.parameterUsesDynamic) return [];
  const { set } = found;
  const parameter = set.parameters.find((p) => sameRange(ctx, p.keyNode));
  const lower = parameter?.name.toLowerCase();
  if (!parameter || !set.parametersNode || set.parameterUses.some((u) => u.lower === lower)) return [];
  return [{ key: `${ctx.start}`, title: `Remove unused parameter '${parameter.name}'`, edits: [removeChild(set.parametersNode, parameter.keyNode.parent!)], preferred: true }];
}

function removeUnusedGroup(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  if (!found || found.set.groupUsesDynamic) return [];
  const { set } = found;
  const group = set.groups.find((g) => sameRange(ctx, g.nameNode));
  const lower = group?.name.toLowerCase();
  if (!group || !set.groupsNode || set.groupUses.some((u) => u.lower === lower)) return [];
  return [{ key: `${ctx.start}`, title: `Remove unused group '${group.name}'`, edits: [removeChild(set.groupsNode, group.node)], preferred: true }];
}

/** A group declared again: removing the later declaration keeps the first; obvious only when the two are the same. */
function removeDuplicateGroup(ctx: Context): Candidate[] {
  const set = setAt(ctx)?.set;
  const group = set?.groups.find((g) => sameRange(ctx, g.nameNode));
  const first = group && set?.groupsByLower.get(group.name.toLowerCase());
  if (!set?.groupsNode || !group || !first || first === group) return [];
  const same = JSON.stringify(valueOf(group.node)) === JSON.stringify(valueOf(first.node));
  return [{ key: `${ctx.start}`, title: `Remove this repeated declaration of group '${group.name}'`, edits: [removeChild(set.groupsNode, group.node)], preferred: same }];
}

// ---- Fix all of a kind in the document ---------------------------------------------------

type FixAll = (document: PolicyDocument, asked: Diagnostic[], lines: PolicyDocument['lines']) => { title: string; edits: Edit[] } | undefined;

/** Offered beside a single fix when the document has more than one of its kind; computed from the model alone. */
const FIX_ALL: Record<string, FixAll> = {
  PS7002: (document) => {
    const edits = document.sets.flatMap((set) =>
      set.parameterUses.flatMap((use) => {
        const declared = set.parametersByLower.get(use.lower);
        return declared && declared.name !== use.name ? [replaceExpressionName(use.start, use.end, declared.name)] : [];
      }),
    );
    return edits.length > 1 ? { title: `Write every parameter reference as declared (${edits.length} in this document)`, edits } : undefined;
  },
  PS5004: (document) => {
    const edits = document.sets.flatMap((set) => set.groupUses.flatMap((use) => (use.declared && use.declared.name !== use.name ? [replaceNode(use.node, use.declared.name)] : [])));
    return edits.length > 1 ? { title: `Write every group name as declared (${edits.length} in this document)`, edits } : undefined;
  },
  // Only parameter types: other enum values need the schema to know their canonical casing.
  PS2006: (document, asked, lines) => {
    const typeNodes = document.sets.flatMap((set) => set.parameters.flatMap((p) => (p.typeNode?.type === 'string' && p.type && p.typeNode.value !== p.type ? [{ node: p.typeNode, type: p.type }] : [])));
    const isType = (d: Diagnostic) => typeNodes.some(({ node }) => node.offset === lines.offsetAt(d.range.start) && node.offset + node.length === lines.offsetAt(d.range.end));
    if (typeNodes.length < 2 || !asked.some(isType)) return undefined;
    return { title: `Write every parameter type in its canonical casing (${typeNodes.length} in this document)`, edits: typeNodes.map(({ node, type }) => replaceNode(node, type)) };
  },
};

// ---- Versions -----------------------------------------------------------------------------

const SUFFIX = /(-[0-9A-Za-z][0-9A-Za-z.-]*)$/;

/** `#.#.#` from a version with a `v` prefix or fewer components; `exact` when nothing but those was changed. */
function normalizedVersion(value: string, keepSuffix: boolean): { version: string; exact: boolean } | undefined {
  const trimmed = value.trim();
  const suffix = keepSuffix ? (SUFFIX.exec(trimmed)?.[1] ?? '') : '';
  const core = suffix ? trimmed.slice(0, -suffix.length) : trimmed;
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/i.exec(core);
  if (!match) return undefined;
  return { version: `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}${suffix}`, exact: match[0].length === core.length };
}

function versionFix(ctx: Context, node: Node, version: string, exact: boolean, current: string): Candidate[] {
  if (version === current) return [];
  return [{ key: `${ctx.start}`, title: `Change to '${version}'`, edits: [replaceNode(node, version)], preferred: exact }];
}

function normalizeSetVersion(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  const node = nodeAt(ctx, 'string');
  if (!found || !node || found.set.isDynamic(node)) return [];
  // As the rule reads it: built-in documents may carry a suffix, authored resources may not.
  const lenient = found.set.kind === 'policySetDefinition' && !found.set.inTemplate;
  const normalized = normalizedVersion(node.value as string, lenient);
  if (!normalized || !(lenient ? SUFFIXED_VERSION : STRICT_VERSION).test(normalized.version)) return [];
  return versionFix(ctx, node, normalized.version, normalized.exact, node.value as string);
}

/** version-not-bumped: writes the smallest version the changes allow (the rule's `suggested`). */
function writeSuggestedVersion(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  const node = nodeAt(ctx, 'string');
  const suggested = stringData(ctx, 'suggested');
  if (!found || !node || !suggested || !STRICT_VERSION.test(suggested) || found.set.isDynamic(node)) return [];
  const current = node.value as string;
  // A template's version resource is named '<set>/<version>': only the version changes.
  const segments = current.split('/');
  segments[segments.length - 1] = suggested;
  const version = segments.join('/');
  if (version === current) return [];
  return [{ key: `${ctx.start}`, title: `Change the version to '${suggested}'`, edits: [replaceNode(node, version)], preferred: true }];
}

function normalizeVersionName(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  const node = nodeAt(ctx, 'string');
  if (!found || !node || found.set.kind !== 'policySetDefinitionVersion' || property(found.set.resource, 'name') !== node) return [];
  const name = node.value as string;
  const segments = name.split('/');
  // In a template the name is '<set>/<version>' (or the version alone when nested): only the version is normalised.
  const expected = found.set.inTemplate && !found.set.nested ? 2 : 1;
  if (segments.length !== expected || found.set.isDynamic(node) || segments[segments.length - 1].startsWith('[')) return [];
  const normalized = normalizedVersion(segments[segments.length - 1], false);
  if (!normalized) return [];
  segments[segments.length - 1] = normalized.version;
  return versionFix(ctx, node, segments.join('/'), normalized.exact, name);
}

function normalizeDefinitionVersion(ctx: Context): Candidate[] {
  const found = setAt(ctx);
  const reference = found?.set.references.find((r) => r.definitionVersionNode && sameRange(ctx, r.definitionVersionNode));
  const node = reference?.definitionVersionNode;
  if (!node || node.type !== 'string' || found!.set.isDynamic(node)) return [];
  const value = (node.value as string).trim();
  const suffix = SUFFIX.exec(value)?.[1] ?? '';
  const match = /^v?(\d+)(?:\.(\d+|\*))?(?:\.(\d+|\*))?$/i.exec(suffix ? value.slice(0, -suffix.length) : value);
  if (!match) return [];
  const [, major, minor, patch] = match;
  // A major version alone, or a wildcard, pins the major: what follows a wildcard is a wildcard.
  const version =
    minor === undefined || minor === '*' ? `${major}.*.*${suffix}` : patch === '*' ? `${major}.${minor}.*${suffix}` : `${major}.${minor}.${patch ?? 0}${suffix}`;
  if (!DEFINITION_VERSION.test(version)) return [];
  return versionFix(ctx, node, version, true, node.value as string);
}

// ---- Finding what a diagnostic is about ---------------------------------------------------

function sameRange(ctx: Context, node: Node): boolean {
  return node.offset === ctx.start && node.offset + node.length === ctx.end;
}

/** The node of this type exactly at the diagnostic's range. */
function nodeAt(ctx: Context, type: Node['type']): Node | undefined {
  const node = findNodeAtOffset(ctx.document.parsed.root!, ctx.start);
  return node && node.type === type && sameRange(ctx, node) ? node : undefined;
}

/** The innermost set whose resource holds the diagnostic (a version resource can be nested in its set's). */
function setAt(ctx: Context): { set: SetModel } | undefined {
  let best: SetModel | undefined;
  for (const set of ctx.document.sets) {
    const { offset, length } = set.resource;
    if (offset <= ctx.start && ctx.end <= offset + length && (!best || length < best.resource.length)) best = set;
  }
  return best && { set: best };
}

function groupUseAt(ctx: Context) {
  const found = setAt(ctx);
  const use = found?.set.groupUses.find((u) => sameRange(ctx, u.node));
  return found && use ? { set: found.set, use } : undefined;
}

function stringData(ctx: Context, key: string): string | undefined {
  const value = ctx.data[key];
  return typeof value === 'string' ? value : undefined;
}

function indexOfKey(object: Node | undefined, key: string): number | undefined {
  const lower = key.toLowerCase();
  const index = object?.children?.findIndex((p) => String(p.children?.[0]?.value).toLowerCase() === lower) ?? -1;
  return index >= 0 ? index : undefined;
}

// ---- What a new declaration holds ---------------------------------------------------------

/**
 * The type of a parameter to declare: the type of the definition parameter that a use is passed to whole
 * (`"value": "[parameters('x')]"`), when the definitions are known; else String.
 */
function inferParameterType(ctx: Context, set: SetModel, lower: string): ParameterType {
  const catalog = ctx.options.definitions;
  if (!catalog) return 'String';
  for (const use of set.parameterUses) {
    if (use.lower !== lower || !isWholeParameterCall(use.node.value as string, set.inTemplate)) continue;
    const passed = use.reference.parameterValues.find((v) => v.valueNode === use.node);
    if (!passed) continue;
    const type = definitionParameterType(ctx, set, use.reference, passed.name);
    if (type) return type;
  }
  return 'String';
}

function isWholeParameterCall(value: string, inTemplate: boolean): boolean {
  return new RegExp(`^\\[${inTemplate ? '\\[' : ''}\\s*parameters\\s*\\(\\s*'(?:[^']|'')*'\\s*\\)\\s*\\]$`, 'i').test(value);
}

function definitionParameterType(ctx: Context, set: SetModel, reference: ReferenceModel, name: string): ParameterType | undefined {
  const id = reference.idNode;
  if (!ctx.options.definitions || !id || id.type !== 'string' || set.isDynamic(id) || reference.idKey === undefined) return undefined;
  const all = ctx.options.definitions.lookup(id.value as string, reference.idKey);
  const cloud = (ctx.options.cloud ?? DEFAULT_CLOUD).toLowerCase();
  const ofCloud = all.filter((v) => v.cloud?.toLowerCase() === cloud);
  const types = new Set((ofCloud.length ? ofCloud : all).map((v) => v.parameters.get(name.toLowerCase())?.type).filter((t) => t !== undefined));
  // Variants that disagree say nothing.
  return types.size === 1 ? [...types][0] : undefined;
}

/** `allowedLocations` → `Allowed locations`. */
function displayNameOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  if (!words) return name;
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);
}

function freeReferenceId(set: SetModel, prefix: string, first: number): string {
  const taken = new Set(set.references.map((r) => r.refIdLower).filter((id) => id !== undefined));
  let n = first;
  while (taken.has(`${prefix}${n}`.toLowerCase())) n++;
  return `${prefix}${n}`;
}

/** The definition's name (the last segment of its ID), made unique in the set. */
function newReferenceId(set: SetModel, reference: ReferenceModel): string {
  const id = reference.idNode!.value as string;
  const base = id.slice(id.lastIndexOf('/') + 1).replace(/[^\w.-]+/g, '_') || 'reference';
  const taken = new Set(set.references.map((r) => r.refIdLower).filter((i) => i !== undefined));
  return taken.has(base.toLowerCase()) ? freeReferenceId(set, `${base}_`, 2) : base;
}

// ---- Edits that keep the document's layout ------------------------------------------------

interface Layout {
  eol: string;
  unit: string;
}

const layouts = new WeakMap<PolicyDocument, Layout>();

/** The line ending and indentation unit the document uses (its first line ending; the commonest indent step). */
function layoutOf(document: PolicyDocument): Layout {
  let layout = layouts.get(document);
  if (layout) return layout;
  const text = document.parsed.text;
  const newline = text.indexOf('\n');
  const eol = newline > 0 && text[newline - 1] === '\r' ? '\r\n' : newline < 0 && text.includes('\r') ? '\r' : '\n';
  let tabs = 0;
  let spaced = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  // The first 2,000 lines tell enough.
  const lines = text.split(/\r\n|\r|\n/, 2000);
  for (const line of lines) {
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent.length === line.length) continue;
    if (indent.startsWith('\t')) tabs++;
    else if (indent.length) spaced++;
    if (!indent.includes('\t')) {
      const step = indent.length - previous;
      if (step > 0) steps.set(step, (steps.get(step) ?? 0) + 1);
      previous = indent.length;
    }
  }
  let unit = '  ';
  if (tabs > spaced) unit = '\t';
  else if (steps.size) unit = ' '.repeat([...steps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0]);
  layout = { eol, unit };
  layouts.set(document, layout);
  return layout;
}

function endOf(node: Node): number {
  return node.offset + node.length;
}

/** The whitespace that starts the line holding an offset. */
function indentOfLine(text: string, offset: number): string {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

/** Whether a node is the first thing on its line. */
function startsLine(text: string, offset: number): boolean {
  return indentOfLine(text, offset).length === offset - lineStart(text, offset);
}

function lineStart(text: string, offset: number): number {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  return start;
}

function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text[i] === '\n' || text[i] === '\r') return true;
  return false;
}

function replaceNode(node: Node, value: string): Edit {
  return { offset: node.offset, length: node.length, content: JSON.stringify(value) };
}

/** Replaces a parameter name inside `parameters('…')`: quoted for the expression, then for JSON. */
function replaceExpressionName(start: number, end: number, name: string): Edit {
  return { offset: start, length: end - start, content: JSON.stringify(name.replace(/'/g, "''")).slice(1, -1) };
}

/** Removes a property (or array element) and the comma that separates it from its neighbours. */
function removeChild(container: Node, child: Node): Edit {
  const children = container.children ?? [];
  const index = children.indexOf(child);
  if (children.length === 1) {
    // The only child: the container becomes empty, `{}` or `[]`.
    return { offset: container.offset + 1, length: container.length - 2, content: '' };
  }
  if (index > 0) {
    // From the end of the previous child: its comma goes with it.
    const previous = children[index - 1];
    return { offset: endOf(previous), length: endOf(child) - endOf(previous), content: '' };
  }
  // The first of several: up to the next child, which takes its place (and its indentation).
  return { offset: child.offset, length: children[1].offset - child.offset, content: '' };
}

/**
 * Adds `value` (under `key` in an object) to a container at `index` (default: the end), written as its
 * neighbours are: one per line with their indentation, or on one line.
 */
function insertInto(ctx: Context, container: Node | undefined, type: 'object' | 'array', key: string | undefined, value: unknown, index: number | undefined): Edit | undefined {
  if (!container || container.type !== type) return undefined;
  const { text, layout } = ctx;
  const children = container.children ?? [];
  const entry = (indent: string, compact: boolean) => (key === undefined ? '' : `${JSON.stringify(key)}: `) + serialize(value, indent, layout, compact);
  if (!children.length) {
    const inner = text.slice(container.offset + 1, endOf(container) - 1);
    const outer = indentOfLine(text, container.offset);
    const indent = outer + layout.unit;
    const content = `${layout.eol}${indent}${entry(indent, false)}${layout.eol}${outer}`;
    // Whitespace inside is replaced; anything else (a comment) is kept.
    return inner.trim() ? { offset: container.offset + 1, length: 0, content } : { offset: container.offset + 1, length: inner.length, content };
  }
  const at = index === undefined || index >= children.length ? children.length : index;
  const neighbour = children[Math.min(at, children.length - 1)];
  const onePerLine = hasLineBreak(text, container.offset, children[0].offset) || (children.length > 1 && hasLineBreak(text, endOf(children[0]), children[1].offset));
  const neighbourValue = type === 'object' ? neighbour.children?.[1] : neighbour;
  const compact = !onePerLine || (!!neighbourValue && (neighbourValue.type === 'object' || neighbourValue.type === 'array') && !hasLineBreak(text, neighbourValue.offset, endOf(neighbourValue)));
  if (onePerLine) {
    const indent = startsLine(text, neighbour.offset) ? indentOfLine(text, neighbour.offset) : indentOfLine(text, container.offset) + layout.unit;
    if (at < children.length) return { offset: neighbour.offset, length: 0, content: `${entry(indent, compact)},${layout.eol}${indent}` };
    return { offset: endOf(neighbour), length: 0, content: `,${layout.eol}${indent}${entry(indent, compact)}` };
  }
  if (at < children.length) return { offset: neighbour.offset, length: 0, content: `${entry('', true)}, ` };
  return { offset: endOf(neighbour), length: 0, content: `, ${entry('', true)}` };
}

/** JSON text of a value: on one line (`{ "name": "x" }`), or one member per line indented from `indent`. */
function serialize(value: unknown, indent: string, layout: Layout, compact: boolean): string {
  if (compact) return compactJson(value);
  return JSON.stringify(value, null, layout.unit).replace(/\n/g, layout.eol + indent);
}

function compactJson(value: unknown): string {
  if (Array.isArray(value)) return value.length ? `[${value.map(compactJson).join(', ')}]` : '[]';
  if (isRecord(value)) {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`);
    return members.length ? `{ ${members.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function overlaps(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}


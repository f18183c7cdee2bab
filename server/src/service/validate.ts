import type { Range } from 'vscode-languageserver-types';
import { parseJson, keyNodeOf, type Node, type ParsedJson } from './json';
import { LineIndex } from './text';
import { classify, classifyValue, type Classification, type DocumentKind } from './model/documentKind';
import { modelOfResource, type SetModel } from './model/policySet';
import { embeddedSets } from './model/embedded';
import { addUnchecked, noUnchecked, uncheckedReferencesOf, type UncheckedReferences } from './unchecked';
import { createValidationContext, type ValidationOptions } from './context';
import { RULES, type Rule } from './rules';
import type { Report } from './rules/types';
import {
  DIAGNOSTIC_SOURCE,
  SEVERITY_VALUES,
  isSeveritySetting,
  type PolicySetDiagnostic,
  type SeverityName,
  type SeveritySetting,
} from './diagnostics';
import { consumersOf, type ConsumerModel } from './consumers';
import { parameterFileModel, parameterFileUses, resolveParameterFileUse, type ResolvedParameterFileUse } from './consumers/parameterFile';
import { assembleSplitSet, usablePart, SPLIT_PARTS, type PartText, type SplitPart } from './model/splitSet';

export interface ValidateOptions extends ValidationOptions {
  /** Severity by rule code or name; 'off' turns a rule off. */
  severities?: Record<string, SeveritySetting>;
  /** Rules whose severity is below this one are not run (default: hint, everything runs). */
  minSeverity?: SeverityName;
  /**
   * The caller knows this is meant to be a policy document (a file named on the command line, a
   * `policyset` editor document): its syntax is reported even when its content is not recognised.
   * Otherwise a document that is not a policy document gets no diagnostics at all.
   */
  assumePolicyDocument?: boolean;
  /** Where the rule pages live: `<docsBaseUrl>/<rule name>.md`. */
  docsBaseUrl?: string;
}

export interface PolicyDocument {
  parsed: ParsedJson;
  kind: DocumentKind;
  sets: SetModel[];
  lines: LineIndex;
  /** The consumers of sets it holds (assignments, exemptions); empty for most documents. */
  consumers: ConsumerModel[];
}

export interface ValidationResult {
  kind: DocumentKind;
  diagnostics: PolicySetDiagnostic[];
  /** Rules that threw: a bug, reported here instead of taking validation down. */
  internalErrors: Array<{ rule: string; message: string }>;
  /** References whose definition could not be checked, and why (sets embedded in a template counted too). */
  unchecked: UncheckedReferences;
  document: PolicyDocument;
  /** Assignments whose set (or definition) is not known, so not checked against it (none for most documents). */
  unresolvedAssignments: number;
}

/**
 * Parses a document and builds its model: what validation and the editor features share. With
 * `model: false` the set models are left out (`sets` is empty) for callers that need only the tree and
 * the kind, such as completion right after an edit; `withModel` adds them to that same parse.
 */
export function parsePolicyDocument(text: string, options: { model?: boolean } = {}): PolicyDocument {
  const parsed = parseJson(text);
  if (parsed.tooLarge) {
    // Recognised from the plain value: a document too large for a tree is still told apart from other JSON.
    return {
      parsed,
      kind: parsed.syntaxErrors.length ? 'unknown' : classifyValue(parsed.value()),
      sets: [],
      lines: new LineIndex(parsed.text),
      consumers: [],
    };
  }
  const classification = classify(parsed.root);
  const sets = options.model === false ? [] : modelsOf(parsed, classification.resources, classification.kind);
  const { kind, consumers } = withConsumers(parsed, classification.kind);
  return { parsed, kind, sets, lines: new LineIndex(parsed.text), consumers };
}

/** Consumers are looked for in documents that hold no set, and in templates (which may hold both). */
function withConsumers(parsed: ParsedJson, kind: DocumentKind): { kind: DocumentKind; consumers: ConsumerModel[] } {
  if (parsed.tooDeep || (kind !== 'unknown' && kind !== 'armTemplate')) return { kind, consumers: [] };
  const consumers = consumersOf(parsed.root);
  return { kind: kind === 'unknown' && consumers.length ? 'policyConsumer' : kind, consumers };
}

/** The document of a `model: false` parse with its set models built (the same tree). */
export function withModel(document: PolicyDocument): PolicyDocument {
  if (document.parsed.tooLarge) return document;
  const classification = classify(document.parsed.root);
  return { ...document, sets: modelsOf(document.parsed, classification.resources, classification.kind) };
}

function modelsOf(parsed: ParsedJson, resources: Classification['resources'], kind: DocumentKind): SetModel[] {
  return resources.map((resource) => modelOfResource(parsed.text, resource, kind === 'armTemplate' || !!resource.fragment));
}

/** Each message template split once into literal text (even places) and `{{key}}` names (odd places). */
const templateParts = new Map<string, string[]>();

function format(template: string, data: Record<string, unknown> | undefined): string {
  let parts = templateParts.get(template);
  if (!parts) templateParts.set(template, (parts = template.split(/\{\{(\w+)\}\}/)));
  let message = parts[0];
  for (let i = 1; i < parts.length; i += 2) message += String(data?.[parts[i]] ?? '') + parts[i + 1];
  return message;
}

/** The range to mark: the node itself for scalars; for containers the key that holds them, or their opening token. */
function nodeRange(node: Node, on: Report['on']): [number, number] {
  const key = keyNodeOf(node);
  if (on === 'key' || node.type === 'object' || node.type === 'array') {
    if (key) return [key.offset, key.offset + key.length];
    return [node.offset, node.offset + 1];
  }
  return [node.offset, node.offset + node.length];
}

/** The configured severity of a rule, by code or else by name; settings that are not severities are ignored. */
export function severityOf(rule: Rule, severities: ValidateOptions['severities']): SeveritySetting {
  if (!severities) return rule.meta.defaultSeverity;
  const byCode = severities[rule.meta.code];
  if (isSeveritySetting(byCode)) return byCode;
  const byName = severities[rule.meta.name];
  return isSeveritySetting(byName) ? byName : rule.meta.defaultSeverity;
}

const settingsCache = new WeakMap<object, SeveritySetting[]>();
const DEFAULT_SETTINGS = RULES.map((rule) => rule.meta.defaultSeverity);

/** The setting of every rule (in RULES order), worked out once per severities object (callers pass new objects, never changed ones). */
function settingsOf(severities: ValidateOptions['severities']): SeveritySetting[] {
  if (!severities) return DEFAULT_SETTINGS;
  let settings = settingsCache.get(severities);
  if (!settings) settingsCache.set(severities, (settings = RULES.map((rule) => severityOf(rule, severities))));
  return settings;
}

/**
 * Validation in steps, one rule at a time: a caller that must stay responsive (the language server)
 * can yield between steps and stop when the document has changed. Returns the result when done.
 */
export function* validationSteps(document: PolicyDocument, options: ValidateOptions = {}): Generator<void, ValidationResult, void> {
  const { parsed, kind, sets, lines, consumers } = document;
  const uri = options.uri ?? 'untitled:policyset.json';
  const diagnostics: PolicySetDiagnostic[] = [];
  const internalErrors: ValidationResult['internalErrors'] = [];
  // Set rules need a recognised set; document rules (syntax, encoding) run for policy documents, or when asked.
  const runSetRules = sets.length > 0 && !parsed.tooDeep;
  const threshold = SEVERITY_VALUES[options.minSeverity ?? 'hint'];

  // One report function and one context per set, shared by every rule: only the current rule changes.
  let rule: Rule = RULES[0];
  let severity: SeverityName = 'error';
  const report = (r: Report) => {
    let start: number;
    let end: number;
    if (r.start !== undefined) {
      start = r.start;
      end = r.end ?? r.start + 1;
    } else if (r.node) {
      [start, end] = nodeRange(r.node, r.on);
    } else return;
    const diagnostic: PolicySetDiagnostic = {
      range: lines.rangeOf(start, end),
      severity: SEVERITY_VALUES[severity],
      code: rule.meta.code,
      source: DIAGNOSTIC_SOURCE,
      message: format(rule.meta.messages[r.messageId] ?? r.messageId, r.data),
      data: { rule: rule.meta.name, messageId: r.messageId, ...r.data },
    };
    if (options.docsBaseUrl) diagnostic.codeDescription = { href: `${options.docsBaseUrl.replace(/\/$/, '')}/${rule.meta.name}.md` };
    if (r.related?.length) {
      diagnostic.relatedInformation = r.related.map((rel) => {
        const [s, e] = rel.node ? nodeRange(rel.node, 'value') : [rel.start ?? 0, rel.end ?? rel.start ?? 0];
        if (rel.location) {
          const at = { line: rel.location.line, character: rel.location.character };
          return { location: { uri: rel.location.uri, range: { start: at, end: at } }, message: rel.message };
        }
        return { location: { uri, range: lines.rangeOf(s, e) }, message: rel.message };
      });
    }
    diagnostics.push(diagnostic);
  };
  const documentContext = createValidationContext(parsed, kind, sets, options, report, consumers);
  const setContexts = sets.map((set) => documentContext.forSet(set));
  const settings = settingsOf(options.severities);
  for (let r = 0; r < RULES.length; r++) {
    rule = RULES[r];
    const setting = settings[r];
    if (setting === 'off' || SEVERITY_VALUES[setting] > threshold) continue;
    if (rule.scope === 'set' && !runSetRules) continue;
    // A consumer's file gets the consumer rules; the rules of policy documents only when it is named as one.
    if (rule.scope === 'document' && (kind === 'unknown' || kind === 'policyConsumer') && !options.assumePolicyDocument) continue;
    if (rule.scope === 'consumer' && !consumers.length) continue;
    if (rule.scope === 'parameterFile') continue;
    severity = setting;
    try {
      if (rule.scope === 'document' || rule.scope === 'consumer') rule.check(documentContext);
      else for (const setContext of setContexts) rule.check(setContext);
    } catch (error) {
      internalErrors.push({ rule: rule.meta.name, message: error instanceof Error ? error.message : String(error) });
    }
    yield;
  }
  const unchecked = runSetRules ? uncheckedReferencesOf(sets, options.definitions) : noUnchecked();
  if (kind === 'armTemplate' && parsed.root && !parsed.tooDeep) {
    for (const embedded of embeddedSets(parsed.root, parsed.text)) {
      const inner = validateText(embedded.text, { ...options, assumePolicyDocument: true });
      const innerLines = inner.document.lines;
      for (const found of inner.diagnostics) {
        // Related places are in the inner text: left out rather than shown in the wrong place.
        const diagnostic = { ...found };
        delete diagnostic.relatedInformation;
        if (embedded.offset !== undefined) {
          // An object variable: the same text, further on.
          const shift = (p: PolicySetDiagnostic['range']['start']) => lines.positionAt(embedded.offset! + innerLines.offsetAt(p));
          diagnostics.push({ ...diagnostic, range: { start: shift(diagnostic.range.start), end: shift(diagnostic.range.end) } });
        } else {
          // A string: shown on the string, with the line of the set file it was loaded from.
          const at = diagnostic.range.start.line + 1;
          diagnostics.push({
            ...diagnostic,
            range: lines.rangeOf(embedded.node.offset, embedded.node.offset + embedded.node.length),
            message: `In variables('${embedded.variable}'), line ${at} of the set it holds: ${diagnostic.message}`,
          });
        }
      }
      internalErrors.push(...inner.internalErrors);
      addUnchecked(unchecked, inner.unchecked);
    }
  }
  diagnostics.sort(
    (a, b) =>
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
  const unresolvedAssignments = consumers.length
    ? documentContext
        .resolvedConsumers()
        .filter((r) => (r.consumer.shape === 'assignment' || r.consumer.shape === 'epacAssignment') && !r.resolved).length
    : 0;
  return { kind, diagnostics, internalErrors, document, unchecked, unresolvedAssignments };
}

export function validateDocument(document: PolicyDocument, options: ValidateOptions = {}): ValidationResult {
  const steps = validationSteps(document, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export function validateText(text: string, options: ValidateOptions = {}): ValidationResult {
  if (options.parameterFile) return validateParameterFile(text, options);
  return validateDocument(parsePolicyDocument(text), options);
}

/**
 * A CSV parameter file of the policy-as-code framework, checked against the branches of the assignment files
 * given (`options.parameterFile`) that name it by its file name. A CSV no assignment names gets nothing.
 */
function validateParameterFile(text: string, options: ValidateOptions): ValidationResult {
  const uri = options.uri ?? 'untitled:parameters.csv';
  const name = baseName(uri);
  const uses: ResolvedParameterFileUse[] = [];
  for (const assignment of options.parameterFile?.assignments ?? []) {
    const document = parsePolicyDocument(assignment.text, { model: false });
    if (document.parsed.tooDeep) continue;
    for (const use of parameterFileUses(document.parsed.root)) {
      if (baseName(use.file) !== name) continue;
      const at = document.lines.positionAt(use.node.offset);
      uses.push(resolveParameterFileUse(use, assignment.uri, at, options.definitions));
    }
  }
  const lines = new LineIndex(text);
  const diagnostics: PolicySetDiagnostic[] = [];
  const internalErrors: ValidationResult['internalErrors'] = [];
  const parsed = parseJson('');
  const document: PolicyDocument = { parsed, kind: uses.length ? 'policyConsumer' : 'unknown', sets: [], lines, consumers: [] };
  // Unresolved sets are counted where the assignment file is linted, not again here.
  const result = { kind: document.kind, diagnostics, internalErrors, document, unchecked: noUnchecked(), unresolvedAssignments: 0 };
  if (!uses.length) return result;
  const file = parameterFileModel(text);
  const settings = settingsOf(options.severities);
  const threshold = SEVERITY_VALUES[options.minSeverity ?? 'hint'];
  for (let r = 0; r < RULES.length; r++) {
    const rule = RULES[r];
    const setting = settings[r];
    if (rule.scope !== 'parameterFile' || setting === 'off' || SEVERITY_VALUES[setting] > threshold) continue;
    const report = (found: Report) => {
      const start = found.start ?? 0;
      const diagnostic: PolicySetDiagnostic = {
        range: lines.rangeOf(start, found.end ?? start + 1),
        severity: SEVERITY_VALUES[setting],
        code: rule.meta.code,
        source: DIAGNOSTIC_SOURCE,
        message: format(rule.meta.messages[found.messageId] ?? found.messageId, found.data),
        data: { rule: rule.meta.name, messageId: found.messageId, ...found.data },
      };
      if (options.docsBaseUrl) diagnostic.codeDescription = { href: `${options.docsBaseUrl.replace(/\/$/, '')}/${rule.meta.name}.md` };
      if (found.related?.length)
        diagnostic.relatedInformation = found.related.map((rel) => {
          if (rel.location) {
            const at = { line: rel.location.line, character: rel.location.character };
            return { location: { uri: rel.location.uri, range: { start: at, end: at } }, message: rel.message };
          }
          return { location: { uri, range: lines.rangeOf(rel.start ?? 0, rel.end ?? rel.start ?? 0) }, message: rel.message };
        });
      diagnostics.push(diagnostic);
    };
    try {
      rule.check({ text, file, uses, options, report });
    } catch (error) {
      internalErrors.push({ rule: rule.meta.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return result;
}

/** The file name of a path or URI, lowercased (the framework finds a parameter file by its name). */
function baseName(pathOrUri: string): string {
  const decoded = decodeURIComponent(pathOrUri.replace(/%(?![0-9a-f]{2})/gi, '%25'));
  return decoded.slice(Math.max(decoded.lastIndexOf('/'), decoded.lastIndexOf('\\')) + 1).toLowerCase();
}

/**
 * Checks a split set (see model/splitSet.ts) as one set and returns the diagnostics of each part, by URI
 * (every part present has an entry, empty when clean). Diagnostics about the set as a whole (limits of the
 * request, for example) go to the definitions part's first line.
 */
export function validateSplitSet(
  parts: Partial<Record<SplitPart, PartText>>,
  options: ValidateOptions = {},
): Map<string, PolicySetDiagnostic[]> {
  const result = new Map<string, PolicySetDiagnostic[]>();
  const assembled = assembleSplitSet(parts, usablePart);
  if (!assembled) return result;
  for (const part of SPLIT_PARTS) {
    const given = parts[part];
    if (given) result.set(given.uri, []);
  }
  const validated = validateText(assembled.text, { ...options, uri: assembled.definitions.uri, assumePolicyDocument: true });
  const locate = (range: Range): { uri: string; range: Range } => {
    const located = assembled.locate(range);
    return located
      ? { uri: located.segment.uri, range: located.range }
      : { uri: assembled.definitions.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
  };
  for (const diagnostic of validated.diagnostics) {
    const { uri, range } = locate(diagnostic.range);
    const relatedInformation = diagnostic.relatedInformation?.map((related) => ({ ...related, location: locate(related.location.range) }));
    result.get(uri)!.push({ ...diagnostic, range, ...(relatedInformation ? { relatedInformation } : {}) });
  }
  return result;
}

// The rule tester: runs a rule's table of cases (test/rules/<name>.test.ts), one test() per case, as ESLint's
// RuleTester does: valid documents the rule must pass, invalid ones it must report with its code, on the exact range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText, decodeUtf8, DefinitionCatalog, RULES, type ValidateOptions, type PolicySetDiagnostic } from '#service';
import { getCodeActions } from '#features';
import { marked } from './cursor';
import { applyTextEdits, editsOf } from './textEdits';

type Severity = 1 | 2 | 3 | 4;

export interface InvalidCase {
  name: string;
  /** The document, with two `|` markers around the exact range the diagnostic must have. */
  text: string;
  code: string;
  /** Expected severity (default: the rule's default severity). */
  severity?: Severity;
  options?: ValidateOptions;
  /** Fields that `data` must carry (compared with deepEqual each). */
  data?: Record<string, unknown>;
  /** The source text under each relatedInformation range, in order. */
  related?: string[];
  message?: RegExp;
  /** How many diagnostics of this code the document has in all (default 1). */
  count?: number;
  /** Error-severity codes besides `code` that the document is expected to have too (default none). */
  otherErrors?: string[];
  /** Convert the document's line endings to CRLF before marking. */
  crlf?: boolean;
  /** The marked text is one U+FFFD that stands for the invalid byte 0xFF in the file's bytes. */
  invalidByte?: boolean;
  /**
   * The quick fixes the rule offers for the diagnostic (as ESLint's `output`), in order: each one's title and
   * the document after its edits (without the `|` markers). Without it, the fixes are not checked here.
   */
  fixes?: Array<{ title: string; output: string; preferred?: boolean }>;
}

export interface ValidCase {
  name: string;
  text: string;
  /** Codes that must not be reported. */
  notCodes: string[];
  options?: ValidateOptions;
  /** By default a valid case must have no error-severity diagnostic at all; these codes are tolerated. */
  allowErrors?: string[];
  crlf?: boolean;
}

const SEVERITY_VALUE: Record<string, Severity> = { error: 1, warning: 2, info: 3, hint: 4 };

export function defaultSeverity(code: string): Severity {
  const rule = RULES.find((r) => r.meta.code === code);
  if (!rule) throw new Error(`no rule ${code}`);
  return SEVERITY_VALUE[rule.meta.defaultSeverity];
}

export function ruleName(code: string): string {
  const rule = RULES.find((r) => r.meta.code === code);
  if (!rule) throw new Error(`no rule ${code}`);
  return rule.meta.name;
}

/** LSP position of a UTF-16 offset: `\r\n`, `\r` and `\n` end lines. */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const ch = text[i];
    if (ch === '\r' && text[i + 1] === '\n' && i + 1 < offset) continue;
    if (ch === '\n' || ch === '\r') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

function offsetAt(text: string, position: { line: number; character: number }): number {
  let line = 0;
  let i = 0;
  while (line < position.line && i < text.length) {
    const ch = text[i++];
    if (ch === '\r' && text[i] === '\n') i++;
    if (ch === '\n' || ch === '\r') line++;
  }
  return i + position.character;
}

/** The source text a range covers. */
export function sliceOf(
  text: string,
  range: { start: { line: number; character: number }; end: { line: number; character: number } },
): string {
  return text.slice(offsetAt(text, range.start), offsetAt(text, range.end));
}

function describe(text: string, diagnostics: PolicySetDiagnostic[]): string {
  if (!diagnostics.length) return '(none)';
  return diagnostics
    .map(
      (d) =>
        `  ${d.code} sev ${d.severity} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${JSON.stringify(sliceOf(text, d.range).slice(0, 80))} ${d.message}`,
    )
    .join('\n');
}

function prepare(source: string, crlf: boolean | undefined): string {
  return crlf ? source.replace(/\r?\n/g, '\r\n') : source;
}

/**
 * Every invalid case given to run, with the rule whose file it is in. The rule coverage test imports the rule test files
 * with `collectOnly` set, runs each case through checkInvalid itself, and so knows which rules a passing case
 * produces: from the cases' results, not from where a code is written.
 */
export const registry: { collectOnly: boolean; invalid: Array<{ rule: string; case: InvalidCase }> } = { collectOnly: false, invalid: [] };

/** The check of one invalid case: throws unless the document gets exactly the expected diagnostic. */
export function checkInvalid(c: InvalidCase): void {
  const [text, start, end] = marked(prepare(c.text, c.crlf));
  const options: ValidateOptions = { ...c.options };
  if (c.invalidByte) {
    assert.equal(text.slice(start, end), '\uFFFD', 'the marked text of an invalidByte case must be one U+FFFD');
    const bytes = Buffer.concat([Buffer.from(text.slice(0, start), 'utf8'), Buffer.from([0xff]), Buffer.from(text.slice(end), 'utf8')]);
    const decoded = decodeUtf8(bytes);
    assert.equal(decoded.text, text);
    options.encodingProblem = decoded.encodingProblem;
  }
  const result = validateText(text, options);
  assert.deepEqual(result.internalErrors, [], 'rules threw');
  const expected = { start: positionAt(text, start), end: positionAt(text, end) };
  const ofCode = result.diagnostics.filter((d) => d.code === c.code);
  const hit = ofCode.find(
    (d) =>
      d.range.start.line === expected.start.line &&
      d.range.start.character === expected.start.character &&
      d.range.end.line === expected.end.line &&
      d.range.end.character === expected.end.character,
  );
  assert.ok(
    hit,
    `expected ${c.code} on ${JSON.stringify(text.slice(start, end))} at ${expected.start.line}:${expected.start.character}-${expected.end.line}:${expected.end.character}; all diagnostics:\n${describe(text, result.diagnostics)}`,
  );
  assert.equal(ofCode.length, c.count ?? 1, `number of ${c.code} diagnostics:\n${describe(text, ofCode)}`);
  assert.equal(hit.severity, c.severity ?? defaultSeverity(c.code), 'severity');
  assert.equal(hit.source, 'policyset');
  assert.equal(hit.data.rule, ruleName(c.code), 'data.rule');
  assert.equal(typeof hit.data.messageId, 'string', 'data.messageId');
  // The message is the rule's own text for its messageId, not the id itself (what a rule without that message shows).
  const template = RULES.find((r) => r.meta.code === c.code)?.meta.messages[hit.data.messageId as string];
  assert.ok(template, `${c.code} has no message '${String(hit.data.messageId)}'`);
  assert.notEqual(String(hit.message), hit.data.messageId, 'the message is text, not its id');
  // Every placeholder of the message has a value: a report without its data leaves holes in the sentence.
  for (const [, key] of template.matchAll(/\{\{(\w+)\}\}/g))
    assert.notEqual(hit.data[key], undefined, `${c.code} message '${String(hit.data.messageId)}' has no value for {{${key}}}`);
  const message = String(hit.message);
  assert.ok(message && !/\{\{/.test(message), `message has unfilled placeholders: ${message}`);
  if (c.message) assert.match(message, c.message);
  for (const [key, value] of Object.entries(c.data ?? {})) assert.deepEqual(hit.data[key], value, `data.${key}`);
  if (c.related) {
    const related = (hit.relatedInformation ?? []).map((r) => sliceOf(text, r.location.range));
    assert.deepEqual(related, c.related, 'relatedInformation ranges');
  }
  const allowed = new Set([c.code, ...(c.otherErrors ?? [])]);
  const unexpected = result.diagnostics.filter((d) => d.severity === 1 && !allowed.has(d.code));
  assert.equal(unexpected.length, 0, `unexpected errors:\n${describe(text, unexpected)}`);
  if (c.fixes) {
    const uri = 'file:///case.json';
    const actions = getCodeActions(result.document, uri, [hit], hit.range, { definitions: options.definitions, cloud: options.cloud });
    const fixes = actions.map((action) => ({
      title: action.title,
      output: applyTextEdits(text, editsOf(action, uri)),
      preferred: action.isPreferred === true,
    }));
    assert.deepEqual(
      fixes,
      c.fixes.map((f) => ({ preferred: false, ...f, output: prepare(f.output, c.crlf) })),
      'quick fixes',
    );
  }
}

/**
 * The cases of one rule, named by its rule name (the file `test/rules/<name>.test.ts`): every invalid case is
 * of that rule's code, every valid case says it must not report that code.
 */
export function run(name: string, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  const rule = RULES.find((r) => r.meta.name === name);
  if (!rule) throw new Error(`no rule named ${name}`);
  for (const c of cases.invalid)
    if (c.code !== rule.meta.code) throw new Error(`${name}: invalid case '${c.name}' is of ${c.code}, not ${rule.meta.code}`);
  for (const c of cases.valid)
    if (!c.notCodes.includes(rule.meta.code)) throw new Error(`${name}: valid case '${c.name}' does not check ${rule.meta.code}`);
  runInvalid(name, cases.invalid);
  runValid(name, cases.valid);
}

function runInvalid(rule: string, cases: InvalidCase[]): void {
  const names = new Set<string>();
  for (const c of cases) {
    const title = `${rule} invalid ${c.code} ${c.name}`;
    if (names.has(title)) throw new Error(`duplicate case name: ${title}`);
    names.add(title);
    registry.invalid.push({ rule, case: c });
    if (!registry.collectOnly) test(title, () => checkInvalid(c));
  }
}

function runValid(rule: string, cases: ValidCase[]): void {
  const names = new Set<string>();
  for (const c of cases) {
    const title = `${rule} valid ${c.name}`;
    if (names.has(title)) throw new Error(`duplicate case name: ${title}`);
    names.add(title);
    if (registry.collectOnly) continue;
    test(title, () => {
      const text = prepare(c.text, c.crlf);
      const result = validateText(text, c.options);
      assert.deepEqual(result.internalErrors, [], 'rules threw');
      const flagged = result.diagnostics.filter((d) => c.notCodes.includes(d.code));
      assert.equal(flagged.length, 0, `must not report ${c.notCodes.join(', ')}:\n${describe(text, flagged)}`);
      const allowed = new Set(c.allowErrors ?? []);
      const errors = result.diagnostics.filter((d) => d.severity === 1 && !allowed.has(d.code));
      assert.equal(errors.length, 0, `unexpected errors:\n${describe(text, errors)}`);
    });
  }
}

// ---- Document builders (no `|` in any of them: the markers are the only ones) -----------------

export const SET_ID = '/providers/Microsoft.Authorization/policySetDefinitions/test-set';
export const defId = (name: string) => `/providers/Microsoft.Authorization/policyDefinitions/${name}`;

/** An A3 policy set definition (as in the corpus) around the given `properties` object text. */
export function a3(properties: string): string {
  return `{
  "id": "${SET_ID}",
  "name": "test-set",
  "type": "Microsoft.Authorization/policySetDefinitions",
  "properties": ${properties}
}`;
}

/** An A1 version resource around the given `properties` object text. */
export function a1(properties: string, name = '"1.0.0"'): string {
  return `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "apiVersion": "2025-11-01",
  "name": ${name},
  "properties": ${properties}
}`;
}

/** A set file of the policy-as-code framework (named by its `$schema`), with the given `properties` members after its displayName. */
export function policyAsCode(members: string): string {
  return `{
  "$schema": "https://raw.githubusercontent.com/Azure/enterprise-azure-policy-as-code/main/Schemas/policy-set-definition-schema.json",
  "name": "net",
  "properties": {
    "displayName": "Net",
    ${members}
  }
}`;
}

/** An ARM template around the given resources array content. */
export function template(resources: string, parameters = '{}'): string {
  return `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "parameters": ${parameters},
  "resources": [
${resources}
  ]
}`;
}

// ---- Known definitions ----------------------------------------------------------------------------

export const DEF = {
  /** effect (String, allowed Audit/Deny/Disabled), listOfLocations (array, required), maxCount (Integer), labelSelector (object). Versions 1.2.0, 1.1.0, 1.0.0. */
  main: defId('00000000-0000-0000-0000-0000000000a1'),
  /** Same id in AzureCloud (2.0.0: effect, cloudOnly required) and AzureUSGovernment (2.1.0: effect, govOnly with default). */
  twoClouds: defId('00000000-0000-0000-0000-0000000000a2'),
  /** Latest 8.0.0 (versions 8.0.0, 7.1.0) dropped minPort and maxPort. */
  changed: defId('00000000-0000-0000-0000-0000000000a3'),
  /** Only non-preview versions 1.4.0, 1.3.0. */
  stable: defId('00000000-0000-0000-0000-0000000000a4'),
  /** version 2.0.0-preview, versions ['2.0.0-PREVIEW']. */
  preview: defId('00000000-0000-0000-0000-0000000000a5'),
  /** Marked deprecated. */
  deprecated: defId('00000000-0000-0000-0000-0000000000a6'),
  /** Parameter declared as 'MembersToInclude' (String, required); 'Effect' with allowed values in lowercase. */
  casing: defId('00000000-0000-0000-0000-0000000000a7'),
  /** A custom definition from a policy definition document at subscription scope. */
  custom: '/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/policyDefinitions/custom-def',
  /** Not in the catalog. */
  missing: defId('00000000-0000-0000-0000-0000000000ff'),
} as const;

let catalogInstance: DefinitionCatalog | undefined;

export function catalog(): DefinitionCatalog {
  if (catalogInstance) return catalogInstance;
  const c = new DefinitionCatalog();
  c.addIndex([
    {
      name: DEF.main.split('/').pop(),
      id: DEF.main,
      version: '1.2.0',
      versions: ['1.2.0', '1.1.0', '1.0.0'],
      parameters: {
        effect: { type: 'String', allowedValues: ['Audit', 'Deny', 'Disabled'], defaultValue: 'Audit' },
        listOfLocations: { type: 'array' },
        maxCount: { type: 'Integer', defaultValue: 5 },
        labelSelector: { type: 'object', defaultValue: {} },
      },
      displayName: 'Main definition',
      cloud: 'AzureCloud',
    },
    {
      name: DEF.twoClouds.split('/').pop(),
      id: DEF.twoClouds,
      version: '2.0.0',
      versions: ['2.0.0'],
      parameters: { effect: { type: 'String', defaultValue: 'Audit' }, cloudOnly: { type: 'String' } },
      displayName: 'Two clouds',
      cloud: 'AzureCloud',
    },
    {
      name: DEF.twoClouds.split('/').pop(),
      id: DEF.twoClouds,
      version: '2.1.0',
      versions: ['2.1.0', '2.0.0'],
      parameters: { effect: { type: 'String', defaultValue: 'Audit' }, govOnly: { type: 'String', defaultValue: 'x' } },
      displayName: 'Two clouds',
      cloud: 'AzureUSGovernment',
    },
    {
      name: DEF.changed.split('/').pop(),
      id: DEF.changed,
      version: '8.0.0',
      versions: ['8.0.0', '7.1.0'],
      parameters: { effect: { type: 'String', defaultValue: 'Audit' }, excludedNamespaces: { type: 'Array', defaultValue: [] } },
      displayName: 'Changed parameters',
      cloud: 'AzureCloud',
    },
    {
      name: DEF.stable.split('/').pop(),
      id: DEF.stable,
      version: '1.4.0',
      versions: ['1.4.0', '1.3.0'],
      parameters: { effect: { type: 'String', defaultValue: 'Audit' } },
      displayName: 'Stable only',
      cloud: 'AzureCloud',
    },
    {
      name: DEF.preview.split('/').pop(),
      id: DEF.preview,
      version: '2.0.0-preview',
      versions: ['2.0.0-PREVIEW'],
      parameters: { effect: { type: 'String', defaultValue: 'Audit' } },
      displayName: 'Preview only',
      cloud: 'AzureCloud',
    },
    {
      name: DEF.deprecated.split('/').pop(),
      id: DEF.deprecated,
      version: '1.0.0-deprecated',
      versions: ['1.0.0-DEPRECATED'],
      parameters: { effect: { type: 'String', defaultValue: 'Audit' } },
      displayName: '[Deprecated]: Old definition',
      cloud: 'AzureCloud',
      deprecated: true,
    },
    {
      name: DEF.casing.split('/').pop(),
      id: DEF.casing,
      version: '2.0.0',
      versions: ['2.0.0'],
      parameters: {
        MembersToInclude: { type: 'String' },
        Effect: { type: 'string', allowedValues: ['auditIfNotExists', 'disabled'], defaultValue: 'auditIfNotExists' },
      },
      displayName: 'Casing',
      cloud: 'AzureCloud',
    },
  ]);
  c.addDefinitionDocument({
    id: DEF.custom,
    name: 'custom-def',
    properties: {
      displayName: 'Custom definition',
      version: '1.0.0',
      parameters: {
        tagName: { type: 'String', metadata: { displayName: 'Tag name' } },
        tagValues: { type: 'Array', defaultValue: [] },
      },
      policyRule: { if: { field: 'type', equals: 'x' }, then: { effect: 'audit' } },
    },
  });
  catalogInstance = c;
  return c;
}

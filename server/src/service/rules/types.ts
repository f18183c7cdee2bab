import type { Node } from '../json';
import type { SeverityName } from '../diagnostics';
import type { ValidationContext, ValidationOptions } from '../context';
import type { ParameterFileModel, ResolvedParameterFileUse } from '../consumers/parameterFile';
import type { SetModel } from '../model/policySet';
import type { DefinitionCatalog } from '../definitions';

export interface RuleMeta {
  /** Stable code, never reused: PS1xxx syntax, PS2xxx schema, PS3xxx versions, PS4xxx references,
   * PS5xxx groups, PS6xxx parameters, PS7xxx parameter references, PS8xxx referenced definitions, PS9xxx limits
   * (PS91xx model deployments and quota, PS92xx consumers: assignments and exemptions checked against their set). */
  code: string;
  /** kebab-case, also the name of its page in docs/rules/. */
  name: string;
  description: string;
  defaultSeverity: SeverityName;
  /** Message templates by id; {{key}} is replaced by the report's data. */
  messages: Record<string, string>;
  /**
   * What the rule's fixes change, when it has any (`lint --fix-type`, docs/cli.md): every fix of a rule is of
   * one kind. Whether a fix is applied without a person's choice is the fix's own `safe`.
   */
  fixable?: FixKind;
}

/**
 * The kinds of fixes (ESLint's problem/suggestion/layout do not fit a policy set: every fix here mends a
 * problem). `casing`: a name written in its declared or canonical spelling; `typo`: a misspelt name changed
 * to the one close match; `reference-id`: a missing or repeated policyDefinitionReferenceId; `version`: a
 * version normalised or bumped as the changes ask; `remove`: something removed that the service ignores or
 * rejects; `add`: something the service requires added (an assignment's parameter values), never safe.
 */
export const FIX_KINDS = ['casing', 'typo', 'reference-id', 'version', 'remove', 'add'] as const;
export type FixKind = (typeof FIX_KINDS)[number];

export interface RelatedReport {
  node?: Node;
  /** A place in another document (the set a consumer assigns): a path or URI, and a range in it. */
  location?: { uri: string; line: number; character: number };
  start?: number;
  end?: number;
  message: string;
}

export interface Report {
  /** The node to mark; with `on: 'key'` the property key that holds it. */
  node?: Node;
  on?: 'key' | 'value';
  /** Explicit document offsets, instead of a node. */
  start?: number;
  end?: number;
  messageId: string;
  data?: Record<string, unknown>;
  related?: RelatedReport[];
}

export interface DocumentRuleContext extends ValidationContext {
  report(report: Report): void;
}

export interface SetRuleContext extends DocumentRuleContext {
  set: SetModel;
}

// ---- Quick fixes ------------------------------------------------------------------------------

/** One text change, in document offsets. */
export interface Edit {
  offset: number;
  length: number;
  content: string;
}

/** The line ending and indentation unit a document is written with: new text is written the same way. */
export interface Layout {
  eol: string;
  unit: string;
}

export interface FixOptions {
  /** Known policy definitions: the type of a declared parameter is taken from the definition it is passed to. */
  definitions?: DefinitionCatalog;
  /** The cloud whose definition variants win (as in validation); default AzureCloud. */
  cloud?: string;
}

/** What a fix sees of the document: its tree, its text and its set models (the document of validation). */
export interface FixDocument {
  parsed: { root?: Node; text: string };
  sets: SetModel[];
}

/**
 * One diagnostic of the rule, back from the client: a fix relies on its range, its `data` and the document
 * at that range, never on its message. A diagnostic that no longer matches the document gets no fix.
 */
export interface FixContext {
  document: FixDocument;
  text: string;
  layout: Layout;
  options: FixOptions;
  /** The diagnostic's range, in offsets. */
  start: number;
  end: number;
  data: Record<string, unknown>;
}

/** One code action for a diagnostic. */
export interface Fix {
  /** Fixes of one rule with the same key are one action that fixes all their diagnostics (one group declared for all its uses). */
  key: string;
  title: string;
  edits: Edit[];
  preferred?: boolean;
  /**
   * Applied without a person's choice (`lint --fix`, `source.fixAll.policyset`): the one sensible change,
   * which loses nothing. A fix that guesses (a type for a new declaration) or deletes what someone may want
   * (an unused parameter) is offered in the editor only.
   */
  safe?: boolean;
}

export interface FixAllContext {
  document: FixDocument;
  /** The ranges (in offsets) of the rule's diagnostics the client asked about. */
  asked: Array<{ start: number; end: number }>;
}

/**
 * A rule's quick fixes, beside its check (as ESLint's `meta.fixable` and `fix(fixer)`): the code actions
 * find them through the rule of a diagnostic's code, so a fix cannot come loose from its rule.
 */
export interface RuleFixes {
  /** The fixes of one diagnostic of this rule (none when the document no longer matches it). */
  fix?(ctx: FixContext): Fix[];
  /** One action for every diagnostic of this kind in the document, offered beside a single fix when there is more than one; from the model alone. */
  fixAll?(ctx: FixAllContext): { title: string; edits: Edit[] } | undefined;
}

export interface DocumentRule extends RuleFixes {
  meta: RuleMeta;
  scope: 'document';
  check(ctx: DocumentRuleContext): void;
}

export interface SetRule extends RuleFixes {
  meta: RuleMeta;
  scope: 'set';
  check(ctx: SetRuleContext): void;
}

/** A rule about the consumers of sets a document holds (assignments, exemptions): run once per document that has any. */
export interface ConsumerRule extends RuleFixes {
  meta: RuleMeta;
  scope: 'consumer';
  check(ctx: DocumentRuleContext): void;
}

/** What a rule of the policy-as-code framework's CSV parameter files sees: the file, and the branches of assignment trees that name it. */
export interface ParameterFileRuleContext {
  text: string;
  file: ParameterFileModel;
  /** The branches that name the file, with their sets resolved (none when no assignment given names it). */
  uses: ResolvedParameterFileUse[];
  options: ValidationOptions;
  report(report: Report): void;
}

export interface ParameterFileRule extends RuleFixes {
  meta: RuleMeta;
  scope: 'parameterFile';
  check(ctx: ParameterFileRuleContext): void;
}

export type Rule = DocumentRule | SetRule | ConsumerRule | ParameterFileRule;

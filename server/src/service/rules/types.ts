import type { Node } from '../json';
import type { SeverityName } from '../diagnostics';
import type { ValidationContext } from '../context';
import type { SetModel } from '../model/policySet';

export interface RuleMeta {
  /** Stable code, never reused: PS1xxx syntax, PS2xxx schema, PS3xxx versions, PS4xxx references,
   * PS5xxx groups, PS6xxx parameters, PS7xxx parameter references, PS8xxx referenced definitions, PS9xxx limits. */
  code: string;
  /** kebab-case, also the name of its page in docs/rules/. */
  name: string;
  description: string;
  defaultSeverity: SeverityName;
  /** Message templates by id; {{key}} is replaced by the report's data. */
  messages: Record<string, string>;
}

export interface RelatedReport {
  node?: Node;
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

export interface DocumentRule {
  meta: RuleMeta;
  scope: 'document';
  check(ctx: DocumentRuleContext): void;
}

export interface SetRule {
  meta: RuleMeta;
  scope: 'set';
  check(ctx: SetRuleContext): void;
}

export type Rule = DocumentRule | SetRule;

// A member's result in one sentence: the outcome and the trace step that decided it, in words ("Deny
// because `properties.networkAcls.defaultAction` is 'Allow', expected 'Deny'"). The editor's code lens
// results and fixture diagnostics, and the CLI's evaluate and test reports, all say it this way. Pure.
import type { MemberResult } from './definition';
import { isIfNotExists } from './effects';
import type { Json, TraceEntry } from './types';

const MAX_VALUE = 60;
const MAX_LIST = 5;

/** A value as a sentence shows it: strings in single quotes, others as JSON, long ones cut. */
function shown(value: Json | undefined): string {
  if (value === undefined) return 'absent';
  const text = typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function list(values: Json): string {
  if (!Array.isArray(values)) return shown(values);
  const head = values.slice(0, MAX_LIST).map(shown).join(', ');
  return values.length > MAX_LIST ? `${head}, … (${values.length} values)` : head;
}

const wantsExisting = (expected: Json | undefined) =>
  expected === true || (typeof expected === 'string' && expected.toLowerCase() === 'true');

/** The operator with its negation: a condition that must be false for the rule to match reads as the other one. */
const OPPOSITES: Record<string, string> = {
  equals: 'notequals',
  like: 'notlike',
  match: 'notmatch',
  matchinsensitively: 'notmatchinsensitively',
  contains: 'notcontains',
  in: 'notin',
  containskey: 'notcontainskey',
  less: 'greaterorequals',
  lessorequals: 'greater',
};
for (const [a, b] of Object.entries(OPPOSITES)) OPPOSITES[b] = a;

interface Condition {
  operator: string;
  expected?: Json;
}

function opposite(condition: Condition): Condition {
  const operator = condition.operator.toLowerCase();
  if (operator === 'exists') return { operator, expected: !wantsExisting(condition.expected) };
  const other = OPPOSITES[operator];
  return other ? { operator: other, expected: condition.expected } : { operator: `not ${operator}`, expected: condition.expected };
}

/** What values satisfy a condition, in words: "'Deny'", "anything but 'Deny'", "at least 'TLS1_2'". */
export function describeCondition(condition: Condition): string {
  const e = condition.expected;
  switch (condition.operator.toLowerCase()) {
    case 'equals':
      return shown(e);
    case 'notequals':
      return `anything but ${shown(e)}`;
    case 'in':
      return Array.isArray(e) && e.length === 1 ? shown(e[0]) : `one of ${list(e ?? null)}`;
    case 'notin':
      return Array.isArray(e) && e.length === 1 ? `anything but ${shown(e[0])}` : `none of ${list(e ?? null)}`;
    case 'like':
      return `like ${shown(e)}`;
    case 'notlike':
      return `not like ${shown(e)}`;
    case 'match':
      return `matching ${shown(e)}`;
    case 'notmatch':
      return `not matching ${shown(e)}`;
    case 'matchinsensitively':
      return `matching ${shown(e)} (any case)`;
    case 'notmatchinsensitively':
      return `not matching ${shown(e)} (any case)`;
    case 'contains':
      return `containing ${shown(e)}`;
    case 'notcontains':
      return `not containing ${shown(e)}`;
    case 'containskey':
      return `with the key ${shown(e)}`;
    case 'notcontainskey':
      return `without the key ${shown(e)}`;
    case 'less':
      return `less than ${shown(e)}`;
    case 'lessorequals':
      return `at most ${shown(e)}`;
    case 'greater':
      return `more than ${shown(e)}`;
    case 'greaterorequals':
      return `at least ${shown(e)}`;
    case 'exists':
      return wantsExisting(e) ? 'a value' : 'no value';
  }
  return `${condition.operator} ${shown(e)}`;
}

/** The condition as the rule effectively tests it: one under `not` reads as its opposite. */
const effective = (entry: TraceEntry): Condition =>
  entry.negated ? opposite({ operator: entry.operator, expected: entry.expected }) : { operator: entry.operator, expected: entry.expected };

/** Whether the rule's `if` (or the existence condition) holds through this entry. */
const holds = (entry: TraceEntry): boolean | 'unknown' =>
  entry.result === 'unknown' ? 'unknown' : entry.negated ? !entry.result : entry.result;

function subject(entry: TraceEntry): string {
  const count = /^count\((.*)\)$/s.exec(entry.path);
  return count ? `the count of \`${count[1]}\`` : `\`${entry.path}\``;
}

/** "`path` is 'value'" (with every member of an array alias). */
function fact(entry: TraceEntry): string {
  const members = entry.reason === 'every member of the array' && Array.isArray(entry.value);
  return `${subject(entry)} ${members ? 'has the values' : 'is'} ${members ? list(entry.value ?? null) : shown(entry.value)}`;
}

/** An entry that made the member non-compliant: the value, and what a compliant resource would have. */
export function violatedStep(entry: TraceEntry, existenceCondition = false): string {
  // A condition of the `if` matched: compliance wants its opposite. An existence condition failed: it wants the condition.
  const wanted = existenceCondition ? effective(entry) : opposite(effective(entry));
  return `${fact(entry)}, expected ${describeCondition(wanted)}`;
}

/** An entry that kept the rule from matching: the value, and what the rule looks for. */
export function heldStep(entry: TraceEntry): string {
  return `${fact(entry)}, and the rule looks for ${describeCondition(effective(entry))}`;
}

const isTypeCheck = (entry: TraceEntry) => entry.path.toLowerCase() === 'type';
const isRelatedLookup = (entry: TraceEntry) => entry.path.startsWith('related ');

const isExistenceGuard = (entry: TraceEntry) => entry.operator.toLowerCase() === 'exists';

/** The last (or first) entry that compares a value, else one that is not a type check, else any: type checks and exists guards say least. */
function mostTelling(entries: TraceEntry[], last = true): TraceEntry | undefined {
  const ordered = last ? [...entries].reverse() : entries;
  return ordered.find((e) => !isTypeCheck(e) && !isExistenceGuard(e)) ?? ordered.find((e) => !isTypeCheck(e)) ?? ordered[0];
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const OUTCOME_WORDS: Record<string, string> = {
  compliant: 'Compliant',
  notApplicable: 'Not applicable',
  exempt: 'Exempt',
  disabled: 'Disabled',
  unknown: 'Unknown',
};

/**
 * The member's result in one sentence: the outcome (a non-compliant member by its effect: "Deny", "Audit")
 * and the trace step that decided it. For a matched rule, the last matching condition that is not the type
 * check; for a rule that did not match, the first condition that kept it from matching; for unknown, the
 * first condition that could not be decided; for auditIfNotExists and deployIfNotExists, the related
 * resources looked for. Without a deciding step, the result's reason.
 */
export function explainResult(result: MemberResult): string {
  const outcomeWord =
    result.outcome === 'nonCompliant'
      ? `${result.effect ? capitalized(result.effect) : 'Non-compliant'}${result.enforced === false ? ' (not enforced)' : ''}`
      : OUTCOME_WORDS[result.outcome];
  const because = (clause: string) => `${outcomeWord} because ${clause}`;
  const otherwise = () => ((result.reason ?? result.note) ? `${outcomeWord}: ${result.reason ?? result.note}` : outcomeWord);
  const trace = result.trace;
  const relatedAt = trace.findIndex(isRelatedLookup);
  const ruleEntries = relatedAt === -1 ? trace : trace.slice(0, relatedAt);
  const existenceEntries = relatedAt === -1 ? [] : trace.slice(relatedAt + 1);
  const related = relatedAt === -1 ? undefined : trace[relatedAt];
  const relatedType = related?.path.slice('related '.length);

  if (result.outcome === 'unknown') {
    const undecided = trace.find((e) => e.result === 'unknown');
    return undecided ? because(`${subject(undecided)} could not be decided: ${undecided.reason ?? 'no reason given'}`) : otherwise();
  }
  if (result.outcome === 'exempt' || result.outcome === 'disabled') return otherwise();
  if (result.effect && isIfNotExists(result.effect) && related) {
    if (result.outcome === 'nonCompliant') {
      if (related.result === false)
        return because(`no related ${relatedType} was found (${related.reason ?? 'among the resources given'})`);
      const failed = mostTelling(
        existenceEntries.filter((e) => holds(e) === false),
        false,
      );
      return failed
        ? because(`the related ${relatedType}: ${violatedStep(failed, true)}`)
        : because(`no related ${relatedType} satisfies the existence condition`);
    }
    if (result.outcome === 'compliant') return because(`a related ${relatedType} satisfies the existence condition`);
  }
  if (result.outcome === 'nonCompliant') {
    const matched = mostTelling(ruleEntries.filter((e) => holds(e) === true));
    if (matched) return because(violatedStep(matched));
    return result.note ? `${outcomeWord}: ${result.note}` : because("the rule's if holds");
  }
  // compliant, or notApplicable because the `if` did not match
  const kept = mostTelling(
    ruleEntries.filter((e) => holds(e) === false),
    false,
  );
  if (kept && (result.outcome === 'compliant' || result.reason === 'the if condition is false')) return because(heldStep(kept));
  return otherwise();
}

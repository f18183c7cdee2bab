import type { InlayHint } from 'vscode-languageserver-types';
import { definitionsNamedBy, newestVersionFirst, type DefinitionInfo } from '../definitions';
import { propertyIgnoreCase, stringValue, valueOf, type Node } from '../json';
import type { ParameterDecl, ReferenceModel, SetModel } from '../model/policySet';
import { DEFINITION_VERSION } from '../rules/util';
import { versionMatches } from '../rules/unknown-definition-version';
import { majorOf } from '../rules/referencedDefinitions';
import type { PolicyDocument } from '../validate';
import { definitionOf, type FeatureOptions } from './hover';

/** The kinds of inlay hint, each one a setting (`policySet.inlayHints.<kind>`). */
export interface InlayHintKinds {
  /** After a member's `policyDefinitionId`: the definition's display name and the effect the member gets. */
  definitions: boolean;
  /** After a `parameters('x')` call: the value it resolves to (the set parameter's default). */
  parameterValues: boolean;
  /** After a `definitionVersion`: the known version it resolves to, and a newer major version when one exists. */
  definitionVersions: boolean;
}

export const ALL_INLAY_HINTS: InlayHintKinds = { definitions: true, parameterValues: true, definitionVersions: true };

export interface InlayHintOptions extends FeatureOptions {
  /** The kinds asked for (all of them when absent). */
  kinds?: Partial<InlayHintKinds>;
}

/** An offset range of the document: the hints asked for are those whose anchor lies in it. */
export interface OffsetRange {
  start: number;
  end: number;
}

const NO_DEFAULT = Symbol('no default');
const LONG_NAME = 60;
const LONG_VALUE = 30;

/** A value as a hint shows it: short; long arrays and objects by their size (`[3 values]`, `{2 properties}`). */
export function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= LONG_VALUE) return text;
  if (Array.isArray(value)) return `[${value.length} value${value.length === 1 ? '' : 's'}]`;
  if (typeof value === 'object' && value !== null) {
    const count = Object.keys(value).length;
    return `{${count} propert${count === 1 ? 'y' : 'ies'}}`;
  }
  return `${text.slice(0, LONG_VALUE - 2)}…${typeof value === 'string' ? '"' : ''}`;
}

function shortName(name: string): string {
  return name.length > LONG_NAME ? `${name.slice(0, LONG_NAME - 1)}…` : name;
}

/** The default value of a set parameter, or NO_DEFAULT. */
function defaultOf(parameter: ParameterDecl): unknown {
  const node = propertyIgnoreCase(parameter.node, 'defaultValue');
  return node ? valueOf(node) : NO_DEFAULT;
}

/** A value written as nothing but one `[parameters('x')]` call (`[[parameters('x')]` in a template): the parameter's name. */
const WHOLE_PARAMETER_CALL = /^\[\[?\s*parameters\s*\(\s*'((?:[^']|'')*)'\s*\)\s*\]$/i;

function wholeParameterCall(set: SetModel, node: Node): string | undefined {
  if (node.type !== 'string' || set.isDynamic(node)) return undefined;
  const match = WHOLE_PARAMETER_CALL.exec(node.value as string);
  const escaped = (node.value as string).startsWith('[[');
  // In a template only '[[...]' is the set's own expression; outside one, '[...]'.
  return match && escaped === set.inTemplate ? match[1].replace(/''/g, "'") : undefined;
}

/** A policy expression of the set (not a literal): '[...]', or '[[...]' in a template. */
function isPolicyExpression(set: SetModel, value: string): boolean {
  return set.inTemplate ? value.startsWith('[[') : value.startsWith('[') && !value.startsWith('[[');
}

/**
 * The effect a member gets, in words: the value it passes to the definition's `effect` parameter (a literal,
 * or a set parameter's default), or the definition's default. Undefined when the definition has no `effect`
 * parameter (its effect is written in its rule, which the known definitions do not keep).
 */
export function effectiveEffect(
  set: SetModel,
  reference: ReferenceModel,
  definition: DefinitionInfo,
): { label: string; tooltip: string } | undefined {
  const declared = definition.parameters.get('effect');
  // A definition without an `effect` parameter (its rule writes the effect; passing one is PS8001): nothing to say.
  if (!declared) return undefined;
  const passed = reference.parameterValues.find((v) => v.name.toLowerCase() === 'effect');
  if (!passed) {
    // The known parameters describe one version: a member pinned to another major may have another default.
    const pin = reference.definitionVersionNode;
    const pinned = pin?.type === 'string' && !set.isDynamic(pin) ? majorOf(pin.value as string) : undefined;
    const known = majorOf(definition.version);
    if (pin && (pinned === undefined || (known !== undefined && pinned !== known))) {
      return {
        label: "the definition's default effect",
        tooltip: `The member passes no \`effect\`: the default of the version it pins applies, whose parameters are not known (known: ${definition.version ?? 'no version'}).`,
      };
    }
    if (declared.hasDefault)
      return {
        label: `${plain(declared.defaultValue)}, the definition's default`,
        tooltip: `The member passes no \`effect\`: the definition's default applies.`,
      };
    return {
      label: 'effect not passed (required)',
      tooltip: "The definition's `effect` has no default and the member passes none: the set cannot be deployed so.",
    };
  }
  const node = passed.valueNode;
  if (!node) return undefined;
  if (node.type !== 'string' || set.isDynamic(node)) {
    return set.isDynamic(node)
      ? { label: 'effect set at deployment', tooltip: 'The template computes the value when it is deployed.' }
      : { label: `${plain(valueOf(node))}, passed here`, tooltip: 'The member passes this value.' };
  }
  const name = wholeParameterCall(set, node);
  if (name !== undefined) {
    const parameter = set.parametersByLower.get(name.toLowerCase());
    if (!parameter) return { label: `effect from ${name} (not declared)`, tooltip: `The set declares no parameter \`${name}\`.` };
    const value = defaultOf(parameter);
    if (value === NO_DEFAULT)
      return {
        label: `effect from ${parameter.name} (no default)`,
        tooltip: `The set parameter \`${parameter.name}\` has no default: each assignment passes the effect.`,
      };
    return {
      label: `${plain(value)}, from ${parameter.name}'s default`,
      tooltip: `The set parameter \`${parameter.name}\`'s default, unless an assignment passes another value.`,
    };
  }
  const value = node.value as string;
  if (isPolicyExpression(set, value))
    return {
      label: 'effect from an expression',
      tooltip: 'The member passes an expression: its value is known when the policy is evaluated.',
    };
  return { label: `${value}, passed here`, tooltip: 'The member passes this value.' };
}

/** A value in a sentence: a string as it is, anything else short JSON. */
const plain = (value: unknown) => (typeof value === 'string' ? shortName(value) : shortValue(value));

const overlaps = (node: Node | undefined, range: OffsetRange): node is Node =>
  !!node && node.offset <= range.end && node.offset + node.length >= range.start;

function definitionHint(
  document: PolicyDocument,
  set: SetModel,
  reference: ReferenceModel,
  options: InlayHintOptions,
): InlayHint | undefined {
  const node = reference.idNode ?? reference.nameNode;
  if (!node || node.type !== 'string') return undefined;
  const definition = definitionOf(reference, options);
  if (!definition) return undefined;
  const name = shortName(definition.displayName ?? definition.name);
  const effect = effectiveEffect(set, reference, definition);
  return {
    position: document.lines.positionAt(node.offset + node.length),
    label: effect ? `${name} · ${effect.label}` : name,
    paddingLeft: true,
    tooltip: {
      kind: 'markdown',
      value: [`**${definition.displayName ?? definition.name}**${definition.deprecated ? ' (deprecated)' : ''}`, effect?.tooltip]
        .filter(Boolean)
        .join('\n\n'),
    },
  };
}

/**
 * The version a `definitionVersion` resolves to among the known versions: the newest that matches (a version
 * with a suffix, `-preview`, only when no other matches or the pattern asks for one), and the newest version
 * of a higher major, when one exists.
 */
export function resolveDefinitionVersion(
  pattern: string,
  versions: string[],
): { resolved: string; newerMajor: string | undefined } | undefined {
  const newestFirst = [...new Set(versions)].sort(newestVersionFirst);
  const matching = newestFirst.filter((v) => versionMatches(pattern, v));
  const resolved = pattern.includes('-') ? matching[0] : (matching.find((v) => !v.includes('-')) ?? matching[0]);
  if (resolved === undefined) return undefined;
  const major = majorOf(resolved) ?? 0;
  const newerMajor =
    newestFirst.find((v) => (majorOf(v) ?? -1) > major && !v.includes('-')) ?? newestFirst.find((v) => (majorOf(v) ?? -1) > major);
  return { resolved, newerMajor };
}

function versionHint(document: PolicyDocument, set: SetModel, reference: ReferenceModel, options: InlayHintOptions): InlayHint | undefined {
  const node = reference.definitionVersionNode;
  if (!node || node.type !== 'string' || set.isDynamic(node)) return undefined;
  const pattern = node.value as string;
  if (!DEFINITION_VERSION.test(pattern)) return undefined;
  const name = reference.idNode ? undefined : stringValue(reference.nameNode);
  // Every variant's versions, as the version check (PS8005) reads them.
  const versions = definitionsNamedBy(options.definitions, stringValue(reference.idNode), name, reference.idKey).flatMap((v) =>
    v.versions.length ? v.versions : v.version ? [v.version] : [],
  );
  if (!versions.length) return undefined;
  const answer = resolveDefinitionVersion(pattern, versions);
  // No known version matches: PS8005 says so.
  if (!answer) return undefined;
  const range = pattern.includes('*');
  if (!range && !answer.newerMajor) return undefined;
  const parts = [range ? `→ ${answer.resolved}` : undefined, answer.newerMajor ? `newer major: ${answer.newerMajor}` : undefined].filter(
    Boolean,
  );
  return {
    position: document.lines.positionAt(node.offset + node.length),
    label: parts.join(' · '),
    paddingLeft: true,
    tooltip: range
      ? `The newest known version that \`${pattern}\` matches${answer.newerMajor ? `; version ${answer.newerMajor} is of a higher major version, which this range does not take` : ''}.`
      : `Version ${answer.newerMajor} is of a higher major version.`,
  };
}

function parameterValueHints(document: PolicyDocument, set: SetModel, range: OffsetRange, hints: InlayHint[]): void {
  const text = document.parsed.text;
  for (const use of set.parameterUses) {
    if (use.start > range.end || use.end < range.start) continue;
    const parameter = set.parametersByLower.get(use.lower);
    if (!parameter) continue;
    // After the call's closing parenthesis, inside the string.
    const stringEnd = use.node.offset + use.node.length;
    const close = text.indexOf(')', use.end);
    const at = close >= 0 && close < stringEnd ? close + 1 : stringEnd;
    const value = defaultOf(parameter);
    hints.push({
      position: document.lines.positionAt(at),
      label: value === NO_DEFAULT ? '= (no default)' : `= ${shortValue(value)}`,
      paddingLeft: true,
      tooltip:
        value === NO_DEFAULT
          ? `\`${parameter.name}\` has no default: each assignment passes a value.`
          : `\`${parameter.name}\`'s default, unless an assignment passes another value.`,
    });
  }
}

/**
 * Inlay hints of the values a set's members get, for the members, calls and versions in the range:
 * the definition's display name and the effect a member gets, the value of each `parameters('x')`, the
 * version a `definitionVersion` resolves to. Work is bounded by the range: members outside it are skipped.
 */
export function getInlayHints(document: PolicyDocument, range: OffsetRange, options: InlayHintOptions = {}): InlayHint[] {
  const kinds = { ...ALL_INLAY_HINTS, ...options.kinds };
  const hints: InlayHint[] = [];
  if (!kinds.definitions && !kinds.parameterValues && !kinds.definitionVersions) return hints;
  for (const set of document.sets) {
    if (!overlaps(set.resource, range)) continue;
    if (kinds.definitions || kinds.definitionVersions) {
      for (const reference of set.references) {
        if (!overlaps(reference.node, range)) continue;
        if (kinds.definitions && options.definitions) {
          const node = reference.idNode ?? reference.nameNode;
          const hint = overlaps(node, range) ? definitionHint(document, set, reference, options) : undefined;
          if (hint) hints.push(hint);
        }
        if (kinds.definitionVersions && options.definitions && overlaps(reference.definitionVersionNode, range)) {
          const hint = versionHint(document, set, reference, options);
          if (hint) hints.push(hint);
        }
      }
    }
    if (kinds.parameterValues) parameterValueHints(document, set, range, hints);
  }
  return hints.sort((a, b) => a.position.line - b.position.line || a.position.character - b.position.character);
}

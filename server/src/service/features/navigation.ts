import type { Location, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import type { PolicyDocument } from '../validate';
import type { DefinitionInfo } from '../definitions';
import { occurrences, targetAt, type NameSpan } from './locate';
import { definitionOf, type FeatureOptions } from './hover';
import { consumerLocations, consumerRenameEdits, consumerSubjectAt, type ConsumerDocument } from './consumerEdits';

/** Go to definition: from a group or parameter use (or its declaration) to its declaration. */
export function findDefinition(document: PolicyDocument, uri: string, offset: number): Location[] {
  const target = targetAt(document, offset);
  if (!target || (target.type !== 'group' && target.type !== 'parameter')) return [];
  return occurrences(document.parsed.text, target)
    .filter((o) => o.declaration)
    .map((o) => ({ uri, range: document.lines.rangeOf(o.start, o.end) }));
}

/**
 * Go to definition on a `policyDefinitionId` or `policyDefinitionName`: the known definition it names, whose
 * `source` (the file it was read from) the server turns into a location.
 */
export function referencedDefinitionAt(document: PolicyDocument, offset: number, options: FeatureOptions): DefinitionInfo | undefined {
  const target = targetAt(document, offset);
  return target?.type === 'definitionId' ? definitionOf(target.reference, options) : undefined;
}

/**
 * Every declaration and use of the group or parameter at the offset; for a set parameter or a member's
 * reference ID, also every place the workspace's consumers (`consumers`) name it.
 */
export function findReferences(
  document: PolicyDocument,
  uri: string,
  offset: number,
  includeDeclaration = true,
  consumers: ConsumerDocument[] = [],
): Location[] {
  const target = targetAt(document, offset);
  const subject = consumers.length ? consumerSubjectAt(document, offset) : undefined;
  const inConsumers = subject
    ? consumerLocations(
        consumers.filter((c) => c.uri !== uri),
        subject,
      )
    : [];
  if (target?.type === 'referenceId') {
    const own = includeDeclaration ? [{ uri, range: document.lines.rangeOf(target.span.start, target.span.end) }] : [];
    return [...own, ...inConsumers];
  }
  if (!target || (target.type !== 'group' && target.type !== 'parameter')) return [];
  const own = occurrences(document.parsed.text, target)
    .filter((o) => includeDeclaration || !o.declaration)
    .map((o) => ({ uri, range: document.lines.rangeOf(o.start, o.end) }));
  return [...own, ...inConsumers];
}

export interface RenameTarget {
  range: Range;
  placeholder: string;
}

/** What a rename at the offset would rename, or why it can't. */
export function prepareRename(document: PolicyDocument, offset: number): RenameTarget | { error: string } {
  const target = targetAt(document, offset);
  if (target?.type === 'referenceId')
    return { range: document.lines.rangeOf(target.span.start, target.span.end), placeholder: target.name };
  if (!target || (target.type !== 'group' && target.type !== 'parameter'))
    return { error: 'Only a group, a set parameter or a reference ID can be renamed here.' };
  if (!target.name) return { error: 'An empty name cannot be renamed.' };
  return { range: document.lines.rangeOf(target.span.start, target.span.end), placeholder: target.name };
}

/** A name as it is written at a span: JSON-escaped, and with single quotes doubled inside an expression literal. */
function spell(name: string, span: NameSpan): string {
  const literal = span.inExpression ? name.replace(/'/g, "''") : name;
  return JSON.stringify(literal).slice(1, -1);
}

/**
 * Renames a group or a set parameter: its declaration and every use in the set (names match
 * case-insensitively, as the service matches them). Refuses a name that another one already has.
 */
export function rename(
  document: PolicyDocument,
  uri: string,
  offset: number,
  newName: string,
  consumers: ConsumerDocument[] = [],
): WorkspaceEdit | { error: string } {
  const target = targetAt(document, offset);
  if (!newName.trim()) return { error: 'The new name is empty.' };
  // The workspace's consumers that name the parameter or member are renamed in the same edit.
  const subject = consumers.length ? consumerSubjectAt(document, offset) : undefined;
  const inConsumers = subject
    ? consumerRenameEdits(
        consumers.filter((c) => c.uri !== uri),
        subject,
        newName,
      )
    : {};
  if (target?.type === 'referenceId') {
    const lower = newName.toLowerCase();
    if (lower !== target.name.toLowerCase() && target.set.references.some((r) => r.refIdLower === lower))
      return { error: `A reference ID '${newName}' already exists in this policy set.` };
    return {
      changes: {
        ...inConsumers,
        [uri]: [{ range: document.lines.rangeOf(target.span.start, target.span.end), newText: spell(newName, target.span) }],
      },
    };
  }
  if (!target || (target.type !== 'group' && target.type !== 'parameter'))
    return { error: 'Only a group, a set parameter or a reference ID can be renamed here.' };
  const lower = newName.toLowerCase();
  if (lower !== target.name.toLowerCase()) {
    const taken = target.type === 'group' ? target.set.groupsByLower.has(lower) : target.set.parametersByLower.has(lower);
    if (taken) return { error: `A ${target.type} named '${newName}' already exists in this policy set.` };
  }
  if (target.type === 'parameter' && !/^[^\s()[\]]+$/.test(newName))
    return { error: `'${newName}' is not a usable parameter name: use no spaces, parentheses or brackets.` };
  const edits: TextEdit[] = occurrences(document.parsed.text, target).map((o) => ({
    range: document.lines.rangeOf(o.start, o.end),
    newText: spell(newName, o),
  }));
  return { changes: { ...(target.type === 'parameter' ? inConsumers : {}), [uri]: edits } };
}

import { stringContent, type Node } from '../json';
import type { GroupDecl, ParameterDecl, ParameterValue, ReferenceModel, SetModel } from '../model/policySet';
import type { PolicyDocument } from '../validate';

/** Where a name sits in the text: the characters of the name itself (inside quotes). */
export interface NameSpan {
  start: number;
  end: number;
  /** The name is written inside an expression's single-quoted literal (quotes doubled there). */
  inExpression: boolean;
}

/** What the cursor is on, as the navigation features see it. */
export type Target =
  | { type: 'group'; set: SetModel; name: string; span: NameSpan; declaration: GroupDecl | undefined }
  | { type: 'parameter'; set: SetModel; name: string; span: NameSpan; declaration: ParameterDecl | undefined }
  /** On the policyDefinitionId (or policyDefinitionName) that names the referenced definition. */
  | { type: 'definitionId'; set: SetModel; reference: ReferenceModel; node: Node }
  | { type: 'definitionParameter'; set: SetModel; reference: ReferenceModel; value: ParameterValue }
  /** On a `policyDefinitionReferenceId` (a literal string). */
  | { type: 'referenceId'; set: SetModel; reference: ReferenceModel; name: string; span: NameSpan };

const within = (offset: number, start: number, end: number) => offset >= start && offset <= end;
const inNode = (offset: number, node: Node | undefined): node is Node => !!node && within(offset, node.offset, node.offset + node.length);

/** The span of a string node's content, without its quotes (a string cut off at the end of a line has no closing one). */
export function stringSpan(text: string, node: Node): NameSpan {
  return { ...stringContent(text, node), inExpression: false };
}

/** The set whose resource holds the offset (documents hold one; templates any number). */
export function setAt(document: PolicyDocument, offset: number): SetModel | undefined {
  let best: SetModel | undefined;
  for (const set of document.sets) {
    // Nested resources: the innermost one that holds the offset.
    if (inNode(offset, set.resource) && (!best || set.resource.length < best.resource.length)) best = set;
  }
  return best;
}

export function targetAt(document: PolicyDocument, offset: number): Target | undefined {
  const set = setAt(document, offset);
  if (!set) return undefined;
  const text = document.parsed.text;
  for (const group of set.groups) {
    if (inNode(offset, group.nameNode))
      return { type: 'group', set, name: group.name, span: stringSpan(text, group.nameNode), declaration: group };
  }
  for (const parameter of set.parameters) {
    if (inNode(offset, parameter.keyNode))
      return { type: 'parameter', set, name: parameter.name, span: stringSpan(text, parameter.keyNode), declaration: parameter };
  }
  for (const reference of set.references) {
    if (!inNode(offset, reference.node)) continue;
    if (inNode(offset, reference.idNode) && reference.idNode.type === 'string')
      return { type: 'definitionId', set, reference, node: reference.idNode };
    if (inNode(offset, reference.nameNode) && reference.nameNode.type === 'string')
      return { type: 'definitionId', set, reference, node: reference.nameNode };
    if (inNode(offset, reference.refIdNode) && reference.refIdLower !== undefined) {
      return {
        type: 'referenceId',
        set,
        reference,
        name: reference.refIdNode.value as string,
        span: stringSpan(text, reference.refIdNode),
      };
    }
    if (inNode(offset, reference.groupNamesNode)) {
      for (const use of set.groupUses) {
        if (use.reference === reference && inNode(offset, use.node)) {
          return { type: 'group', set, name: use.name, span: stringSpan(text, use.node), declaration: use.declared };
        }
      }
    }
    if (inNode(offset, reference.parametersNode)) {
      for (const use of set.parameterUses) {
        if (use.reference === reference && within(offset, use.start, use.end)) {
          return {
            type: 'parameter',
            set,
            name: use.name,
            span: { start: use.start, end: use.end, inExpression: true },
            declaration: set.parametersByLower.get(use.lower),
          };
        }
      }
      for (const value of reference.parameterValues) {
        if (inNode(offset, value.keyNode)) return { type: 'definitionParameter', set, reference, value };
      }
    }
    return undefined;
  }
  return undefined;
}

/** Every place that names the target's group, parameter or reference ID, declarations first. */
export function occurrences(
  text: string,
  target: Extract<Target, { type: 'group' | 'parameter' | 'referenceId' }>,
): Array<NameSpan & { declaration: boolean }> {
  const lower = target.name.toLowerCase();
  const set = target.set;
  if (target.type === 'referenceId') {
    // Declared in the set only (assignments name them, in other files): each declaration of the ID (a duplicate is PS2005).
    return set.references
      .filter((r) => r.refIdLower === lower && r.refIdNode)
      .map((r) => ({ ...stringSpan(text, r.refIdNode!), declaration: true }));
  }
  if (target.type === 'group') {
    return [
      ...set.groups.filter((g) => g.name.toLowerCase() === lower).map((g) => ({ ...stringSpan(text, g.nameNode), declaration: true })),
      ...set.groupUses.filter((u) => u.lower === lower).map((u) => ({ ...stringSpan(text, u.node), declaration: false })),
    ];
  }
  return [
    ...set.parameters.filter((p) => p.name.toLowerCase() === lower).map((p) => ({ ...stringSpan(text, p.keyNode), declaration: true })),
    ...set.parameterUses
      .filter((u) => u.lower === lower)
      .map((u) => ({ start: u.start, end: u.end, inExpression: true, declaration: false })),
  ];
}

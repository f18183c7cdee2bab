import type { Node } from '../json';
import { expressionLevelOf } from '../expressions';
import type { SetModel } from '../model/policySet';

/** A value known as written: not an expression (of the template, or of the policy engine). */
export function isLiteral(set: SetModel, node: Node): boolean {
  if (node.type !== 'string') return !containsExpression(set, node);
  const value = node.value as string;
  // '[[[...]' in a template escapes twice: what the definition finally receives depends on how many times the
  // host's pipeline unescapes it (the monitoring baseline's sets pass their own parameters this way): unknown here.
  if (set.inTemplate && value.startsWith('[[[') && value.endsWith(']')) return false;
  return expressionLevelOf(value, set.inTemplate) === undefined;
}

function containsExpression(set: SetModel, node: Node): boolean {
  const stack = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current.type === 'string' && expressionLevelOf(current.value as string, set.inTemplate)) return true;
    if (current.children) stack.push(...current.children);
  }
  return false;
}

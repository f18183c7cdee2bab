import type { Node } from '../json';
import { expressionLevelOf } from '../expressions';
import type { SetModel } from '../model/policySet';

/** A value known as written: not an expression (of the template, or of the policy engine). */
export function isLiteral(set: SetModel, node: Node): boolean {
  if (node.type !== 'string') return !containsExpression(set, node);
  return expressionLevelOf(node.value as string, set.inTemplate) === undefined;
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

// The set or definition a consumer names, read from an ID that may be an ARM expression: `[variables('x').y]`
// looked up in the template's variables, `concat`/`format`/`resourceId` calls whose last literal names it.
// What cannot be read is said unresolved, never guessed.
import { property, stringValue, type Node } from '../json';
import type { ConsumerTarget } from './model';

const SET_ID = /\/providers\/[A-Za-z0-9.]+\.Authorization\/policySetDefinitions\/([^/]+)$/i;
const DEFINITION_ID = /\/providers\/[A-Za-z0-9.]+\.Authorization\/policyDefinitions\/([^/]+)$/i;
/** `...'/policySetDefinitions/<name>')]`: the last literal of a concat ends with the name. */
const NAME_AT_END = /\/(policySetDefinitions|policyDefinitions)\/([^/'\s]+)'\s*\)+\s*\]$/i;
/** `resourceId('Microsoft.Authorization/policySetDefinitions', 'name')` and its scoped variants. */
const RESOURCE_ID_CALL =
  /ResourceId\s*\((?:[^()]*?,\s*)?'[A-Za-z0-9.]+\.Authorization\/(policySetDefinitions|policyDefinitions)'\s*,\s*'([^'/]+)'\s*\)\s*\]$/i;
const VARIABLE_PATH = /^\[+\s*variables\(\s*'([^']+)'\s*\)((?:\.[A-Za-z_$][\w$]*|\[\s*'[^']*'\s*\])*)\s*\]$/;

function kindOf(segment: string): 'set' | 'definition' {
  return segment.toLowerCase() === 'policysetdefinitions' ? 'set' : 'definition';
}

/** The value a `[variables('x').a.b]` expression stands for in the template's variables, when it is a plain string. */
function variableValue(expression: string, variables: Node | undefined, depth: number): string | undefined {
  const match = VARIABLE_PATH.exec(expression);
  if (!match || !variables || depth > 4) return undefined;
  let node = property(variables, match[1]);
  for (const [, dotted, quoted] of match[2].matchAll(/\.([A-Za-z_$][\w$]*)|\[\s*'([^']*)'\s*\]/g)) node = property(node, dotted ?? quoted);
  return stringValue(node);
}

/**
 * Reads a target ID: a literal ID (placeholders such as `${root}` in its scope take no part: the name is what
 * resolves it), or an expression resolved where it can be.
 */
export function targetOfId(node: Node, variables: Node | undefined): ConsumerTarget {
  const text = stringValue(node);
  if (text === undefined) return { text: undefined, node, kind: 'unknown', unresolved: 'not a string' };
  return { ...readId(text, variables, 0), node };
}

function readId(text: string, variables: Node | undefined, depth: number): Omit<ConsumerTarget, 'node'> {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const fromVariable = variableValue(trimmed, variables, depth);
    // A variable holding a literal ID, or another expression to read in turn.
    if (fromVariable !== undefined) return readId(fromVariable, variables, depth + 1);
    const named = NAME_AT_END.exec(trimmed) ?? RESOURCE_ID_CALL.exec(trimmed);
    if (named) return { text: named[2], kind: kindOf(named[1]) };
    const kind = /policySetDefinitions/i.test(trimmed) ? 'set' : /policyDefinitions/i.test(trimmed) ? 'definition' : 'unknown';
    return { text: undefined, kind, unresolved: 'an expression that cannot be read before deployment' };
  }
  if (SET_ID.test(trimmed)) return { text: trimmed, kind: 'set' };
  if (DEFINITION_ID.test(trimmed)) return { text: trimmed, kind: 'definition' };
  return { text: undefined, kind: 'unknown', unresolved: 'not the ID of a policy set or definition' };
}

/** A target named by name alone (the policy-as-code framework's `policySetName`, `policyName`). */
export function targetOfName(node: Node, kind: 'set' | 'definition'): ConsumerTarget {
  const text = stringValue(node);
  if (text === undefined || text.trim().startsWith('[')) return { text: undefined, node, kind, unresolved: 'not a plain name' };
  return { text, node, kind };
}

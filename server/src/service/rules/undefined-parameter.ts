import { closestMatch, onlyCloseMatch } from '../text';
import type { SetRule, Fix, FixContext } from './types';
import type { ParameterType, ReferenceModel, SetModel } from '../model/policySet';
import { DEFAULT_CLOUD } from '../definitions';
import { insertInto, replaceExpressionName } from './support/edits';
import { indexOfKey, setAt, stringData } from './support/fixes';

export const undefinedParameter: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7001',
    name: 'undefined-parameter',
    description:
      "Every `[parameters('x')]` in a reference's parameter values, also inside larger expressions, must name a parameter declared in the set's `parameters`.",
    fixable: 'typo',
    defaultSeverity: 'error',
    messages: {
      undefined: "Parameter '{{name}}' is not declared in the set's parameters.",
      undefinedDidYouMean: "Parameter '{{name}}' is not declared in the set's parameters. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    const { set } = ctx;
    // Parameters made at deployment time as a whole name nothing we can know; one declared by an expression still has its name.
    if (set.isDynamic(set.parametersNode)) return;
    for (const use of set.parameterUses) {
      if (set.parametersByLower.has(use.lower)) continue;
      const suggestion = closestMatch(
        use.name,
        set.parameters.map((p) => p.name),
      );
      const related = set.parameters.slice(0, 20).map((p) => ({ node: p.keyNode, message: `Declared parameter '${p.name}'` }));
      ctx.report({
        start: use.start,
        end: use.end,
        messageId: suggestion ? 'undefinedDidYouMean' : 'undefined',
        data: { name: use.name, suggestion },
        related,
      });
    }
  },
  fix: declareParameter,
};

function declareParameter(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  if (!found) return [];
  const { set } = found;
  const use = set.parameterUses.find((u) => u.start === ctx.start && u.end === ctx.end);
  if (!use || !use.name || set.parametersByLower.has(use.lower)) return [];
  const type = inferParameterType(ctx, set, use.lower);
  const declaration = { type, metadata: { displayName: displayNameOf(use.name) } };
  // Into the declared parameters, or a new parameters object before the policyDefinitions.
  const insert = set.parametersNode
    ? insertInto(ctx, set.parametersNode, 'object', use.name, declaration, undefined)
    : insertInto(ctx, set.properties, 'object', 'parameters', { [use.name]: declaration }, indexOfKey(set.properties, 'policyDefinitions'));
  if (!insert) return [];
  const candidates: Fix[] = [];
  const suggestion = set.parameters.find((p) => p.name === stringData(ctx, 'suggestion'))?.name;
  if (suggestion) {
    // The misspelling is changed without a person's choice when the suggestion is the one declared parameter close to it.
    const only =
      onlyCloseMatch(
        use.name,
        set.parameters.map((p) => p.name),
      ) === suggestion;
    candidates.push({
      key: `rename:${use.start}`,
      title: `Change to '${suggestion}'`,
      edits: [replaceExpressionName(use.start, use.end, suggestion)],
      preferred: true,
      safe: only,
    });
  }
  // A declaration guesses its type and default: a person's choice.
  candidates.push({
    key: `declare:${set.resource.offset}:${use.lower}`,
    title: `Declare parameter '${use.name}' (${type})`,
    edits: [insert],
    preferred: !suggestion,
    safe: false,
  });
  return candidates;
}

/**
 * The type of a parameter to declare: the type of the definition parameter that a use is passed to whole
 * (`"value": "[parameters('x')]"`), when the definitions are known; else String.
 */
function inferParameterType(ctx: FixContext, set: SetModel, lower: string): ParameterType {
  const catalog = ctx.options.definitions;
  if (!catalog) return 'String';
  for (const use of set.parameterUses) {
    if (use.lower !== lower || !isWholeParameterCall(use.node.value as string, set.inTemplate)) continue;
    const passed = use.reference.parameterValues.find((v) => v.valueNode === use.node);
    if (!passed) continue;
    const type = definitionParameterType(ctx, set, use.reference, passed.name);
    if (type) return type;
  }
  return 'String';
}

function isWholeParameterCall(value: string, inTemplate: boolean): boolean {
  return new RegExp(`^\\[${inTemplate ? '\\[' : ''}\\s*parameters\\s*\\(\\s*'(?:[^']|'')*'\\s*\\)\\s*\\]$`, 'i').test(value);
}

function definitionParameterType(ctx: FixContext, set: SetModel, reference: ReferenceModel, name: string): ParameterType | undefined {
  const id = reference.idNode;
  if (!ctx.options.definitions || !id || id.type !== 'string' || set.isDynamic(id) || reference.idKey === undefined) return undefined;
  const all = ctx.options.definitions.lookup(id.value as string, reference.idKey);
  const cloud = (ctx.options.cloud ?? DEFAULT_CLOUD).toLowerCase();
  const ofCloud = all.filter((v) => v.cloud?.toLowerCase() === cloud);
  const types = new Set(
    (ofCloud.length ? ofCloud : all).map((v) => v.parameters.get(name.toLowerCase())?.type).filter((t) => t !== undefined),
  );
  // Variants that disagree say nothing.
  return types.size === 1 ? [...types][0] : undefined;
}

/** `allowedLocations` → `Allowed locations`. */
function displayNameOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  if (!words) return name;
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);
}

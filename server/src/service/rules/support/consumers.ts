// What the consumer rules (PS92xx) share: the declarations a consumer's targets may mean, how a target is named
// in a message, and the related information that points at the set's file.
import type { DefinitionParameter } from '../../definitions';
import { consumersOf, resolveConsumer, type ResolvedConsumer, type TargetDeclaration } from '../../consumers';
import { keyNodeOf } from '../../json';
import type { Fix, FixContext, RelatedReport } from '../types';
import { insertInto, insertMembers } from './edits';
import { sameRange } from './fixes';

/** Every declaration of every target of a consumer. */
export function declarationsOf(resolved: ResolvedConsumer): TargetDeclaration[] {
  return resolved.targets.flatMap((t) => t.candidates);
}

/** The declarations of a parameter name (any casing) among a consumer's targets. */
export function declaredParameter(
  resolved: ResolvedConsumer,
  name: string,
): Array<{ declaration: TargetDeclaration; parameter: DefinitionParameter }> {
  const lower = name.toLowerCase();
  const found: Array<{ declaration: TargetDeclaration; parameter: DefinitionParameter }> = [];
  for (const declaration of declarationsOf(resolved)) {
    const parameter = declaration.parameters.get(lower);
    if (parameter) found.push({ declaration, parameter });
  }
  return found;
}

/** "set 'name'", "sets 'a', 'b'" or "definition 'name'": what the consumer assigns, for messages. */
export function describeTargets(declarations: TargetDeclaration[]): string {
  const names = [...new Set(declarations.map((d) => d.name))];
  const kind = declarations.every((d) => d.kind === 'set')
    ? 'set'
    : declarations.every((d) => d.kind === 'definition')
      ? 'definition'
      : 'set or definition';
  return `${kind}${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}`;
}

/** Related information: the file of each declaration the consumer is checked against. */
export function relatedDeclarations(declarations: TargetDeclaration[], what: string): RelatedReport[] {
  const seen = new Set<string>();
  const related: RelatedReport[] = [];
  for (const d of declarations) {
    if (!d.source || seen.has(d.source)) continue;
    seen.add(d.source);
    related.push({ location: { uri: d.source, line: 0, character: 0 }, message: `${what} ${d.kind} '${d.name}'` });
  }
  return related;
}

/**
 * The parameters every declaration a consumer's targets may mean requires (no default: copies of a set may
 * differ) that the consumer does not pass, by lowercased name.
 */
export function requiredNotPassed(resolved: ResolvedConsumer): Map<string, string> {
  const passed = new Set(resolved.consumer.parameters.map((p) => p.name.toLowerCase()));
  const declarations = declarationsOf(resolved);
  const required = new Map<string, string>();
  declarations.forEach((declaration, i) => {
    if (i === 0) for (const [lower, parameter] of declaration.parameters) if (!parameter.hasDefault) required.set(lower, parameter.name);
    if (i > 0)
      for (const lower of [...required.keys()]) if (declaration.parameters.get(lower)?.hasDefault !== false) required.delete(lower);
  });
  for (const lower of passed) required.delete(lower);
  return required;
}

/**
 * The value a fix passes for a parameter the assignment does not pass: its default when a declaration has
 * one; else the first of its allowed values; else an empty value of its type (`""`, `0`, `false`, `[]`, `{}`),
 * which the type and allowed-values checks accept and a person then fills in.
 */
export function valueToPass(declared: DefinitionParameter[]): unknown {
  const withDefault = declared.find((p) => p.hasDefault && p.defaultValue !== undefined);
  if (withDefault) return withDefault.defaultValue;
  const allowed = declared.find((p) => p.allowedValues?.length)?.allowedValues;
  if (allowed) return allowed[0];
  switch (declared.find((p) => p.type)?.type) {
    case 'Integer':
    case 'Float':
      return 0;
    case 'Boolean':
      return false;
    case 'Array':
      return [];
    case 'Object':
      return {};
    default:
      return '';
  }
}

/**
 * The quick fixes of a set parameter an assignment resource does not pass (PS9202, PS9209): "Pass the set
 * parameters this assignment does not pass" adds every required one (preferred), and, when the set has
 * others, a second action adds every parameter it does not pass, each with its default. Found from the
 * diagnostic's range (the key of `parameters`, or of `policyDefinitionId` when there is none); never safe:
 * the values are for a person to fill in.
 */
export function passMissingParameters(ctx: FixContext): Fix[] {
  const consumer = consumersOf(ctx.document.parsed.root).find((c) => {
    if (c.shape !== 'assignment' || !c.targets.length) return false;
    const key = keyNodeOf(c.parametersNode ?? c.targets[0].node);
    return !!key && sameRange(ctx, key);
  });
  if (!consumer || (consumer.parametersNode && consumer.parametersNode.type !== 'object')) return [];
  const resolved = resolveConsumer(consumer, ctx.options.definitions);
  if (!resolved.resolved) return [];
  const required = [...requiredNotPassed(resolved).keys()];
  if (!required.length) return [];
  const passed = new Set(consumer.parameters.map((p) => p.name.toLowerCase()));
  const declarations = declarationsOf(resolved);
  // Every parameter any declaration has, in the first declaration's order, written as it declares it.
  const names = new Map<string, string>();
  for (const declaration of declarations)
    for (const [lower, parameter] of declaration.parameters) if (!names.has(lower) && !passed.has(lower)) names.set(lower, parameter.name);
  const edit = (lowers: string[]) => {
    const members = lowers.map((lower): [string, unknown] => {
      const declared = declarations.flatMap((d) => (d.parameters.has(lower) ? [d.parameters.get(lower)!] : []));
      return [names.get(lower) ?? lower, { value: valueToPass(declared) }];
    });
    if (consumer.parametersNode) return insertMembers(ctx, consumer.parametersNode, members);
    const properties = consumer.targets[0].node.parent?.parent;
    return insertInto(ctx, properties, 'object', 'parameters', Object.fromEntries(members), undefined);
  };
  // An assignment of a single definition is told so.
  const kind = declarations.every((d) => d.kind === 'definition') ? 'definition' : 'set';
  const fixes: Fix[] = [];
  const first = edit(required);
  if (first)
    fixes.push({
      key: `${consumer.node.offset}`,
      title: `Pass the ${kind} parameters this assignment does not pass`,
      edits: [first],
      preferred: true,
    });
  if (names.size > required.length) {
    const all = edit([...names.keys()]);
    if (all)
      fixes.push({
        key: `${consumer.node.offset}:all`,
        title: `Pass every parameter of the ${kind} this assignment does not pass (${names.size}, with their defaults)`,
        edits: [all],
      });
  }
  return fixes;
}

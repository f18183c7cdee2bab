// What the consumer rules (PS92xx) share: the declarations a consumer's targets may mean, how a target is named
// in a message, and the related information that points at the set's file.
import type { DefinitionParameter } from '../../definitions';
import type { ResolvedConsumer, TargetDeclaration } from '../../consumers';
import type { RelatedReport } from '../types';

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

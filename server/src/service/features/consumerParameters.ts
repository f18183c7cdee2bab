// A consumer's parameters as the set it assigns declares them: for hover on a passed parameter, and for the
// completion of the set's parameter names inside an assignment's `parameters` (docs/consumers.md).
import type { DefinitionCatalog, DefinitionInfo, DefinitionParameter } from '../definitions';
import { resolveConsumer, type ConsumerModel, type PassedParameter, type TargetDeclaration } from '../consumers';
import type { PolicyDocument } from '../validate';

/** What resolving a consumer's target needs of the feature options. */
type Known = { definitions?: DefinitionCatalog };

const inside = (offset: number, node: { offset: number; length: number } | undefined) =>
  !!node && offset >= node.offset && offset <= node.offset + node.length;

/** The consumer whose `parameters` object holds the offset, with the declarations of what it assigns. */
export function consumerParametersAt(
  document: PolicyDocument,
  offset: number,
  options: Known,
): { consumer: ConsumerModel; declarations: TargetDeclaration[] } | undefined {
  for (const consumer of document.consumers) {
    if (!inside(offset, consumer.parametersNode) && !consumer.parameters.some((p) => inside(offset, p.keyNode))) continue;
    const declarations = resolveConsumer(consumer, options.definitions).targets.flatMap((t) => t.candidates);
    return declarations.length ? { consumer, declarations } : undefined;
  }
  return undefined;
}

/** The passed parameter whose key is at the offset, and its declarations in what the consumer assigns. */
export function passedParameterAt(
  document: PolicyDocument,
  offset: number,
  options: Known,
): { passed: PassedParameter; declared: Array<{ declaration: TargetDeclaration; parameter: DefinitionParameter }> } | undefined {
  for (const consumer of document.consumers) {
    const passed = consumer.parameters.find((p) => inside(offset, p.keyNode));
    if (!passed) continue;
    const declarations = resolveConsumer(consumer, options.definitions).targets.flatMap((t) => t.candidates);
    if (!declarations.length) return undefined;
    const lower = passed.name.toLowerCase();
    return {
      passed,
      declared: declarations.flatMap((declaration) =>
        declaration.parameters.has(lower) ? [{ declaration, parameter: declaration.parameters.get(lower)! }] : [],
      ),
    };
  }
  return undefined;
}

/** A declaration in the shape completion offers the parameters of a referenced definition in. */
export function asDefinition(declaration: TargetDeclaration): DefinitionInfo {
  return {
    id: declaration.name,
    name: declaration.name,
    displayName: `${declaration.kind} ${declaration.name}`,
    versions: [],
    parameters: declaration.parameters,
    source: declaration.source,
  };
}

/** The innermost consumer whose node holds the offset (an assignment in a template, an entry of an exemption list). */
export function consumerAt(document: PolicyDocument, offset: number): ConsumerModel | undefined {
  let best: ConsumerModel | undefined;
  for (const consumer of document.consumers)
    if (inside(offset, consumer.node) && (!best || consumer.node.length < best.node.length)) best = consumer;
  return best;
}

/** Every declaration a consumer's targets may mean, as the rules resolve them. */
export function declarationsOfConsumer(consumer: ConsumerModel, options: Known): TargetDeclaration[] {
  return resolveConsumer(consumer, options.definitions).targets.flatMap((t) => t.candidates);
}

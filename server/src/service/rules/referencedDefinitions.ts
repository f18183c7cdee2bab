import { DEFAULT_CLOUD, type DefinitionInfo, type DefinitionParameter } from '../definitions';
import type { ReferenceModel } from '../model/policySet';
import type { SetRuleContext } from './types';

export interface ResolvedReference {
  reference: ReferenceModel;
  /** The known variants of the referenced definition for the document's cloud (all of them when none is of that cloud). */
  variants: DefinitionInfo[];
  /** Every known variant, of every cloud. */
  all: DefinitionInfo[];
  /** The variants whose parameters describe the version the reference uses: all of them, or none when that version's parameters are unknown. */
  applicable: DefinitionInfo[];
}

export function majorOf(version: string | undefined): number | undefined {
  const match = version ? /^(\d+)\./.exec(version) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * Resolves references to known definitions. A catalogue knows the parameters of one version of each definition
 * (an index: the latest); a reference pinned to another major version is not checked against them.
 */
export function resolvedReferences(ctx: SetRuleContext): ResolvedReference[] {
  // Eight rules ask for the same resolution: computed once per set, catalogue and cloud.
  const cached = resolutions.get(ctx.set);
  if (cached && cached.definitions === ctx.options.definitions && cached.cloud === ctx.options.cloud) return cached.result;
  const result = resolve(ctx);
  resolutions.set(ctx.set, { definitions: ctx.options.definitions, cloud: ctx.options.cloud, result });
  return result;
}

const resolutions = new WeakMap<
  SetRuleContext['set'],
  { definitions: SetRuleContext['options']['definitions']; cloud: string | undefined; result: ResolvedReference[] }
>();

function resolve(ctx: SetRuleContext): ResolvedReference[] {
  const result: ResolvedReference[] = [];
  if (!ctx.options.definitions) return result;
  for (const reference of ctx.set.references) {
    const all = ctx.definitionsOf(reference);
    if (!all.length) continue;
    // The document's cloud's variants win; without one, every variant must agree.
    const cloud = (ctx.options.cloud ?? DEFAULT_CLOUD).toLowerCase();
    const ofCloud = all.filter((v) => v.cloud?.toLowerCase() === cloud);
    const variants = ofCloud.length ? ofCloud : all;
    const pinnedNode = reference.definitionVersionNode;
    const pinned = pinnedNode?.type === 'string' && !ctx.set.isDynamic(pinnedNode) ? majorOf(pinnedNode.value as string) : undefined;
    const pinnedUnknown = pinnedNode !== undefined && pinned === undefined;
    // The known parameters describe each variant's own version: usable only if every variant is of the pinned major.
    const describesPinned = (v: DefinitionInfo) =>
      pinned === undefined || majorOf(v.version) === undefined || majorOf(v.version) === pinned;
    const applicable = !pinnedUnknown && variants.every(describesPinned) ? variants : [];
    result.push({ reference, variants, all, applicable });
  }
  return result;
}

/** A definition parameter as every applicable variant declares it (found by case-insensitive name). */
export function definitionParameter(resolved: ResolvedReference, name: string): DefinitionParameter[] {
  const lower = name.toLowerCase();
  return resolved.applicable.map((v) => v.parameters.get(lower)).filter((p): p is DefinitionParameter => !!p);
}

export function describeDefinition(resolved: ResolvedReference): string {
  const first = resolved.variants[0];
  return first.displayName ? `'${first.displayName}'` : `'${first.name}'`;
}

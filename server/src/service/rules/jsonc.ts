import { property } from '../json';
import type { DocumentRuleContext } from './types';

/** The `$schema` of the policy-as-code framework's definition and set files, which it reads as JSON with comments. */
const POLICY_AS_CODE_SCHEMA = /policy-(set-)?definition-schema\.json/i;
const TEMPLATE_SCHEMA = /deploymentTemplate\.json/i;

/**
 * Whether whatever reads this document takes JSON with comments, so comments (and, where said, trailing
 * commas) are not mistakes: a .jsonc file, a file of the policy-as-code framework, and for comments an ARM
 * template or a set kept as a template fragment (the template's reader takes comments, not trailing commas) and
 * a deployment plan (policyset's reader takes comments, not trailing commas).
 */
export function readerTakes(ctx: DocumentRuleContext, what: 'comments' | 'trailingCommas'): boolean {
  if (/\.jsonc$/i.test(ctx.options.uri ?? '')) return true;
  const schema = ctx.parsed.tooLarge ? undefined : (ctx.parsed.value() as { $schema?: unknown } | undefined)?.$schema;
  if (typeof schema === 'string' && POLICY_AS_CODE_SCHEMA.test(schema)) return true;
  if (what === 'trailingCommas') return false;
  // A deployment plan is read by policyset itself (model apply, quota plan), whose reader takes comments; a lone
  // request body (no `deployments`) is sent as it is.
  if (ctx.kind === 'deploymentPlan' && property(ctx.parsed.root, 'deployments')) return true;
  return ctx.kind === 'armTemplate' || ctx.sets.some((set) => set.fragment) || (typeof schema === 'string' && TEMPLATE_SCHEMA.test(schema));
}

import { property } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import { STRICT_VERSION } from './util';
import { normalizeVersion } from './invalid-version';
import { nodeAt, setAt } from './support/fixes';
import { normalizedVersion, versionFix } from './support/versionFixes';

export const invalidVersionName: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3001',
    name: 'invalid-version-name',
    description:
      "The version resource's `name` must be the version itself, matching `^\\d+\\.\\d+\\.\\d+$`. In a template, a top-level versions resource is named `<set name>/<version>`; one nested in its set's `resources` by the version alone.",
    fixable: 'version',
    defaultSeverity: 'error',
    messages: {
      topLevel: "A top-level versions resource in a template is named '<set name>/<version>', not '{{name}}'.",
      nestedChild: "A versions resource nested in its set is named by the version alone ('{{version}}'), not '{{name}}'.",
      name: "Version resource name '{{name}}' must match #.#.# (digits only, such as '1.0.0').",
      nameSuggestion: "Version resource name '{{name}}' must match #.#.# (digits only): '{{suggestion}}'?",
    },
  },
  check(ctx) {
    if (ctx.set.kind !== 'policySetDefinitionVersion') return;
    const node = property(ctx.set.resource, 'name');
    if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) return;
    const name = node.value as string;
    let version = name;
    if (ctx.set.inTemplate) {
      // A top-level child resource is named '<parent>/<child>'; a nested one by its own name.
      const segments = name.split('/');
      const expected = ctx.set.nested ? 1 : 2;
      if (segments.length !== expected && !segments.some((s) => s.startsWith('['))) {
        ctx.report({
          node,
          messageId: ctx.set.nested ? 'nestedChild' : 'topLevel',
          data: { name, version: segments[segments.length - 1] },
        });
        return;
      }
      version = segments[segments.length - 1];
      if (ctx.set.isDynamic(node) || version.startsWith('[')) return;
    }
    if (STRICT_VERSION.test(version)) return;
    const suggestion = normalizeVersion(version);
    ctx.report({ node, messageId: suggestion ? 'nameSuggestion' : 'name', data: { name, suggestion } });
  },
  fix: normalizeVersionName,
};

function normalizeVersionName(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  const node = nodeAt(ctx, 'string');
  if (!found || !node || found.set.kind !== 'policySetDefinitionVersion' || property(found.set.resource, 'name') !== node) return [];
  const name = node.value as string;
  const segments = name.split('/');
  // In a template the name is '<set>/<version>' (or the version alone when nested): only the version is normalised.
  const expected = found.set.inTemplate && !found.set.nested ? 2 : 1;
  if (segments.length !== expected || found.set.isDynamic(node) || segments[segments.length - 1].startsWith('[')) return [];
  const normalized = normalizedVersion(segments[segments.length - 1], false);
  if (!normalized) return [];
  segments[segments.length - 1] = normalized.version;
  return versionFix(ctx, node, segments.join('/'), normalized.exact, name);
}

import { property } from '../json';
import type { SetRule } from './types';
import { STRICT_VERSION } from './util';

export const invalidVersionName: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3001',
    name: 'invalid-version-name',
    description: "The version resource's `name` must be the version itself, matching `^\\d+\\.\\d+\\.\\d+$` (in a template: `<set name>/<version>`).",
    defaultSeverity: 'error',
    messages: { name: "Version resource name '{{name}}' must match #.#.# (digits only, such as '1.0.0'){{hint}}." },
  },
  check(ctx) {
    if (ctx.set.kind !== 'policySetDefinitionVersion') return;
    const node = property(ctx.set.resource, 'name');
    if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) return;
    const name = node.value as string;
    // In a template, a top-level child resource is named '<parent>/<child>'.
    const version = ctx.set.inTemplate && name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    if (version.startsWith('[') || STRICT_VERSION.test(version)) return;
    const normalized = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version);
    const hint = normalized ? `: '${normalized[1]}.${normalized[2] ?? 0}.${normalized[3] ?? 0}'?` : '';
    ctx.report({ node, messageId: 'name', data: { name, hint, suggestion: normalized ? `${normalized[1]}.${normalized[2] ?? 0}.${normalized[3] ?? 0}` : undefined } });
  },
};

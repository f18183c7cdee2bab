import { items, property, propertyIgnoreCase, type Node } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import { STRICT_VERSION, SUFFIXED_VERSION } from './util';
import { nodeAt, setAt } from './support/fixes';
import { normalizedVersion, versionFix } from './support/versionFixes';

export function normalizeVersion(value: string): string | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/i.exec(value.trim());
  return match ? `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}` : undefined;
}

export const invalidVersion: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3002',
    name: 'invalid-version',
    description:
      '`properties.version` and each `properties.versions` entry must be `#.#.#`. Built-in policy set documents carry suffixes such as `-preview`, which are accepted there; authored version resources and templates stay strict.',
    fixable: 'version',
    defaultSeverity: 'error',
    messages: {
      strict: "Version '{{value}}' must match #.#.# (digits only, such as '1.0.0').",
      strictSuggestion: "Version '{{value}}' must match #.#.# (digits only): '{{suggestion}}'?",
      suffixed: "Version '{{value}}' must match #.#.#, optionally with a suffix such as '-preview'.",
      suffixedSuggestion: "Version '{{value}}' must match #.#.#, optionally with a suffix such as '-preview': '{{suggestion}}'?",
    },
  },
  check(ctx) {
    const { set } = ctx;
    // Fetched and built-in documents (A3, not in a template) may carry suffixes; authored resources may not.
    const lenient = set.kind === 'policySetDefinition' && !set.inTemplate;
    const pattern = lenient ? SUFFIXED_VERSION : STRICT_VERSION;
    const check = (node: Node | undefined) => {
      if (!node || node.type !== 'string' || set.isDynamic(node)) return;
      const value = node.value as string;
      if (pattern.test(value)) return;
      const suggestion = normalizeVersion(value);
      const messageId = (lenient ? 'suffixed' : 'strict') + (suggestion ? 'Suggestion' : '');
      ctx.report({ node, messageId, data: { value, suggestion } });
    };
    check(propertyIgnoreCase(set.properties, 'version'));
    for (const node of items(property(set.properties, 'versions'))) check(node);
  },
  fix: normalizeSetVersion,
};

function normalizeSetVersion(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  const node = nodeAt(ctx, 'string');
  if (!found || !node || found.set.isDynamic(node)) return [];
  // As the rule reads it: built-in documents may carry a suffix, authored resources may not.
  const lenient = found.set.kind === 'policySetDefinition' && !found.set.inTemplate;
  const normalized = normalizedVersion(node.value as string, lenient);
  if (!normalized || !(lenient ? SUFFIXED_VERSION : STRICT_VERSION).test(normalized.version)) return [];
  return versionFix(ctx, node, normalized.version, normalized.exact, node.value as string);
}

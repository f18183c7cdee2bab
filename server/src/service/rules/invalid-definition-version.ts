import type { SetRule, Fix, FixContext } from './types';
import { DEFINITION_VERSION } from './util';
import { sameRange, setAt } from './support/fixes';
import { SUFFIX, versionFix } from './support/versionFixes';

export const invalidDefinitionVersion: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3003',
    name: 'invalid-definition-version',
    description:
      "A reference's `definitionVersion` must be `#.#.#` or have wildcard components: `#.#.*` or `#.*.*` (a suffix such as `-preview` is allowed).",
    fixable: 'version',
    defaultSeverity: 'error',
    messages: { format: "definitionVersion '{{value}}' must be #.#.#, #.#.* or #.*.* (such as '1.*.*')." },
  },
  check(ctx) {
    for (const reference of ctx.set.references) {
      const node = reference.definitionVersionNode;
      if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) continue;
      if (!DEFINITION_VERSION.test(node.value as string)) ctx.report({ node, messageId: 'format', data: { value: node.value } });
    }
  },
  fix: normalizeDefinitionVersion,
};

function normalizeDefinitionVersion(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  const reference = found?.set.references.find((r) => r.definitionVersionNode && sameRange(ctx, r.definitionVersionNode));
  const node = reference?.definitionVersionNode;
  if (!node || node.type !== 'string' || found!.set.isDynamic(node)) return [];
  const value = (node.value as string).trim();
  const suffix = SUFFIX.exec(value)?.[1] ?? '';
  const match = /^v?(\d+)(?:\.(\d+|\*))?(?:\.(\d+|\*))?$/i.exec(suffix ? value.slice(0, -suffix.length) : value);
  if (!match) return [];
  const [, major, minor, patch] = match;
  // A major version alone, or a wildcard, pins the major: what follows a wildcard is a wildcard.
  const version =
    minor === undefined || minor === '*'
      ? `${major}.*.*${suffix}`
      : patch === '*'
        ? `${major}.${minor}.*${suffix}`
        : `${major}.${minor}.${patch ?? 0}${suffix}`;
  if (!DEFINITION_VERSION.test(version)) return [];
  return versionFix(ctx, node, version, true, node.value as string);
}

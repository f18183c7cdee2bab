import { describeDefinition, resolvedReferences } from './referencedDefinitions';
import { DEFINITION_VERSION, quoteList } from './util';
import type { SetRule } from './types';

/** Whether a definition version matches `#.#.#`, `#.#.*` or `#.*.*` (suffixes such as '-preview' are not compared). */
export function versionMatches(pattern: string, version: string): boolean {
  const want = pattern.split('-')[0].split('.');
  const have = version.split('-')[0].split('.');
  return want.every((part, i) => part === '*' || part === have[i]);
}

/** versionMatches by pattern and version: documents repeat a few patterns against a few hundred versions. */
const matchCache = new Map<string, Map<string, boolean>>();

function matchesCached(pattern: string, version: string): boolean {
  let byVersion = matchCache.get(pattern);
  if (!byVersion) {
    if (matchCache.size >= 1000) matchCache.clear();
    byVersion = new Map();
    matchCache.set(pattern, byVersion);
  }
  let result = byVersion.get(version);
  if (result === undefined) {
    result = versionMatches(pattern, version);
    if (byVersion.size < 10000) byVersion.set(version, result);
  }
  return result;
}

export const unknownDefinitionVersion: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8005',
    name: 'unknown-definition-version',
    description: "A reference's `definitionVersion` matches none of the versions the referenced definition has.",
    defaultSeverity: 'error',
    messages: {
      noMatch: "definitionVersion '{{value}}' matches no version of the referenced definition {{definition}}: it has {{versions}}.",
    },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      const node = resolved.reference.definitionVersionNode;
      if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) continue;
      const pattern = node.value as string;
      if (!DEFINITION_VERSION.test(pattern)) continue;
      // A version any cloud has is a version: the document's cloud is only a guess from its path.
      let known = false;
      let matched = false;
      for (const variant of resolved.all) {
        for (const version of variant.versions) {
          known = true;
          if (matchesCached(pattern, version)) {
            matched = true;
            break;
          }
        }
        if (matched) break;
      }
      if (!known || matched) continue;
      const versions = [...new Set(resolved.all.flatMap((v) => v.versions))];
      ctx.report({
        node,
        messageId: 'noMatch',
        data: { value: pattern, definition: describeDefinition(resolved), versions: quoteList(versions), knownVersions: versions },
      });
    }
  },
};

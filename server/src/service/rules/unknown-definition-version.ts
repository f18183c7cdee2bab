import { describeDefinition, resolvedReferences } from './referencedDefinitions';
import { DEFINITION_VERSION, quoteList } from './util';
import type { SetRule } from './types';

/** Whether a definition version matches `#.#.#`, `#.#.*` or `#.*.*` (suffixes such as '-preview' are not compared). */
export function versionMatches(pattern: string, version: string): boolean {
  const want = pattern.split('-')[0].split('.');
  const have = version.split('-')[0].split('.');
  return want.every((part, i) => part === '*' || part === have[i]);
}

export const unknownDefinitionVersion: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8005',
    name: 'unknown-definition-version',
    description: "A reference's `definitionVersion` matches none of the versions the referenced definition has.",
    defaultSeverity: 'error',
    messages: { noMatch: "definitionVersion '{{value}}' matches no version of the referenced definition {{definition}}: it has {{versions}}." },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      const node = resolved.reference.definitionVersionNode;
      if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) continue;
      const pattern = node.value as string;
      if (!DEFINITION_VERSION.test(pattern)) continue;
      // A version any cloud has is a version: the document's cloud is only a guess from its path.
      const versions = [...new Set(resolved.all.flatMap((v) => v.versions))];
      if (!versions.length || versions.some((v) => versionMatches(pattern, v))) continue;
      ctx.report({ node, messageId: 'noMatch', data: { value: pattern, definition: describeDefinition(resolved), versions: quoteList(versions), knownVersions: versions } });
    }
  },
};

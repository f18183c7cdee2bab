import { isPlaceholderValue, type TargetDeclaration } from '../consumers';
import type { ConsumerRule } from './types';
import { DEFINITION_VERSION, quoteList } from './util';
import { versionMatches } from './unknown-definition-version';
import { describeTargets, relatedDeclarations } from './support/consumers';

/** Whether a version pattern asks for more than `latest` has: a greater major, or the same major and a greater minor or patch. */
function newerThan(pattern: string, latest: string): boolean {
  const want = pattern.split('-')[0].split('.');
  const have = latest.split('-')[0].split('.').map(Number);
  if (have.length !== 3 || have.some((n) => !Number.isInteger(n))) return false;
  for (let i = 0; i < 3; i++) {
    if (want[i] === '*') return false;
    const n = Number(want[i]);
    if (n !== have[i]) return n > have[i];
  }
  return false;
}

/** Whether the pattern names a version the declaration has; undefined when its versions are not known well enough to say. */
function hasVersion(pattern: string, declaration: TargetDeclaration): boolean | undefined {
  if (declaration.versions?.length) return declaration.versions.some((v) => versionMatches(pattern, v));
  // Only the latest version known (a file holds one): older ones may exist in Azure, newer ones do not.
  if (declaration.version) return newerThan(pattern, declaration.version) ? false : undefined;
  return undefined;
}

export const unknownAssignmentDefinitionVersion: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9215',
    name: 'unknown-assignment-definition-version',
    description:
      "An assignment's `definitionVersion` (`1.*.*`: the latest version of that major) matches no version of the set or definition it assigns: the service rejects the assignment. Compared with the versions the set lists (`properties.versions`, as built-in sets do); when only its `properties.version` is known, reported only when it asks for a newer version than that one. Checked when the set is known.",
    defaultSeverity: 'error',
    messages: {
      noMatch: "definitionVersion '{{value}}' matches no version of the assigned {{target}}: it has {{versions}}.",
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      for (const { target, candidates, viaAssignment } of resolved.targets) {
        if (viaAssignment) continue;
        const node = target.versionNode;
        if (!node || node.type !== 'string' || !candidates.length) continue;
        const pattern = (node.value as string).trim();
        if (isPlaceholderValue(pattern) || !DEFINITION_VERSION.test(pattern)) continue;
        // Copies of a set or variants of a definition: a version any of them has is a version.
        const answers = candidates.map((c) => hasVersion(pattern, c));
        if (!answers.every((a) => a === false)) continue;
        const versions = [...new Set(candidates.flatMap((c) => (c.versions?.length ? c.versions : c.version ? [c.version] : [])))];
        ctx.report({
          node,
          messageId: 'noMatch',
          data: { value: pattern, target: describeTargets(candidates), versions: quoteList(versions), knownVersions: versions },
          related: relatedDeclarations(candidates, 'Versions of'),
        });
      }
    }
  },
};

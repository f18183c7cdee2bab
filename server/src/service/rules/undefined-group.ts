import type { Node } from '../json';
import { closestMatch, onlyCloseMatch } from '../text';
import type { SetRule, RelatedReport, Fix, FixContext } from './types';
import { insertInto, replaceNode } from './support/edits';
import { groupUseAt, stringData } from './support/fixes';

export const undefinedGroup: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5001',
    name: 'undefined-group',
    description: 'Every `groupNames` entry must name a group declared in `policyDefinitionGroups`; the service rejects the set otherwise.',
    fixable: 'typo',
    defaultSeverity: 'error',
    messages: {
      undefined: "Group '{{name}}' is not declared in policyDefinitionGroups.",
      undefinedDidYouMean: "Group '{{name}}' is not declared in policyDefinitionGroups. Did you mean '{{suggestion}}'?",
      noGroups: "Group '{{name}}' is not declared: this set has no policyDefinitionGroups.",
    },
  },
  check(ctx) {
    const { set } = ctx;
    if (set.groupsDynamic) return;
    // Groups imported from other sets (importPolicyDefinitionGroups) are declared too; when one of those
    // sets is not known, which groups it brings is not known either, and nothing is said.
    const imported = new Map<string, string>();
    for (const source of set.importedGroupSets) {
      const known = ctx.options.definitions?.lookupSet(source.value);
      if (!known) return;
      for (const group of known.groups) imported.set(group.toLowerCase(), group);
    }
    for (const use of set.groupUses) {
      if (use.declared || imported.has(use.lower)) continue;
      const name = use.name;
      if (!set.groups.length && !set.importedGroupSets.length) {
        const related: RelatedReport[] = set.properties
          ? [{ node: set.properties, message: 'policyDefinitionGroups belongs in these properties' }]
          : [];
        ctx.report({ node: use.node, messageId: 'noGroups', data: { name }, related });
        continue;
      }
      const suggestion = closestMatch(name, [...set.groups.map((g) => g.name), ...imported.values()]);
      const related = set.groups.slice(0, 20).map((g) => ({ node: g.nameNode as Node, message: `Declared group '${g.name}'` }));
      ctx.report({ node: use.node, messageId: suggestion ? 'undefinedDidYouMean' : 'undefined', data: { name, suggestion }, related });
    }
  },
  fix: declareGroup,
};

function declareGroup(ctx: FixContext): Fix[] {
  const found = groupUseAt(ctx);
  if (!found || found.use.declared) return [];
  const { set, use } = found;
  const name = use.name;
  // Into the declared groups, or a new policyDefinitionGroups at the end of the properties.
  const insert = set.groupsNode
    ? insertInto(ctx, set.groupsNode, 'array', undefined, { name }, undefined)
    : insertInto(ctx, set.properties, 'object', 'policyDefinitionGroups', [{ name }], undefined);
  if (!insert) return [];
  const candidates: Fix[] = [];
  const suggestion = set.groups.find((g) => g.name === stringData(ctx, 'suggestion'))?.name;
  if (suggestion) {
    // Changed without a person's choice when the suggestion is the one declared group close to the name (imported groups count).
    const only =
      onlyCloseMatch(
        name,
        set.groups.map((g) => g.name),
      ) === suggestion && !set.importedGroupSets.length;
    candidates.push({
      key: `rename:${use.node.offset}`,
      title: `Change to '${suggestion}'`,
      edits: [replaceNode(use.node, suggestion)],
      preferred: true,
      safe: only,
    });
  }
  candidates.push({
    key: `declare:${set.resource.offset}:${name.toLowerCase()}`,
    title: `Declare group '${name}' in policyDefinitionGroups`,
    edits: [insert],
    preferred: !suggestion,
    safe: false,
  });
  return candidates;
}

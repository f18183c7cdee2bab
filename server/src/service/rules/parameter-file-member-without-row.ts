import type { TargetDeclaration } from '../consumers';
import type { ParameterFileRule } from './types';
import { cellOf, columnOf, knownSets, relatedUses } from './support/parameterFile';

/** How many names a message lists before it says how many more there are. */
const LISTED = 5;

export const parameterFileMemberWithoutRow: ParameterFileRule = {
  scope: 'parameterFile',
  meta: {
    code: 'PS9212',
    name: 'parameter-file-member-without-row',
    description:
      'A set assigned with the policy-as-code framework\'s CSV parameter file has members that no row names: the framework assigns them with their default effect and warns ("Missing rows for policies in Policy Sets"). Usually a definition added to the set since the file was generated. One diagnostic per set, on the `name` header, listing the definitions. Checked when every set is known.',
    defaultSeverity: 'info',
    messages: {
      missing:
        "{{count}} member(s) of set '{{set}}' have no row in this file and are assigned with their default effect: {{list}}. Add their rows, or regenerate the file.",
    },
  },
  check(ctx) {
    const sets = knownSets(ctx);
    const column = columnOf(ctx, 'name');
    if (!sets || column === undefined) return;
    const header = ctx.file.headers[column];
    const rows = new Set(ctx.file.rows.map((row) => cellOf(row, column)?.value.trim().toLowerCase()).filter((n) => n));
    // Copies of one set (by name) are compared by what they have in common.
    const byName = new Map<string, TargetDeclaration[]>();
    for (const set of sets) byName.set(set.name.toLowerCase(), [...(byName.get(set.name.toLowerCase()) ?? []), set]);
    for (const copies of byName.values()) {
      const [first, ...others] = copies;
      const missing = [...new Set((first.members ?? []).map((m) => m.definition))].filter(
        (name) => name && !rows.has(name) && others.every((o) => o.members?.some((m) => m.definition === name)),
      );
      if (!missing.length) continue;
      const list =
        missing
          .slice(0, LISTED)
          .map((n) => `'${n}'`)
          .join(', ') + (missing.length > LISTED ? ` and ${missing.length - LISTED} more` : '');
      ctx.report({
        start: header.start,
        end: header.end,
        messageId: 'missing',
        data: { count: missing.length, set: first.name, list, definitions: missing },
        related: relatedUses(ctx, copies, 'Members of'),
      });
    }
  },
};

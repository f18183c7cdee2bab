import type { ParameterFileRule } from './types';
import { cellOf, columnOf, describeSets, knownSets, memberNames, relatedUses } from './support/parameterFile';

export const parameterFileRowNotMember: ParameterFileRule = {
  scope: 'parameterFile',
  meta: {
    code: 'PS9211',
    name: 'parameter-file-row-not-member',
    description:
      "A row of the policy-as-code framework's CSV parameter file names (in its `name` column) a definition that is a member of none of the sets the branches naming the file assign: the framework ignores the row with a warning, so its effect and parameters are not applied. Usually a definition the set no longer has. Checked when every set is known.",
    defaultSeverity: 'warning',
    messages: {
      notMember:
        "Row names definition '{{name}}', which is not a member of the {{sets}} assigned with this file: the framework ignores the row. Remove it, or regenerate the file.",
    },
  },
  check(ctx) {
    const sets = knownSets(ctx);
    const column = columnOf(ctx, 'name');
    if (!sets || column === undefined) return;
    const members = memberNames(sets);
    for (const row of ctx.file.rows) {
      const cell = cellOf(row, column);
      const name = cell?.value.trim();
      if (!cell || !name || members.has(name.toLowerCase())) continue;
      ctx.report({
        start: cell.start,
        end: cell.end,
        messageId: 'notMember',
        data: { name, sets: describeSets(sets) },
        related: relatedUses(ctx, sets, 'Members of'),
      });
    }
  },
};

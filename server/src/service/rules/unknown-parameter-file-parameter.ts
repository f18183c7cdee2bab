import { readParametersCell } from '../consumers/parameterFile';
import { closestMatch } from '../text';
import type { ParameterFileRule } from './types';
import { parameterColumns } from './invalid-parameter-file-cell';
import { cellOf, columnOf, describeSets, knownSets, memberNames, relatedUses } from './support/parameterFile';

export const unknownParameterFileParameter: ParameterFileRule = {
  scope: 'parameterFile',
  meta: {
    code: 'PS9214',
    name: 'unknown-parameter-file-parameter',
    description:
      "A `<selector>Parameters` cell of the policy-as-code framework's CSV parameter file passes a parameter that none of the sets assigned with the file declares: the framework passes an assignment only the parameters its set declares, and drops this one without a word. Often a parameter renamed in the set. Checked when every set is known, on the rows of members.",
    defaultSeverity: 'warning',
    messages: {
      unknown: "Parameter '{{parameter}}' is not declared by the {{sets}} assigned with this file: the framework drops it.",
      unknownDidYouMean:
        "Parameter '{{parameter}}' is not declared by the {{sets}} assigned with this file: the framework drops it. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    const sets = knownSets(ctx);
    if (!sets) return;
    const declared = new Map<string, string>();
    for (const set of sets) for (const [lower, parameter] of set.parameters) declared.set(lower, parameter.name);
    const members = memberNames(sets);
    const nameColumn = columnOf(ctx, 'name');
    for (const column of parameterColumns(ctx)) {
      for (const row of ctx.file.rows) {
        const cell = cellOf(row, column);
        const name = cellOf(row, nameColumn)?.value.trim().toLowerCase();
        // A row that names no member is ignored whole (parameter-file-row-not-member).
        if (!cell || !cell.value.trim() || (name !== undefined && !members.has(name))) continue;
        const { parameters } = readParametersCell(cell.value);
        for (const parameter of Object.keys(parameters ?? {})) {
          if (declared.has(parameter.toLowerCase())) continue;
          const suggestion = closestMatch(parameter, [...declared.values()]);
          const at = keyOffset(ctx.text.slice(cell.start, cell.end), parameter);
          ctx.report({
            start: at === undefined ? cell.start : cell.start + at.start,
            end: at === undefined ? cell.end : cell.start + at.end,
            messageId: suggestion ? 'unknownDidYouMean' : 'unknown',
            data: { parameter, sets: describeSets(sets), suggestion },
            related: relatedUses(ctx, sets, 'Parameters of'),
          });
        }
      }
    }
  },
};

/** Where a key is written in a cell's raw text (its quotes doubled when the cell is quoted), when it is plainly. */
function keyOffset(raw: string, key: string): { start: number; end: number } | undefined {
  for (const quoted of [`""${key}""`, `"${key}"`]) {
    const index = raw.indexOf(quoted);
    if (index !== -1) return { start: index, end: index + quoted.length };
  }
  return undefined;
}

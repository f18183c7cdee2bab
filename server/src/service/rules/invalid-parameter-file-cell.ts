import { readParametersCell } from '../consumers/parameterFile';
import type { ParameterFileRule } from './types';
import { cellOf, columnOf } from './support/parameterFile';

export const invalidParameterFileCell: ParameterFileRule = {
  scope: 'parameterFile',
  meta: {
    code: 'PS9213',
    name: 'invalid-parameter-file-cell',
    description:
      "A `<selector>Parameters` cell of the policy-as-code framework's CSV parameter file, in a column a branch naming the file selects with `parameterSelector`, is not a JSON object of parameter values (comments and trailing commas are taken): the framework's `ConvertFrom-Json` fails on it and the assignment is not built. An empty cell passes nothing and is fine.",
    defaultSeverity: 'error',
    messages: {
      invalid:
        'The \'{{column}}\' cell is {{problem}}: write the parameters as a JSON object, such as {"effect": "Audit"}, or leave the cell empty.',
    },
  },
  check(ctx) {
    for (const column of parameterColumns(ctx)) {
      const header = ctx.file.headers[column].value.trim();
      for (const row of ctx.file.rows) {
        const cell = cellOf(row, column);
        if (!cell || !cell.value.trim()) continue;
        const { problem } = readParametersCell(cell.value);
        if (problem) ctx.report({ start: cell.start, end: cell.end, messageId: 'invalid', data: { column: header, problem } });
      }
    }
  },
};

/** The `<selector>Parameters` columns the branches naming the file select (each appearing once). */
export function parameterColumns(ctx: Parameters<ParameterFileRule['check']>[0]): number[] {
  const selectors = new Set(ctx.uses.flatMap((u) => u.use.selectors.map((s) => s.toLowerCase())));
  const columns = new Set<number>();
  for (const selector of selectors) {
    const column = columnOf(ctx, `${selector}Parameters`);
    if (column !== undefined) columns.add(column);
  }
  return [...columns].sort((a, b) => a - b);
}

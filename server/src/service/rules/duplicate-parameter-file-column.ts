import type { ParameterFileRule } from './types';

export const duplicateParameterFileColumn: ParameterFileRule = {
  scope: 'parameterFile',
  meta: {
    code: 'PS9210',
    name: 'duplicate-parameter-file-column',
    description:
      "A column header of the policy-as-code framework's CSV parameter file appears twice (headers compare in any casing): PowerShell's `ConvertFrom-Csv`, which reads the file, stops on it, so the branches that name the file are not deployed. Checked in a CSV file that an assignment file names with `parameterFile`.",
    defaultSeverity: 'error',
    messages: {
      duplicate: "Column '{{header}}' appears twice in the parameter file: the framework cannot read it. Rename or remove one of them.",
    },
  },
  check(ctx) {
    const first = new Map<string, { start: number; end: number }>();
    for (const cell of ctx.file.headers) {
      const key = cell.value.trim().toLowerCase();
      if (!key) continue;
      const earlier = first.get(key);
      if (!earlier) {
        first.set(key, cell);
        continue;
      }
      ctx.report({
        start: cell.start,
        end: cell.end,
        messageId: 'duplicate',
        data: { header: cell.value.trim() },
        related: [{ start: earlier.start, end: earlier.end, message: 'The first column of that name' }],
      });
    }
  },
};

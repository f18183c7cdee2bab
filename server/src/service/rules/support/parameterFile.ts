// What the rules of the policy-as-code framework's CSV parameter files (PS9210-PS9214) share: the sets the
// file is assigned with, its cells by column, the related information that points at the assignment naming it.
import type { TargetDeclaration } from '../../consumers';
import type { CsvCell, CsvRecord } from '../../consumers/csv';
import type { ParameterFileRuleContext, RelatedReport } from '../types';
import { relatedDeclarations } from './consumers';

/** The sets every branch naming the file assigns, when every one of them is known (else undefined: nothing is compared). */
export function knownSets(ctx: ParameterFileRuleContext): TargetDeclaration[] | undefined {
  if (!ctx.uses.length || !ctx.uses.every((u) => u.resolved)) return undefined;
  const sets = ctx.uses.flatMap((u) => u.targets.flatMap((t) => t.candidates));
  // A set whose members were not read is not compared.
  return sets.every((s) => s.kind === 'set' && s.members) ? sets : undefined;
}

/** The lowercased definition names of the members of the sets. */
export function memberNames(sets: TargetDeclaration[]): Set<string> {
  return new Set(sets.flatMap((s) => (s.members ?? []).map((m) => m.definition)));
}

/** The cell of a row in a column (undefined when the row is shorter). */
export function cellOf(row: CsvRecord, column: number | undefined): CsvCell | undefined {
  return column === undefined ? undefined : row.cells[column];
}

/** The column of a header (any casing, as PowerShell reads them), when it appears once. */
export function columnOf(ctx: ParameterFileRuleContext, header: string): number | undefined {
  return ctx.file.columns.get(header.toLowerCase());
}

/** Related information: the assignment files' `parameterFile` and the files of the sets. */
export function relatedUses(ctx: ParameterFileRuleContext, sets: TargetDeclaration[] | undefined, what: string): RelatedReport[] {
  const related: RelatedReport[] = ctx.uses.map((u) => ({
    location: { uri: u.uri, line: u.at.line, character: u.at.character },
    message: `Named as the parameter file of this branch`,
  }));
  if (sets) related.push(...relatedDeclarations(sets, what));
  return related;
}

/** "set 'a'" or "sets 'a', 'b'". */
export function describeSets(sets: TargetDeclaration[]): string {
  const names = [...new Set(sets.map((s) => s.name))];
  return `set${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}`;
}

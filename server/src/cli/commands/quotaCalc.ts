import { parseArgs } from 'node:util';
import { capacityClassOf, checkSize, rateLimits } from '../../service/quota';
import { UsageError } from '../../node/files';
import { capacityTable, CAPACITY_UNITS_USAGE, fmt, numberFlag } from '../options/quotaOptions';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset quota calc --model <name> (--capacity <n> | --tpm <n>) [--format text|json]
                           [--capacity-units <file>]

What a deployment's size buys (spec D and Limits): TPM (sku.capacity 1 = 1,000 TPM), the RPM that
follows from the model's capacity-unit class, and the requests allowed in a 1-second and a 10-second
window (the RPM spread evenly). A TPM that is not a multiple of 1,000 is an error naming the nearest
valid values.

Examples:
  policyset quota calc --model gpt-4o --tpm 100000
  policyset quota calc --model o1 --capacity 6 --format json

${CAPACITY_UNITS_USAGE}

Exit status: 0 done, 2 usage problems (an unknown model, a size that is not valid).
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'done', 2: 'usage problems (an unknown model, a size that is not valid)' };

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      capacity: { type: 'string' },
      tpm: { type: 'string' },
      format: { type: 'string', default: 'text' },
      'capacity-units': { type: 'string' },
    },
  });
  if (positionals.length) throw new UsageError(`quota calc takes no file or name ('${positionals[0]}'): use --model`);
  if (!values.model) throw new UsageError('quota calc needs --model <name>');
  if ((values.capacity === undefined) === (values.tpm === undefined))
    throw new UsageError('quota calc needs exactly one of --capacity <n> or --tpm <n>');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const table = capacityTable(values['capacity-units']);
  const size = checkSize({
    capacity: numberFlag(values.capacity, '--capacity', { min: -Infinity }),
    tpm: numberFlag(values.tpm, '--tpm', { min: -Infinity }),
  });
  if (!size.ok) throw new UsageError(size.message);
  const unit = capacityClassOf(values.model, table);
  if (!unit)
    throw new UsageError(
      `'${values.model}' has no known capacity-unit class, so its RPM is not known: add it with --capacity-units <file> (known: ${Object.keys(table.models).join(', ')})`,
    );
  const limits = rateLimits(size.capacity, unit);
  if (values.format === 'json') {
    process.stdout.write(
      JSON.stringify({ model: values.model, class: unit.name, unit: { rpm: unit.rpm, tpm: unit.tpm }, ...limits }, null, 2) + '\n',
    );
    return 0;
  }
  process.stdout.write(
    [
      `model          ${values.model} (class ${unit.name}: 1 unit = ${fmt(unit.rpm)} RPM per ${fmt(unit.tpm)} TPM)`,
      `capacity       ${limits.capacity}`,
      `TPM            ${fmt(limits.tpm)}`,
      `RPM            ${fmt(limits.rpm, 2)}`,
      `per 1 s        ${fmt(limits.perSecond)} request${limits.perSecond === 1 ? '' : 's'}`,
      `per 10 s       ${fmt(limits.perTenSeconds)} request${limits.perTenSeconds === 1 ? '' : 's'}`,
      `spread evenly  one request every ${limits.rpm > 0 ? fmt(60 / limits.rpm, 3) : '-'} s`,
    ].join('\n') + '\n',
  );
  return 0;
}

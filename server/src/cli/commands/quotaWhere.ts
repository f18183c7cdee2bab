import { parseArgs } from 'node:util';
import { ApiError, checkLocation, DEFAULT_SKU_NAME, redact } from '#api';
import { checkSize, regionsWithRoom, roomVerdict, TPM_PER_CAPACITY, type Usage } from '../../service/quota';
import { UsageError } from '../../node/files';
import { serviceContext, serviceOptions, SERVICE_OPTIONS_USAGE } from '../options/serviceOptions';
import { fmt, modelDeploymentClient, numberFlag } from '../options/quotaOptions';
import { mapLimit } from '../concurrency';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset quota where --subscription <id> --model <name> (--capacity <n> | --tpm <n>)
                           --locations <region,region,...> [--sku <type>] [--format text|json] [service options]

Finds the regions with room: reads the quota usage (E7) of each region (a few at a time) and prints a
table sorted by free TPM: region, limit, used, free, and whether the TPM asked fits. A region whose read
fails, or whose usage lists no quota for the model and type, is listed with the reason, never dropped.
--sku is the deployment type (default ${DEFAULT_SKU_NAME}). --format json prints an array of
{ location, model, sku, limitTpm, usedTpm, freeTpm, fits, error? }.

Examples:
  policyset quota where --subscription <id> --model gpt-4o --tpm 150000 --locations eastus,westus,swedencentral
  policyset quota where --subscription <id> --model gpt-4o --capacity 50 --locations eastus,westus --format json

${SERVICE_OPTIONS_USAGE}
Exit status: 0 at least one region fits, 1 none does, 2 usage problems or no region could be read.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'at least one region fits', 1: 'none does', 2: 'usage problems or no region could be read' };

/** Regions read at once. */
const READS_AT_ONCE = 3;

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      subscription: { type: 'string' },
      model: { type: 'string' },
      capacity: { type: 'string' },
      tpm: { type: 'string' },
      locations: { type: 'string' },
      sku: { type: 'string', default: DEFAULT_SKU_NAME },
      format: { type: 'string', default: 'text' },
    },
  });
  if (positionals.length) throw new UsageError(`quota where takes no positional arguments ('${positionals[0]}')`);
  const missing = ['subscription', 'model', 'locations'].filter((k) => !values[k as keyof typeof values]);
  if (missing.length) throw new UsageError(`quota where needs ${missing.map((m) => `--${m}`).join(', ')}`);
  if ((values.capacity === undefined) === (values.tpm === undefined))
    throw new UsageError('quota where needs exactly one of --capacity <n> or --tpm <n>');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const size = checkSize({
    capacity: numberFlag(values.capacity, '--capacity', { min: -Infinity }),
    tpm: numberFlag(values.tpm, '--tpm', { min: -Infinity }),
  });
  if (!size.ok) throw new UsageError(size.message);
  const locations = [
    ...new Set(
      (values.locations as string)
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
  if (!locations.length) throw new UsageError('--locations takes a comma-separated list of regions (eastus,westus)');
  for (const l of locations) {
    const problem = checkLocation(l);
    if (problem) throw new UsageError(problem);
  }
  const subscription = values.subscription as string;
  const model = values.model as string;
  const sku = values.sku as string;
  const tpm = size.capacity * TPM_PER_CAPACITY;
  const context = serviceContext(values, env);
  const client = modelDeploymentClient(context);
  try {
    client.usagesPath(subscription, locations[0]);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const reads = await mapLimit(locations, READS_AT_ONCE, async (location) => {
    try {
      return { location, value: (await client.listUsages(subscription, location)).value as Usage[] };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { location, error: redact(error.message, context.secrets) };
    }
  });
  const rows = regionsWithRoom(model, sku, tpm, reads);
  const anyFits = rows.some((r) => r.fits);
  const status = reads.every((r) => r.error !== undefined) ? 2 : anyFits ? 0 : 1;
  if (values.format === 'json') {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return status;
  }
  const cells = rows.map((r) => [
    r.location,
    r.limitTpm === null ? '-' : fmt(r.limitTpm),
    r.usedTpm === null ? '-' : fmt(r.usedTpm),
    r.freeTpm === null ? '-' : fmt(r.freeTpm),
    r.error !== undefined ? `error: ${r.error}` : roomVerdict(r, tpm),
  ]);
  const header = ['region', 'limit TPM', 'used TPM', 'free TPM', `${fmt(tpm)} TPM fits?`];
  const widths = header.map((h, i) =>
    Math.max(h.length, ...cells.filter((c) => i < 4 || !c[4].startsWith('error')).map((c) => c[i].length)),
  );
  const line = (c: string[]) =>
    c
      .map((x, i) => (i >= 1 && i <= 3 ? x.padStart(widths[i]) : i === 4 ? x : x.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const fitting = rows.filter((r) => r.fits).map((r) => r.location);
  process.stdout.write(
    [
      `Room for ${fmt(tpm)} TPM of ${model} (${sku}), subscription ${subscription}:`,
      '',
      line(header),
      ...cells.map(line),
      '',
      fitting.length ? `fits in: ${fitting.join(', ')}` : 'fits in none of these regions',
    ].join('\n') + '\n',
  );
  return status;
}

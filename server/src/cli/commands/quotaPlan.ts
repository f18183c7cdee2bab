import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { decodeText, validateText } from '../../service';
import { parseJson } from '../../service/json';
import { asSavedUsage, capacityClassOf, rateLimits, readPlan, type SavedUsage } from '../../service/quota';
import { InputError, readBytes, UsageError } from '../../node/files';
import { diagnosticIdentities, type FileResult } from '../lintEngine';
import { formatText } from '../formatters';
import { capacityTable, CAPACITY_UNITS_USAGE, fmt, readJsonFile } from '../quotaOptions';

export const usage = `Usage: policyset quota plan <plan file> [--usage <saved usage json>]... [--format text|json]
                          [--capacity-units <file>]

Checks a deployment plan (or a lone E6 request body): capacities that are not positive whole numbers
(PS9101), models without a known capacity-unit class (PS9102, info), a model's TPM over its free quota
in a region (PS9103, on the deployment that crosses it), more than 30 resources in a region (PS9104).
The quota comes from saved usage (policyset quota usage --format json -o <file>): the files the plan
names in "usage" (relative to the plan) and the ones given with --usage. Prints each deployment's TPM
and RPM, then the diagnostics.

${CAPACITY_UNITS_USAGE}

Exit status: 0 no errors, 1 errors, 2 usage or input problems.
`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { usage: { type: 'string', multiple: true, default: [] }, format: { type: 'string', default: 'text' }, 'capacity-units': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('quota plan takes one plan file');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const file = positionals[0];
  const table = capacityTable(values['capacity-units']);
  const text = decodeText(await readBytes(file)).text;
  const plan = readPlan(parseJson(text).root);
  const usages: SavedUsage[] = [];
  const addUsage = (usageFile: string, what: string) => {
    const saved = asSavedUsage(readJsonFile(usageFile, what));
    if (!saved) throw new InputError(`${what}: '${usageFile}' is not saved usage ({ "location", "value": [...] }, as policyset quota usage --format json writes it)`);
    usages.push(saved);
  };
  for (const named of plan.usageFiles) addUsage(path.resolve(path.dirname(file), named.path), `the plan's "usage"`);
  for (const given of values.usage as string[]) addUsage(given, '--usage');

  const result = validateText(text, { uri: file, assumePolicyDocument: true, quota: { table, usages } });
  if (result.kind !== 'deploymentPlan') throw new InputError(`${file} is not a deployment plan ({ "deployments": [...] }) or an E6 request body ({ "sku", "properties": { "model" } })`);
  const rows = plan.deployments.map((d) => {
    const unit = d.model ? capacityClassOf(d.model, table) : undefined;
    const limits = unit && d.capacity ? rateLimits(d.capacity, unit) : undefined;
    return { region: d.region, account: d.account, name: d.name, model: d.model, sku: d.sku, capacity: d.capacity, tpm: d.capacity ? d.capacity * 1000 : undefined, rpm: limits?.rpm, perSecond: limits?.perSecond, perTenSeconds: limits?.perTenSeconds };
  });
  const errors = result.diagnostics.filter((d) => d.severity === 1).length;
  if (values.format === 'json') {
    process.stdout.write(JSON.stringify({ file, deployments: rows, diagnostics: result.diagnostics }, null, 2) + '\n');
    return errors ? 1 : 0;
  }
  const lines = rows.map(
    (r) =>
      `${r.region ?? '(no region)'}  ${r.account ?? '-'}/${r.name ?? '-'}  ${r.model ?? '?'} ${r.sku}  capacity ${r.capacity ?? '?'}: ${r.tpm !== undefined ? `${fmt(r.tpm)} TPM` : '? TPM'}, ${r.rpm !== undefined ? `${fmt(r.rpm, 2)} RPM (${r.perSecond} per 1 s, ${r.perTenSeconds} per 10 s)` : '? RPM'}`,
  );
  process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
  const fileResult: FileResult = { file, kind: result.kind, diagnostics: result.diagnostics, skipped: false, internalErrors: result.internalErrors, identities: diagnosticIdentities(text, result.diagnostics) };
  process.stdout.write(formatText([fileResult], process.cwd(), false));
  return errors ? 1 : 0;
}

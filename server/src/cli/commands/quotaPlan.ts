import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { decodeText, validateText } from '../../service';
import { parseJson } from '../../service/json';
import {
  asSavedUsage,
  existingCapacity,
  usageFor,
  capacityClassOf,
  describeRequestWindow,
  rateLimits,
  readPlan,
  uncheckedDeployments,
  type SavedUsage,
} from '../../service/quota';
import { InputError, readBytes, UsageError } from '../../node/files';
import { diagnosticIdentities, type FileResult } from '../lint/lintFile';
import { formatText, untrusted } from '../formatters';
import { escapeControls } from '#api';
import { capacityTable, CAPACITY_UNITS_USAGE, fmt, quotaConfig, readJsonFile } from '../options/quotaOptions';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset quota plan <plan file> [--usage <saved usage json>]... [--format text|json]
                          [--strict] [--capacity-units <file>]

Checks a deployment plan (or a lone E6 request body): capacities that are not positive whole numbers
(PS9101), models without a known capacity-unit class (PS9102, info), a model's TPM over its free quota
in a region (PS9103, on the deployment that crosses it), more than 30 resources in a region (PS9104).
The quota comes from saved usage (policyset quota usage --format json -o <file>): the files the plan
names in "usage" (relative to the plan), the ones given with --usage, and those of "usage" in
.policysetrc.json. Prints each deployment's TPM and RPM, then the diagnostics.

Examples:
  policyset quota plan east.deployment-plan.json
  policyset quota plan east.deployment-plan.json --usage usage-eastus.json --format json

An entry whose subscription and region the usage does not cover (or whose model and type it does not
list) gets a warning (PS9105): its quota was NOT checked, and the summary says so instead of a check
mark. An entry that restates an existing deployment says so with "existing": <its capacity now>; the
saved usage counts that capacity already, so only the difference is counted. Usage saved with
quota usage --plan <this plan> lists the plan's deployments that exist, and each entry that restates one
(same account, name, model and type) is counted the same way without "existing": after policyset model
apply, the two agree. model apply reads the service itself and checks the plan as desired state.

      --strict                  Exit 2 when the quota of any entry was not checked

${CAPACITY_UNITS_USAGE}

Exit status: 0 no errors, 1 errors, 2 usage or input problems, a rule that failed (or, with --strict, a quota
not checked).
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = {
  0: 'no errors',
  1: 'errors',
  2: 'usage or input problems, a rule that failed (or, with --strict, a quota not checked)',
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      usage: { type: 'string', multiple: true, default: [] },
      format: { type: 'string', default: 'text' },
      'capacity-units': { type: 'string' },
      strict: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError('quota plan takes one plan file');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const file = positionals[0];
  const table = capacityTable(values['capacity-units']);
  const text = decodeText(await readBytes(file, 'plan')).text;
  const plan = readPlan(parseJson(text).root);
  const usages: SavedUsage[] = [];
  const addUsage = (usageFile: string, what: string) => {
    const saved = asSavedUsage(readJsonFile(usageFile, what, 'usage'));
    if (!saved)
      throw new InputError(
        `${what}: '${usageFile}' is not saved usage ({ "location", "value": [...] }, as policyset quota usage --format json writes it)`,
      );
    usages.push(saved);
  };
  for (const named of plan.usageFiles) addUsage(path.resolve(path.dirname(file), named.path), `the plan's "usage"`);
  for (const given of values.usage as string[]) addUsage(given, '--usage');
  for (const configured of quotaConfig().usage ?? []) addUsage(configured, `"usage" of .policysetrc.json`);

  const result = validateText(text, { uri: file, assumePolicyDocument: true, quota: { table, usages } });
  // A plan with a syntax error is still a plan: its syntax errors are what the user needs, not "not a plan".
  const syntax = result.diagnostics.filter((d) => d.code === 'PS1001' || d.code === 'PS1002' || d.code === 'PS1003');
  if (result.kind !== 'deploymentPlan' && syntax.length) {
    const fileResult: FileResult = { file, kind: result.kind, diagnostics: syntax, skipped: false, internalErrors: [], identities: [] };
    process.stderr.write(formatText([fileResult], process.cwd(), false));
    throw new InputError(
      `${file} is not valid JSON (${syntax.length === 1 ? 'the error above' : `the ${syntax.length} errors above`}); fix it, then check the plan again`,
    );
  }
  if (result.kind !== 'deploymentPlan')
    throw new InputError(
      `${file} is not a deployment plan ({ "deployments": [...] }) or an E6 request body ({ "sku", "properties": { "model" } })`,
    );
  // Every entry whose quota was not checked, the lone E6 body's too (it names no region): never passed silently.
  const allUsages = [...plan.usages, ...usages];
  const unchecked = new Map(uncheckedDeployments(plan, allUsages).map((u) => [u.deployment, u.reason]));
  const rows = plan.deployments.map((d) => {
    const unit = d.model ? capacityClassOf(d.model, table) : undefined;
    const limits = unit && d.capacity ? rateLimits(d.capacity, unit) : undefined;
    const notChecked = unchecked.get(d);
    // What the usage already counts of the entry, as the quota rule reads it (its "existing", or a saved deployment).
    const held = existingCapacity(d, usageFor(allUsages, d));
    return {
      region: d.region,
      account: d.account,
      name: d.name,
      model: d.model,
      sku: d.sku,
      capacity: d.capacity,
      ...(held.from ? { existing: held.capacity, ...(held.from === 'usage' ? { existingFrom: 'usage' } : {}) } : {}),
      tpm: d.capacity ? d.capacity * 1000 : undefined,
      rpm: limits?.rpm,
      perSecond: limits?.perSecond,
      perTenSeconds: limits?.perTenSeconds,
      window: limits ? describeRequestWindow(limits) : undefined,
      quotaChecked: notChecked === undefined && d.model !== undefined && d.capacity !== undefined,
      ...(notChecked !== undefined ? { notChecked } : {}),
    };
  });
  const errors = result.diagnostics.filter((d) => d.severity === 1).length;
  const notCheckedCount = rows.filter((r) => !r.quotaChecked).length;
  // A rule that failed checked nothing: never a success (exit 2), and said on standard error.
  for (const internal of result.internalErrors)
    process.stderr.write(`policyset: internal error in rule ${internal.rule} on ${untrusted(file)}: ${untrusted(internal.message)}\n`);
  const status = result.internalErrors.length ? 2 : errors ? 1 : values.strict && notCheckedCount ? 2 : 0;
  if (values.format === 'json') {
    process.stdout.write(
      escapeControls(
        JSON.stringify({ file, quotaChecked: notCheckedCount === 0, deployments: rows, diagnostics: result.diagnostics }, null, 2),
      ) + '\n',
    );
    return status;
  }
  const lines = rows.map(
    (r) =>
      `${untrusted(r.region ?? '(no region)')}  ${untrusted(r.account ?? '-')}/${untrusted(r.name ?? '-')}  ${untrusted(r.model ?? '?')} ${untrusted(String(r.sku))}  capacity ${r.capacity ?? '?'}${r.existing !== undefined ? ` (${r.existing} now)` : ''}: ${r.tpm !== undefined ? `${fmt(r.tpm)} TPM` : '? TPM'}, ${r.rpm !== undefined ? `${fmt(r.rpm, 2)} RPM (${r.window})` : '? RPM'}${r.quotaChecked ? '' : '  [quota not checked]'}`,
  );
  process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
  const fileResult: FileResult = {
    file,
    kind: result.kind,
    diagnostics: result.diagnostics,
    skipped: false,
    internalErrors: result.internalErrors,
    identities: diagnosticIdentities(text, result.diagnostics),
  };
  const report = formatText([fileResult], process.cwd(), false).trimEnd().split('\n');
  // The summary's check mark says "checked and fine": not for a plan whose quota was not (all) checked.
  if (notCheckedCount && !errors) {
    const summary = report.pop()!.replace(/^\S+\s*/, '');
    report.push(
      `! ${summary}; quota NOT checked for ${notCheckedCount} of ${rows.length} deployment${rows.length === 1 ? '' : 's'} (marked [quota not checked] above)`,
    );
  } else if (notCheckedCount)
    report.push(
      `quota NOT checked for ${notCheckedCount} of ${rows.length} deployment${rows.length === 1 ? '' : 's'} (marked [quota not checked] above)`,
    );
  process.stdout.write(report.join('\n') + '\n');
  return status;
}

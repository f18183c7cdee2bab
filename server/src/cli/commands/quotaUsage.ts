import { parseArgs } from 'node:util';
import { safeText } from '#api';
import { deployedSpec, quotaFigures, readPlan, usageBar, type SavedDeployment } from '../../service/quota';
import { decodeText } from '../../service';
import { parseJson } from '../../service/json';
import { InputError, readBytes, UsageError } from '../../node/files';
import { mapLimit } from '../concurrency';
import { reportApiError, serviceContext, serviceOptions, SERVICE_OPTIONS_USAGE, redactForOutput } from '../options/serviceOptions';
import { capacityTable, CAPACITY_UNITS_USAGE, fmt, modelDeploymentClient } from '../options/quotaOptions';
import { writeOutputFile } from '../../node/output';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset quota usage --subscription <id> --location <region> [--format text|json] [-o <file>]
                           [--plan <plan file>] [--capacity-units <file>] [service options]

Reads the quota usage of a region (E7, every page) and shows, per model and deployment type, the TPM
used, the limit, the free TPM with a bar, and the RPM the free TPM would buy. --format json prints
{ subscription, location, value } with the entries as the service returned them, each model entry
with the computed "freeTpm" added: save it with -o and name it in a deployment plan ("usage").
--plan <plan file> also reads the plan's deployments in this subscription and region that exist (a GET
each, as model apply does) and saves them beside the usage ("deployments"): quota plan then counts an
entry that restates one as model apply does (only the difference), so the two agree once a plan is applied.

Examples:
  policyset quota usage --subscription <id> --location eastus
  policyset quota usage --subscription <id> --location eastus --format json -o usage-eastus.json
  policyset quota usage --subscription <id> --location eastus --format json --plan plan.json -o usage-eastus.json

${CAPACITY_UNITS_USAGE}
${SERVICE_OPTIONS_USAGE}
Exit status: 0 done, 2 usage, input, sign-in or service problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'done', 2: 'usage, input, sign-in or service problems' };

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      subscription: { type: 'string' },
      location: { type: 'string' },
      format: { type: 'string', default: 'text' },
      output: { type: 'string', short: 'o' },
      'capacity-units': { type: 'string' },
      plan: { type: 'string' },
    },
  });
  if (positionals.length) throw new UsageError(`quota usage takes no positional arguments ('${positionals[0]}')`);
  if (!values.subscription || !values.location) throw new UsageError('quota usage needs --subscription <id> and --location <region>');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const table = capacityTable(values['capacity-units']);
  const context = serviceContext(values, env);
  const client = modelDeploymentClient(context);
  try {
    client.usagesPath(values.subscription, values.location);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const planned = values.plan ? await plannedHere(values.plan, values.subscription, values.location) : undefined;
  if (planned) {
    try {
      for (const d of planned.targets) client.deploymentPath(d);
    } catch (error) {
      throw new UsageError(`${values.plan}: ${(error as Error).message}`);
    }
  }
  let listed;
  let deployments: SavedDeployment[] | undefined;
  try {
    listed = await client.listUsages(values.subscription, values.location);
    if (planned) {
      const read = await mapLimit(planned.targets, READS_AT_ONCE, async (t): Promise<SavedDeployment | undefined> => {
        const body = await client.getDeployment(t);
        const spec = body && deployedSpec(body);
        return spec
          ? {
              resourceGroup: t.resourceGroupName,
              account: t.accountName,
              name: t.deploymentName,
              model: spec.model,
              sku: spec.sku,
              capacity: spec.capacity,
            }
          : undefined;
      });
      deployments = read.filter((d): d is SavedDeployment => !!d);
    }
  } catch (error) {
    return reportApiError(error, context.secrets);
  }
  if (planned) {
    process.stderr.write(
      `policyset: ${deployments!.length} of the plan's ${planned.targets.length} deployment${planned.targets.length === 1 ? '' : 's'} in ${values.location} exist${planned.incomplete ? `; ${planned.incomplete} entr${planned.incomplete === 1 ? 'y names' : 'ies name'} no resource group, account or name and ${planned.incomplete === 1 ? 'was' : 'were'} not read` : ''}\n`,
    );
  }
  // The same figures as the editor's usage view: one quota model, in the service.
  const read = quotaFigures({ usages: listed.value }, table);
  let text: string;
  if (values.format === 'json') {
    const free = new Map(read.rows.map((m) => [m.key, m.freeTpm]));
    const value = listed.value.map((entry) =>
      entry.name?.value !== undefined && free.has(entry.name.value) ? { ...entry, freeTpm: free.get(entry.name.value) } : entry,
    );
    text =
      JSON.stringify(
        { subscription: values.subscription, location: values.location, value, ...(deployments ? { deployments } : {}) },
        null,
        2,
      ) + '\n';
  } else {
    const rows = read.rows.map((m) => [
      safeText(m.model, { max: 200 }),
      safeText(m.deploymentType, { max: 200 }),
      fmt(m.usedTpm),
      fmt(m.limitTpm),
      fmt(m.freeTpm),
      usageBar(m.usedTpm, m.limitTpm),
      m.freeRpm === undefined ? '?' : fmt(m.freeRpm, 2),
    ]);
    const header = ['model', 'type', 'used TPM', 'limit TPM', 'free TPM', 'used', 'RPM free buys'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd();
    const out = [`Quota usage in ${values.location} (subscription ${values.subscription})`, '', line(header), ...rows.map(line)];
    if (!rows.length) out.push('(no model entries)');
    if (deployments)
      out.push(
        '',
        `deployments of the plan that exist: ${deployments.length ? deployments.map((d) => `${safeText(d.account, { max: 200 })}/${safeText(d.name, { max: 200 })} ${safeText(d.model, { max: 200 })} ${safeText(d.sku, { max: 200 })} capacity ${fmt(d.capacity)}`).join(', ') : 'none'}`,
      );
    if (read.accounts) out.push('', `model-service resources in the region: ${read.accounts.used} of ${read.accounts.limit}`);
    if (read.unmatched.length)
      out.push(
        '',
        `entries not read as <Provider>.<DeploymentType>.<model> with numbers: ${read.unmatched.map((u) => safeText(u, { max: 200 })).join(', ')}`,
      );
    text = out.join('\n') + '\n';
  }
  if (values.output) {
    try {
      writeOutputFile(
        values.output,
        redactForOutput(text),
        [values['capacity-units'] as string | undefined].filter((f): f is string => !!f),
      );
    } catch (error) {
      process.stderr.write(`policyset: ${(error as Error).message}\n`);
      return 2;
    }
    process.stderr.write(`policyset: saved the usage of ${values.location} (${read.rows.length} model entries) to ${values.output}\n`);
  } else process.stdout.write(text);
  return 0;
}

const READS_AT_ONCE = 4;

/** The plan's deployments in this subscription and region, as the GET paths model apply reads. */
async function plannedHere(
  file: string,
  subscription: string,
  location: string,
): Promise<{
  targets: Array<{ subscriptionId: string; resourceGroupName: string; accountName: string; deploymentName: string }>;
  incomplete: number;
}> {
  const parsed = parseJson(decodeText(await readBytes(file, 'plan')).text);
  const plan = readPlan(parsed.root);
  if (parsed.syntaxErrors.length || !plan.deployments.length || plan.lone)
    throw new InputError(`${file} is not a deployment plan ({ "deployments": [...] }): run policyset quota plan ${file} to see why`);
  const here = plan.deployments.filter(
    (d) =>
      d.region?.toLowerCase() === location.toLowerCase() &&
      (!d.subscription || d.subscription.toLowerCase() === subscription.toLowerCase()),
  );
  const complete = here.filter((d) => d.resourceGroup && d.account && d.name);
  return {
    targets: complete.map((d) => ({
      subscriptionId: subscription,
      resourceGroupName: d.resourceGroup!,
      accountName: d.account!,
      deploymentName: d.name!,
    })),
    incomplete: here.length - complete.length,
  };
}

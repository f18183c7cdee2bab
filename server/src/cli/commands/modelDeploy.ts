import { parseArgs } from 'node:util';
import {
  DEFAULT_SKU_NAME,
  INSUFFICIENT_QUOTA_ADVICE,
  describeRateLimits,
  isInsufficientQuota,
  parseModelSpec,
  redact,
  type DeploymentBody,
  type DeploymentModel,
  type DeploymentTarget,
  type ModelDeployment,
  safeText,
} from '#api';
import {
  capacityClassOf,
  checkQuota,
  checkSize,
  describeRequestWindow,
  rateLimits,
  readUsages,
  usageOf,
  TPM_PER_CAPACITY,
  type Usage,
} from '../../service/quota';
import { UsageError } from '../../node/files';
import { confirm, unreadable, reportApiError, serviceContext, serviceOptions, SERVICE_OPTIONS_USAGE } from '../options/serviceOptions';
import { capacityTable, CAPACITY_UNITS_USAGE, fmt, modelDeploymentClient, numberFlag } from '../options/quotaOptions';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset model deploy --subscription <id> --resource-group <rg> --account <name> --name <deployment>
                            --model <name>[:<version>[:<format>]] (--capacity <n>|max | --tpm <n>) [--sku <name>]
                            [--location <region>] [--yes] [--format text|json] [--capacity-units <file>]
                            [service options]

Creates or resizes a model deployment (E6) with one PUT of sku and properties.model. First reads the
deployment (a GET on its path: 404 means new, else its current sku). With --location, reads the region's
usage (E7) and refuses, sending nothing, when the model's free quota (counting this deployment's current
TPM as freed when it is a resize of the same model and type) is short. Shows the TPM and RPM the
deployment will get and the exact PUT, then asks (or --yes). --capacity max (with --location) asks for
the largest capacity the free quota allows, counting the deployment's own current capacity when it is a
resize of the same model and type; refused with the reason when that is 0. --sku is the deployment type (default
${DEFAULT_SKU_NAME}); the model format defaults to OpenAI. --format json prints the outcome as one JSON
object (docs/cli.md "JSON outputs"); what it reads and checks still goes to standard error.

Examples:
  policyset model deploy --subscription <id> --resource-group rg --account ai-east --name chat \\
    --model gpt-4o:2024-08-06 --tpm 50000 --location eastus
  policyset model deploy ... --capacity max --location westus --yes --format json

${CAPACITY_UNITS_USAGE}
${SERVICE_OPTIONS_USAGE}
Exit status: 0 done, 1 refused (quota short, not confirmed), 2 usage, input, sign-in or service problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = {
  0: 'done',
  1: 'refused (quota short, not confirmed)',
  2: 'usage, input, sign-in or service problems',
};

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      subscription: { type: 'string' },
      'resource-group': { type: 'string' },
      account: { type: 'string' },
      name: { type: 'string' },
      model: { type: 'string' },
      capacity: { type: 'string' },
      tpm: { type: 'string' },
      sku: { type: 'string', default: DEFAULT_SKU_NAME },
      location: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      'capacity-units': { type: 'string' },
      format: { type: 'string', short: 'f', default: 'text' },
    },
  });
  const json = values.format === 'json';
  if (values.format !== 'text' && !json) throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const print = (outcome: object) => process.stdout.write(JSON.stringify(outcome, null, 2) + '\n');
  if (positionals.length) throw new UsageError(`model deploy takes no positional arguments ('${positionals[0]}')`);
  const missing = ['subscription', 'resource-group', 'account', 'name', 'model'].filter((k) => !values[k as keyof typeof values]);
  if (missing.length) throw new UsageError(`model deploy needs ${missing.map((m) => `--${m}`).join(', ')}`);
  if ((values.capacity === undefined) === (values.tpm === undefined))
    throw new UsageError('model deploy needs exactly one of --capacity <n> or --tpm <n>');
  const max = values.capacity === 'max';
  if (max && !values.location) throw new UsageError('--capacity max needs --location <region>: the free quota is read there');
  const size = max
    ? ({ ok: true, capacity: 1 } as const)
    : checkSize({
        capacity: numberFlag(values.capacity, '--capacity', { min: -Infinity }),
        tpm: numberFlag(values.tpm, '--tpm', { min: -Infinity }),
      });
  if (!size.ok) throw new UsageError(size.message);
  let model: DeploymentModel;
  try {
    model = parseModelSpec(values.model as string);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const table = capacityTable(values['capacity-units']);
  const target: DeploymentTarget = {
    subscriptionId: values.subscription as string,
    resourceGroupName: values['resource-group'] as string,
    accountName: values.account as string,
    deploymentName: values.name as string,
  };
  const skuName = values.sku as string;
  const body: DeploymentBody = { sku: { name: skuName, capacity: size.capacity }, properties: { model } };
  const context = serviceContext(values, env);
  const client = modelDeploymentClient(context);
  let path: string;
  try {
    path = client.deploymentPath(target);
    if (values.location) client.usagesPath(target.subscriptionId, values.location);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let capacity = size.capacity;
  let tpm = capacity * TPM_PER_CAPACITY;
  const say = (line: string) => process.stderr.write(`policyset: ${redact(line, context.secrets)}\n`);

  // Reads only, before anything is sent: the deployment as it is, then the region's usage.
  let current: ModelDeployment | undefined;
  try {
    current = await client.getDeployment(target);
  } catch (error) {
    return reportApiError(error, context.secrets);
  }
  const currentCapacity = typeof current?.sku?.capacity === 'number' ? current.sku.capacity : 0;
  const sameQuota =
    !!current &&
    (current.properties?.model?.name ?? '').toLowerCase() === model.name.toLowerCase() &&
    (current.sku?.name ?? DEFAULT_SKU_NAME).toLowerCase() === skuName.toLowerCase();
  const currentTpm = sameQuota ? currentCapacity * TPM_PER_CAPACITY : 0;
  if (current)
    say(
      `'${target.deploymentName}' exists: ${safeText(String(current.properties?.model?.name ?? '?'), { max: 200 })} ${safeText(String(current.sku?.name ?? '?'), { max: 200 })} capacity ${currentCapacity || '?'}; this is a resize${sameQuota ? ` (its ${fmt(currentTpm)} TPM is freed first)` : ''}`,
    );
  else say(`'${target.deploymentName}' does not exist yet: it will be created`);

  if (values.location) {
    let entries;
    try {
      entries = (await client.listUsages(target.subscriptionId, values.location)).value;
    } catch (error) {
      return reportApiError(error, context.secrets);
    }
    const found = usageOf(readUsages(entries as Usage[]), model.name, skuName);
    if (max) {
      if (!found) {
        say(
          `not deployed: --capacity max: the usage of ${values.location} has no entry for ${model.name} (${skuName}), so its free quota is not known`,
        );
        return 1;
      }
      const room = Math.floor(Math.max(0, found.limitTpm - found.usedTpm + currentTpm) / TPM_PER_CAPACITY);
      if (room < 1) {
        say(
          `not deployed: --capacity max: no free quota for ${model.name} (${skuName}) in ${values.location}: ${fmt(found.usedTpm)} of ${fmt(found.limitTpm)} TPM used${currentTpm ? ` (this deployment holds ${fmt(currentTpm)})` : ''}. ${INSUFFICIENT_QUOTA_ADVICE}`,
        );
        return 1;
      }
      capacity = room;
      tpm = capacity * TPM_PER_CAPACITY;
      body.sku.capacity = capacity;
      say(
        `--capacity max: ${capacity} units (${fmt(tpm)} TPM), the free quota of ${model.name} (${skuName}) in ${values.location}${currentTpm ? `, counting the ${fmt(currentTpm)} TPM this deployment holds now` : ''}`,
      );
    }
    if (!found) say(`the usage of ${values.location} has no entry for ${model.name} (${skuName}); the quota was not checked`);
    else {
      const check = checkQuota(found, tpm, currentTpm);
      if (!check.ok) {
        say(`not deployed: ${check.message}`);
        if (json)
          print({
            outcome: 'refused',
            reason: check.message,
            deployment: target.deploymentName,
            model: model.name,
            sku: skuName,
            capacity,
          });
        return 1;
      }
      say(
        `quota: ${fmt(check.freeTpm)} TPM free for ${model.name} (${skuName}) in ${values.location} of ${fmt(found.limitTpm)}; ${fmt(check.afterTpm)} TPM left after this`,
      );
    }
  }

  const unit = capacityClassOf(model.name, table);
  if (unit) {
    const limits = rateLimits(capacity, unit);
    say(`${model.name} at capacity ${capacity}: ${fmt(limits.tpm)} TPM, ${fmt(limits.rpm, 2)} RPM (${describeRequestWindow(limits)})`);
  } else
    say(`${model.name} at capacity ${capacity}: ${fmt(tpm)} TPM; its RPM is not known (no capacity-unit class: --capacity-units <file>)`);
  say(`PUT ${client.deploymentUrl(target)}\n  ${JSON.stringify(body)}`);
  if (!(await confirm(current ? 'Resize?' : 'Deploy?', values.yes as boolean, 'not deployed'))) {
    if (json) print({ outcome: 'not confirmed', deployment: target.deploymentName });
    return 1;
  }

  try {
    const response = await client.createOrUpdateDeployment(target, body);
    const rawState = response.body?.properties?.provisioningState;
    const state = rawState === undefined ? undefined : safeText(String(rawState), { max: 200 });
    const enforced = describeRateLimits(response.body);
    if (json) {
      print({
        outcome: response.status === 201 ? 'created' : 'updated',
        status: response.status,
        id: response.body?.id ?? path,
        deployment: target.deploymentName,
        model,
        sku: { name: skuName, capacity },
        tpm,
        rpm: unit ? rateLimits(capacity, unit).rpm : null,
        previousCapacity: current ? currentCapacity : null,
        provisioningState: state ?? null,
        rateLimits: response.body?.properties?.rateLimits ?? null,
        requestId: response.requestId ?? null,
      });
      return 0;
    }
    process.stdout.write(
      `${response.status === 201 ? 'created' : 'updated'} ${response.body?.id !== undefined ? safeText(String(response.body.id)) : path} (${response.status}${state ? `, provisioningState ${state}` : ''}${response.requestId ? `, request id ${response.requestId}` : ''})${unreadable(response.unreadableBody)}\n` +
        (state && !/^succeeded$/i.test(state) ? `the service is still provisioning it (${state})\n` : '') +
        (enforced ? `rate limits the service reports: ${enforced}\n` : ''),
    );
    return 0;
  } catch (error) {
    const status = reportApiError(error, context.secrets);
    if (isInsufficientQuota(error)) say(`what you can do: ${INSUFFICIENT_QUOTA_ADVICE}`);
    return status;
  }
}

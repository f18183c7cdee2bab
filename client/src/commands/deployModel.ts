import * as vscode from 'vscode';
import {
  ACCOUNT_NAME_PATTERN,
  DEFAULT_MODEL_FORMAT,
  DEPLOYMENT_NAME_PATTERN,
  INSUFFICIENT_QUOTA_ADVICE,
  RESOURCE_GROUP_PATTERN,
  describeRateLimits,
  isInsufficientQuota,
  type DeploymentBody,
  type DeploymentTarget,
  type ModelDeployment,
  type ServiceSettings,
  MAX_DEPLOYMENT_CAPACITY,
} from '../api';
import { requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';
import { askSubscriptionAndLocation, deploymentClientFor, fmt, recall, remember, type QuotaFiguresProvider } from './quotaCommon';

export const DEPLOY_MODEL_COMMAND = 'policySet.deployModel';

async function ask(
  title: string,
  value: string | undefined,
  check: (v: string) => string | undefined,
  placeHolder?: string,
): Promise<string | undefined> {
  const answer = await vscode.window.showInputBox({
    title,
    value: value ?? '',
    placeHolder,
    ignoreFocusOut: true,
    validateInput: (v) => check(v.trim()),
  });
  return answer === undefined ? undefined : answer.trim();
}

/**
 * "Policy Set: Create or Resize Model Deployment...": asks for the deployment, reads it (a GET on its path:
 * 404 = new) and, with a region, the region's usage; refuses without sending anything when the model's
 * free quota is short; else shows the exact PUT with the TPM and RPM in a modal, and sends it once.
 */
/** The answers, when the command is run with an argument (scripts, keybindings, tests): nothing is asked but the confirmation. */
export interface DeployModelArgs {
  subscriptionId: string;
  location?: string;
  resourceGroupName: string;
  accountName: string;
  deploymentName: string;
  model: string;
  version?: string;
  sku?: string;
  capacity: number;
}

export async function deployModel(
  context: vscode.ExtensionContext,
  deps: ServiceCommandDeps,
  figures: QuotaFiguresProvider,
  given?: DeployModelArgs,
): Promise<boolean> {
  if (!(await requireTrust())) return false;
  const service = await settingsOrExplain();
  if (!service) return false;
  if (given) {
    if (!Number.isInteger(given.capacity) || given.capacity < 1) {
      void vscode.window.showErrorMessage(
        `Policy Set: not deployed: capacity must be a positive whole number, not ${String(given.capacity)}`,
      );
      return false;
    }
    let where;
    try {
      where = await askSubscriptionAndLocation(context, true, given);
    } catch (error) {
      void vscode.window.showErrorMessage(`Policy Set: not deployed: ${(error as Error).message}`);
      return false;
    }
    return deployWith(
      deps,
      figures,
      service,
      where!,
      given.resourceGroupName,
      given.accountName,
      given.deploymentName,
      given.model,
      given.version ?? '',
      given.sku ?? 'Standard',
      given.capacity,
    );
  }
  const where = await askSubscriptionAndLocation(context, true);
  if (!where) return false;
  const last = recall(context);
  const resourceGroupName = await ask('Resource group', last.resourceGroupName, (v) =>
    RESOURCE_GROUP_PATTERN.test(v) ? undefined : "1-90 letters, digits, '-', '_', '.', '(' or ')', not ending in '.'",
  );
  if (!resourceGroupName) return false;
  const accountName = await ask('Model-service resource (account) name', last.accountName, (v) =>
    ACCOUNT_NAME_PATTERN.test(v) ? undefined : "2-64 letters, digits or '-', starting and ending with a letter or digit",
  );
  if (!accountName) return false;
  const deploymentName = await ask('Deployment name', last.deploymentName, (v) =>
    DEPLOYMENT_NAME_PATTERN.test(v) ? undefined : "2-64 letters, digits, '-', '_' or '.', starting with a letter or digit",
  );
  if (!deploymentName) return false;

  let known: Awaited<ReturnType<QuotaFiguresProvider>>['models'] = [];
  // Standard alone when the language server gives no list.
  let deploymentTypes: readonly string[] = ['Standard'];
  try {
    ({ models: known, deploymentTypes } = await figures({}));
  } catch (error) {
    deps.log?.warn(`the language server gave no model list: ${(error as Error).message}`);
  }
  const OTHER = 'Another model...';
  const modelPick = await vscode.window.showQuickPick(
    [
      ...known.map((m) => ({
        label: m.name,
        description: `${m.className}: 1 unit = ${fmt(m.rpm)} RPM per ${fmt(m.tpm)} TPM`,
        picked: m.name === last.model,
      })),
      { label: OTHER, description: 'a model not in the capacity-unit table' },
    ],
    { title: 'Model', ignoreFocusOut: true },
  );
  if (!modelPick) return false;
  const modelName =
    modelPick.label === OTHER ? await ask('Model name', last.model, (v) => (v ? undefined : 'a model name')) : modelPick.label;
  if (!modelName) return false;
  const version = await ask('Model version (empty: the service picks its default)', '', () => undefined, 'e.g. 2024-08-06');
  if (version === undefined) return false;
  const skuPick = await vscode.window.showQuickPick(
    deploymentTypes
      .map((label) => ({ label, picked: label === (last.sku ?? 'Standard') }))
      .sort((a, b) => Number(b.picked) - Number(a.picked)),
    { title: 'Deployment type (sku name)', ignoreFocusOut: true },
  );
  if (!skuPick) return false;
  const sku = skuPick.label;
  const capacityText = await ask('Capacity (units of 1,000 TPM)', '', (v) =>
    /^[1-9]\d{0,6}$/.test(v) && Number(v) <= MAX_DEPLOYMENT_CAPACITY
      ? undefined
      : `a positive whole number up to ${MAX_DEPLOYMENT_CAPACITY.toLocaleString('en-US')}: 1 = 1,000 TPM, 10 = 10,000 TPM`,
  );
  if (!capacityText) return false;
  const capacity = Number(capacityText);
  await remember(context, { resourceGroupName, accountName, deploymentName, model: modelName, sku });
  return deployWith(deps, figures, service, where, resourceGroupName, accountName, deploymentName, modelName, version, sku, capacity);
}

async function deployWith(
  deps: ServiceCommandDeps,
  figures: QuotaFiguresProvider,
  service: ServiceSettings,
  where: { subscriptionId: string; location?: string },
  resourceGroupName: string,
  accountName: string,
  deploymentName: string,
  modelName: string,
  version: string,
  sku: string,
  capacity: number,
): Promise<boolean> {
  const target: DeploymentTarget = { subscriptionId: where.subscriptionId, resourceGroupName, accountName, deploymentName };
  const body: DeploymentBody = {
    sku: { name: sku, capacity },
    properties: { model: { format: DEFAULT_MODEL_FORMAT, name: modelName, ...(version ? { version } : {}) } },
  };
  const client = deploymentClientFor(service, deps);
  let url: string;
  try {
    url = client.deploymentUrl(target);
  } catch (error) {
    await showFailure('not deployed', error, deps);
    return false;
  }

  // Reads only, before anything is sent.
  let current: ModelDeployment | undefined;
  let usages: unknown[] | undefined;
  try {
    [current, usages] = await withProgress(
      `Reading '${deploymentName}'${where.location ? ` and the quota of ${where.location}` : ''}...`,
      async (signal) => [
        await client.getDeployment(target, { signal }),
        where.location ? (await client.listUsages(where.subscriptionId, where.location, { signal })).value : undefined,
      ],
    );
  } catch (error) {
    await showFailure('not deployed', error, deps, service);
    return false;
  }
  const sameQuota =
    !!current &&
    (current.properties?.model?.name ?? '').toLowerCase() === modelName.toLowerCase() &&
    (current.sku?.name ?? 'Standard').toLowerCase() === sku.toLowerCase();
  const currentTpm = sameQuota && typeof current?.sku?.capacity === 'number' ? current.sku.capacity * 1000 : 0;
  const answer = await figures({ usages, model: modelName, sku, capacity, currentTpm });
  if (answer.check && !answer.check.ok) {
    deps.log?.warn(`not deployed: ${answer.check.message}`);
    void vscode.window.showErrorMessage(`Policy Set: not deployed: ${answer.check.message}`);
    return false;
  }

  const rates = answer.limits
    ? `${fmt(answer.limits.tpm)} TPM, ${fmt(answer.limits.rpm, 2)} RPM (${answer.limits.window ?? `${fmt(answer.limits.perSecond)} per 1 s window, ${fmt(answer.limits.perTenSeconds)} per 10 s`})`
    : `${fmt(capacity * 1000)} TPM; RPM not known ('${modelName}' has no capacity-unit class)`;
  const quota = !where.location
    ? 'Quota not checked (no region given).'
    : answer.check?.ok
      ? `Quota in ${where.location}: ${fmt(answer.check.freeTpm)} TPM free${currentTpm ? ` (counting the ${fmt(currentTpm)} TPM it holds now)` : ''}, ${fmt(answer.check.afterTpm)} TPM left after this.`
      : `The usage of ${where.location} has no entry for ${modelName} (${sku}): quota not checked.`;
  const what = current
    ? `Resize '${deploymentName}' (now ${current.properties?.model?.name ?? '?'} ${current.sku?.name ?? '?'} capacity ${current.sku?.capacity ?? '?'})`
    : `Create '${deploymentName}'`;
  const action = current ? 'Resize' : 'Create';
  const choice = await vscode.window.showWarningMessage(
    `${what}: ${modelName}, ${rates}?`,
    { modal: true, detail: `PUT ${url}\n\n${JSON.stringify(body, null, 2)}\n\n${quota}` },
    action,
  );
  if (choice !== action) return false;
  try {
    const response = await withProgress(`${action === 'Create' ? 'Creating' : 'Resizing'} '${deploymentName}'...`, (signal) =>
      client.createOrUpdateDeployment(target, body, { signal }),
    );
    const state = response.body?.properties?.provisioningState;
    const enforced = describeRateLimits(response.body);
    deps.log?.info(
      `PUT ${url}: ${response.status}${state ? ` ${state}` : ''}${response.requestId ? ` (request id ${response.requestId})` : ''}`,
    );
    void vscode.window.showInformationMessage(
      `Policy Set: ${response.status === 201 ? 'created' : 'updated'} deployment '${deploymentName}' (${response.status}${state ? `, ${state}` : ''})${enforced ? `; the service reports ${enforced}` : ''}.`,
    );
    return true;
  } catch (error) {
    await showFailure(
      isInsufficientQuota(error) ? `not deployed (${INSUFFICIENT_QUOTA_ADVICE})` : 'deploying failed',
      error,
      deps,
      service,
    );
    return false;
  }
}

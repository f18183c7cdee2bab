import * as vscode from 'vscode';
import { DEFAULT_MODEL_FORMAT, putOutcome, readDeploymentState, type DeploymentTarget } from '../api';
import { requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';
import { deploymentClientFor, fmt } from './quotaCommon';
import type { ApplyPlanAnswer, ApplyPlanParams } from '#protocol';

export const APPLY_DEPLOYMENT_PLAN_COMMAND = 'policySet.applyDeploymentPlan';

// The server's answer to policySet/applyPlan (server/src/service/quota/apply.ts): the extension holds no
// quota logic; it reads the service and sends the PUTs.
type Target = ApplyPlanAnswer['targets'][number];
export type { ApplyPlanAnswer };
export type ApplyPlanProvider = (params: ApplyPlanParams) => Promise<ApplyPlanAnswer>;

/** What happened to each changed entry. */
export interface ApplyOutcome {
  applied: string[];
  failed?: { key: string; outcome: 'refused' | 'unknown'; message: string };
  notSent: string[];
  /** Why nothing was sent, when nothing was. */
  refused?: string;
}

const READS_AT_ONCE = 4;

/**
 * "Policy Set: Apply Deployment Plan": the open plan (its text as in the editor, saved or not) as desired
 * state. Reads each entry's deployment and the usage of its regions, asks the server to reconcile them, shows
 * the table in a view, asks once, and sends one PUT per changed entry in the order the server found, with
 * progress per PUT; stops at the first failure. A PUT that may have been applied is never sent again.
 */
export async function applyDeploymentPlan(
  deps: ServiceCommandDeps,
  ask: ApplyPlanProvider,
  uri?: vscode.Uri,
): Promise<ApplyOutcome | undefined> {
  if (!(await requireTrust())) return undefined;
  const service = await settingsOrExplain();
  if (!service) return undefined;
  const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  if (!document) {
    void vscode.window.showErrorMessage('Policy Set: open a deployment plan ({ "deployments": [...] }) first.');
    return undefined;
  }
  const text = document.getText();
  const first = await ask({ text });
  if (first.problems.length) {
    void vscode.window.showErrorMessage(`Policy Set: not applied: ${first.problems.join('; ')}`);
    return { applied: [], notSent: [], refused: first.problems.join('; ') };
  }
  const client = deploymentClientFor(service, deps);
  const targetOf = (t: Target): DeploymentTarget => ({
    subscriptionId: t.subscription,
    resourceGroupName: t.resourceGroup,
    accountName: t.account,
    deploymentName: t.name,
  });
  const regions = [
    ...new Map(
      first.targets.map((t) => [`${t.subscription}|${t.region}`.toLowerCase(), { subscription: t.subscription, region: t.region }]),
    ).values(),
  ];
  let answer: ApplyPlanAnswer;
  try {
    answer = await withProgress('Reading the deployments and the quota of their regions...', async (signal) => {
      const deployments = await inBatches(first.targets, (t) =>
        readDeploymentState(client, targetOf(t), { signal }).then((s) => ({ body: s.deployment, accountMissing: s.accountMissing })),
      );
      const usages = await inBatches(regions, async (r) => ({
        ...r,
        value: (await client.listUsages(r.subscription, r.region, { signal })).value,
      }));
      return ask({ text, deployments, usages });
    });
  } catch (error) {
    await showFailure('not applied: a read failed, nothing was sent', error, deps, service);
    return undefined;
  }
  const result = answer.result;
  if (!result) {
    void vscode.window.showErrorMessage(`Policy Set: not applied: ${answer.problems.join('; ')}`);
    return { applied: [], notSent: [], refused: answer.problems.join('; ') };
  }
  const panel = vscode.window.createWebviewPanel(
    'policySet.applyPlan',
    `Apply: ${document.uri.path.split('/').pop()}`,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    { enableScripts: false },
  );
  const outcomes = new Map<string, string>();
  const render = () => (panel.webview.html = planHtml(result, outcomes, panel.webview.cspSource));
  render();
  const refusal = !result.fits ? `the plan does not fit: ${(result.problems ?? []).join('; ')}` : result.noOrder;
  if (refusal) {
    deps.log?.warn(`apply refused: ${refusal}`);
    void vscode.window.showErrorMessage(`Policy Set: not applied, nothing was sent: ${refusal}`);
    return { applied: [], notSent: [], refused: refusal };
  }
  if (!result.order.length) {
    void vscode.window.showInformationMessage('Policy Set: nothing to do: every deployment is as the plan says.');
    return { applied: [], notSent: [] };
  }
  // One confirmation, beside the view that shows what will be sent (a notification: a modal would hide the view).
  const button = `Apply ${result.order.length} change${result.order.length === 1 ? '' : 's'}`;
  const choice = await vscode.window.showWarningMessage(
    `Policy Set: send ${result.order.length} PUT${result.order.length === 1 ? '' : 's'} in this order: ${result.order.join(', ')}?`,
    button,
    'Cancel',
  );
  if (choice !== button) return { applied: [], notSent: [...result.order], refused: 'not confirmed' };

  const byKey = new Map(first.targets.map((t) => [`${t.account}/${t.name}`, t]));
  const current = new Map(result.rows.map((r) => [r.key, r]));
  const outcome: ApplyOutcome = { applied: [], notSent: [] };
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Applying the deployment plan', cancellable: false },
    async (progress) => {
      for (let i = 0; i < result.order.length; i++) {
        const key = result.order[i];
        const t = byKey.get(key)!;
        const d = t.desired;
        progress.report({
          message: `PUT ${i + 1}/${result.order.length}: ${key} (${current.get(key)?.from ?? 'new'} → ${d.capacity})`,
          increment: 100 / result.order.length,
        });
        // A plan without a version keeps the deployed one (the server read it: `currentVersion`).
        const version = d.version ?? current.get(key)?.currentVersion;
        const format = d.format ?? current.get(key)?.currentFormat ?? DEFAULT_MODEL_FORMAT;
        const body = {
          sku: { name: d.sku, capacity: d.capacity },
          properties: { model: { format, name: d.model, ...(version ? { version } : {}) } },
        };
        try {
          const response = await client.createOrUpdateDeployment(targetOf(t), body);
          deps.log?.info(`PUT ${key}: ${response.status}`);
          outcome.applied.push(key);
          outcomes.set(key, `applied (${response.status})`);
        } catch (error) {
          const what = putOutcome(error);
          const message = (error as Error).message;
          outcome.failed = { key, outcome: what, message };
          outcome.notSent = result.order.slice(i + 1);
          outcomes.set(key, what === 'unknown' ? `UNKNOWN: may have been applied, not sent again (${message})` : `failed: ${message}`);
          for (const k of outcome.notSent) outcomes.set(k, 'not sent');
          deps.log?.error(`PUT ${key}: ${message}`);
          break;
        }
        render();
      }
    },
  );
  render();
  if (outcome.failed)
    void vscode.window.showErrorMessage(
      `Policy Set: applied ${outcome.applied.length} of ${result.order.length}; ${outcome.failed.key} ${outcome.failed.outcome === 'unknown' ? 'may have been applied (not sent again)' : 'failed'}: ${outcome.failed.message}`,
    );
  else
    void vscode.window.showInformationMessage(
      `Policy Set: applied ${outcome.applied.length} change${outcome.applied.length === 1 ? '' : 's'}: ${outcome.applied.join(', ')}.`,
    );
  return outcome;
}

async function inBatches<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += READS_AT_ONCE) results.push(...(await Promise.all(items.slice(i, i + READS_AT_ONCE).map(work))));
  return results;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const n = (v: number | null | undefined) => (v === null || v === undefined ? '?' : fmt(v));

/** The view: entries (action, capacity before and after, TPM and RPM), quotas (limit, used now, after), the order, the outcome per entry. No scripts. */
export function planHtml(result: NonNullable<ApplyPlanAnswer['result']>, outcomes: Map<string, string>, cspSource: string): string {
  const rows = result.rows
    .map(
      (r) =>
        `<tr><td>${escape(r.key)}</td><td>${escape(r.region)}</td><td>${escape(r.model)} ${escape(r.sku)}</td><td class="${r.action}">${r.action}${r.changes.length && r.changes.some((c) => c !== 'capacity') ? ` (${escape(r.changes.join(', '))})` : ''}</td><td class="n">${r.from ?? '-'} → ${r.to}</td><td class="n">${fmt(r.tpm)}</td><td>${r.rpm === undefined ? '?' : `${fmt(r.rpm, 2)} (${escape(r.window ?? '')})`}</td><td class="outcome">${escape(outcomes.get(r.key) ?? (r.action === 'unchanged' ? 'not sent (unchanged)' : ''))}</td></tr>`,
    )
    .join('\n');
  const quotas = result.quotas
    .map(
      (q) =>
        `<tr><td>${escape(q.model)} ${escape(q.sku)} in ${escape(q.region)}</td><td class="n">${n(q.limitTpm)}</td><td class="n">${n(q.usedTpm)}</td><td class="n">${n(q.afterTpm)}</td><td>${q.fits ? 'fits' : 'DOES NOT FIT'}</td></tr>`,
    )
    .join('\n');
  const order = result.steps
    .map((s) => `<li>${escape(s.key)}: ${escape(s.quota)} ${fmt(s.beforeTpm)} → ${fmt(s.afterTpm)} of ${fmt(s.limitTpm)} TPM</li>`)
    .join('\n');
  const problems = [...(result.problems ?? []), ...(result.noOrder ? [result.noOrder] : [])];
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>Apply deployment plan</title>
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
table { border-collapse: collapse; margin-bottom: 1em; } th, td { padding: 3px 10px; text-align: left; } td.n, th.n { text-align: right; }
.unchanged { opacity: 0.7; } .problems { color: var(--vscode-errorForeground); }
</style></head><body>
<h2>Deployment plan</h2>
${problems.length ? `<div class="problems"><p><strong>Refused: nothing is sent.</strong></p><ul id="problems">${problems.map((p) => `<li>${escape(p)}</li>`).join('')}</ul></div>` : ''}
<table id="plan-entries"><thead><tr><th>Entry</th><th>Region</th><th>Model</th><th>Action</th><th class="n">Capacity</th><th class="n">TPM after</th><th>RPM after</th><th>Result</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<table id="plan-quotas"><thead><tr><th>Quota</th><th class="n">Limit TPM</th><th class="n">Used now</th><th class="n">Used after</th><th></th></tr></thead>
<tbody>
${quotas}
</tbody></table>
${order ? `<h3>Order</h3><ol id="plan-order">${order}</ol>` : ''}
</body></html>`;
}

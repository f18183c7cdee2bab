import * as vscode from 'vscode';
import { requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';
import { askSubscriptionAndLocation, deploymentClientFor, fmt, type QuotaFigures, type QuotaFiguresProvider } from './quotaCommon';

export const SHOW_QUOTA_USAGE_COMMAND = 'policySet.showQuotaUsage';

/** "Policy Set: Show Quota Usage...": E7 for a region, shown as a table with bars in a view. */
export async function showQuotaUsage(
  context: vscode.ExtensionContext,
  deps: ServiceCommandDeps,
  figures: QuotaFiguresProvider,
  given: { subscriptionId?: string; location?: string } = {},
): Promise<vscode.WebviewPanel | undefined> {
  if (!(await requireTrust())) return undefined;
  const service = await settingsOrExplain();
  if (!service) return undefined;
  let where;
  try {
    where = await askSubscriptionAndLocation(context, false, given);
  } catch (error) {
    void vscode.window.showErrorMessage(`Policy Set: ${(error as Error).message}`);
    return undefined;
  }
  if (!where?.location) return undefined;
  const location = where.location;
  const client = deploymentClientFor(service, deps);
  try {
    const listed = await withProgress(`Reading the quota usage of ${location}...`, (signal) =>
      client.listUsages(where.subscriptionId, location, { signal }),
    );
    deps.log?.info(`GET usages of ${location}: ${listed.value.length} entries in ${listed.pages} page${listed.pages === 1 ? '' : 's'}`);
    const answer = await figures({ usages: listed.value });
    const panel = vscode.window.createWebviewPanel('policySet.quotaUsage', `Quota: ${location}`, vscode.ViewColumn.Active, {
      enableScripts: false,
    });
    panel.webview.html = usageHtml(answer, location, where.subscriptionId, panel.webview.cspSource);
    return panel;
  } catch (error) {
    await showFailure('reading the quota usage failed', error, deps, service);
    return undefined;
  }
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The view: one row per model and deployment type, with a bar of the used share. No scripts. */
export function usageHtml(answer: QuotaFigures, location: string, subscriptionId: string, cspSource: string): string {
  const rows = answer.rows
    .map((r) => {
      const share = r.limitTpm > 0 ? Math.min(100, Math.round((100 * r.usedTpm) / r.limitTpm)) : 100;
      const level = share >= 90 ? 'full' : share >= 70 ? 'high' : 'ok';
      return `<tr><td>${escape(r.model)}</td><td>${escape(r.deploymentType)}</td><td class="n">${fmt(r.usedTpm)}</td><td class="n">${fmt(r.limitTpm)}</td><td class="n">${fmt(r.freeTpm)}</td>
<td><div class="bar" title="${share}% used"><div class="used ${level}" style="width:${share}%"></div></div></td><td class="n">${r.freeRpm === undefined ? '?' : fmt(r.freeRpm, 2)}</td></tr>`;
    })
    .join('\n');
  const accounts = answer.accounts
    ? `<p>Model-service resources in the region: ${answer.accounts.used} of ${answer.accounts.limit}</p>`
    : '';
  const unmatched = answer.unmatched.length
    ? `<p>Entries not read as &lt;Provider&gt;.&lt;DeploymentType&gt;.&lt;model&gt; with numbers: ${answer.unmatched.map(escape).join(', ')}</p>`
    : '';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>Quota usage</title>
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
table { border-collapse: collapse; } th, td { padding: 3px 10px; text-align: left; } td.n, th.n { text-align: right; }
.bar { width: 160px; height: 10px; background: var(--vscode-editorWidget-border, #8884); }
.used { height: 100%; } .ok { background: var(--vscode-charts-green, #3a3); } .high { background: var(--vscode-charts-yellow, #cc3); } .full { background: var(--vscode-charts-red, #c33); }
</style></head><body>
<h2>Quota usage in ${escape(location)}</h2>
<p>Subscription ${escape(subscriptionId)}. TPM per model and deployment type; the RPM column is what the free TPM would buy.</p>
<table id="quota-usage"><thead><tr><th>Model</th><th>Type</th><th class="n">Used TPM</th><th class="n">Limit TPM</th><th class="n">Free TPM</th><th>Used</th><th class="n">RPM free buys</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="7">No model entries.</td></tr>'}
</tbody></table>
${accounts}${unmatched}
</body></html>`;
}

import * as vscode from 'vscode';
import { ApiError, checkLocation, SUBSCRIPTION_ID_PATTERN, type UsageEntry } from '../api';
import { requireTrust, settingsOrExplain, withProgress, type ServiceCommandDeps } from './common';
import type { RegionRoom } from '#protocol';
import { askSubscriptionAndLocation, deploymentClientFor, fmt, recall, remember } from './quotaCommon';

export const FIND_REGION_COMMAND = 'policySet.findRegionWithQuota';

/** A region's answer, computed by the server (server/src/service/quota/where.ts). */
export type { RegionRoom };
export type RegionsWithRoomProvider = (params: {
  model: string;
  sku: string;
  tpm: number;
  reads: Array<{ location: string; value?: UsageEntry[]; error?: string }>;
}) => Promise<RegionRoom[]>;

export interface FindRegionArgs {
  subscriptionId: string;
  model: string;
  sku?: string;
  tpm: number;
  locations: string[];
}

const REGIONS_AT_ONCE = 3;

/**
 * "Policy Set: Find a Region with Quota...": reads the usage (E7) of each region asked (a few at a time) and
 * shows them sorted by free TPM with whether the TPM fits; a region whose read fails is shown with its error.
 */
export async function findRegionWithQuota(
  context: vscode.ExtensionContext,
  deps: ServiceCommandDeps,
  rooms: RegionsWithRoomProvider,
  given?: FindRegionArgs,
): Promise<{ rows: RegionRoom[]; panel: vscode.WebviewPanel } | undefined> {
  if (!(await requireTrust())) return undefined;
  const service = await settingsOrExplain();
  if (!service) return undefined;
  let args = given;
  if (args) {
    const problem = !SUBSCRIPTION_ID_PATTERN.test(args.subscriptionId)
      ? `'${args.subscriptionId}' is not a subscription id`
      : !(Number.isInteger(args.tpm / 1000) && args.tpm > 0)
        ? 'the TPM must be a positive multiple of 1,000'
        : args.locations.map(checkLocation).find((p) => p);
    if (problem) {
      void vscode.window.showErrorMessage(`Policy Set: ${problem}`);
      return undefined;
    }
  } else {
    const where = await askSubscriptionAndLocation(context, true);
    if (!where) return undefined;
    const last = recall(context);
    const model = (
      await vscode.window.showInputBox({
        title: 'Model',
        value: last.model ?? 'gpt-4o',
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'a model name'),
      })
    )?.trim();
    if (!model) return undefined;
    const tpmText = (
      await vscode.window.showInputBox({
        title: 'TPM needed',
        placeHolder: 'e.g. 150000',
        ignoreFocusOut: true,
        validateInput: (v) => (/^[1-9]\d*000$/.test(v.trim()) ? undefined : 'a positive multiple of 1,000'),
      })
    )?.trim();
    if (!tpmText) return undefined;
    const locationsText = (
      await vscode.window.showInputBox({
        title: 'Regions to look in (comma-separated)',
        value: where.location ?? 'eastus,westus,swedencentral',
        ignoreFocusOut: true,
        validateInput: (v) =>
          v
            .split(',')
            .map((l) => l.trim())
            .filter(Boolean)
            .map(checkLocation)
            .find((p) => p),
      })
    )?.trim();
    if (!locationsText) return undefined;
    await remember(context, { model });
    args = {
      subscriptionId: where.subscriptionId,
      model,
      tpm: Number(tpmText),
      locations: locationsText
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    };
  }
  const { subscriptionId, model, tpm } = args;
  const sku = args.sku ?? 'Standard';
  const locations = [...new Set(args.locations)];
  const client = deploymentClientFor(service, deps);
  const reads = await withProgress(
    `Reading the quota of ${locations.length} region${locations.length === 1 ? '' : 's'}...`,
    async (signal) => {
      const found: Array<{ location: string; value?: UsageEntry[]; error?: string }> = [];
      for (let i = 0; i < locations.length; i += REGIONS_AT_ONCE) {
        found.push(
          ...(await Promise.all(
            locations.slice(i, i + REGIONS_AT_ONCE).map(async (location) => {
              try {
                return { location, value: (await client.listUsages(subscriptionId, location, { signal })).value };
              } catch (error) {
                if (!(error instanceof ApiError)) throw error;
                deps.log?.warn(`usages of ${location}: ${error.message}`);
                return { location, error: error.message };
              }
            }),
          )),
        );
      }
      return found;
    },
  );
  const rows = await rooms({ model, sku, tpm, reads });
  const panel = vscode.window.createWebviewPanel('policySet.regionsWithRoom', `Room for ${model}`, vscode.ViewColumn.Active, {
    enableScripts: false,
  });
  panel.webview.html = roomHtml(rows, model, sku, tpm, panel.webview.cspSource);
  const fitting = rows.filter((r) => r.fits).map((r) => r.location);
  void vscode.window.showInformationMessage(
    fitting.length
      ? `Policy Set: ${fmt(tpm)} TPM of ${model} fits in ${fitting.join(', ')}.`
      : `Policy Set: ${fmt(tpm)} TPM of ${model} fits in none of ${locations.join(', ')}.`,
  );
  return { rows, panel };
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const n = (v: number | null) => (v === null ? '-' : fmt(v));

export function roomHtml(rows: RegionRoom[], model: string, sku: string, tpm: number, cspSource: string): string {
  const body = rows
    .map(
      (r) =>
        `<tr><td>${escape(r.location)}</td><td class="n">${n(r.limitTpm)}</td><td class="n">${n(r.usedTpm)}</td><td class="n">${n(r.freeTpm)}</td><td>${r.error !== undefined ? `error: ${escape(r.error)}` : r.fits ? 'fits' : `no: ${fmt(tpm - (r.freeTpm ?? 0))} TPM short`}</td></tr>`,
    )
    .join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>Regions with quota</title>
<style>body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); } table { border-collapse: collapse; } th, td { padding: 3px 10px; text-align: left; } td.n, th.n { text-align: right; }</style>
</head><body>
<h2>Room for ${fmt(tpm)} TPM of ${escape(model)} (${escape(sku)})</h2>
<table id="regions-with-room"><thead><tr><th>Region</th><th class="n">Limit TPM</th><th class="n">Used TPM</th><th class="n">Free TPM</th><th>Fits?</th></tr></thead>
<tbody>
${body}
</tbody></table>
</body></html>`;
}

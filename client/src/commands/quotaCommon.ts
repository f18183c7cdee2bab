import * as vscode from 'vscode';
import { ModelDeploymentClient, checkLocation, SUBSCRIPTION_ID_PATTERN, type ServiceSettings } from '../api';
import { clientOptions, type ServiceCommandDeps } from './common';
import type { QuotaFigures, QuotaFiguresParams } from '#protocol';

/** The figures the server computes for the quota commands (server/src/service/quota/figures.ts). */
export type { QuotaFigures, QuotaFiguresParams };

/** Asks the language server; the commands hold no quota logic of their own. */
export type QuotaFiguresProvider = (params: QuotaFiguresParams) => Promise<QuotaFigures>;

export function deploymentClientFor(service: ServiceSettings, deps: ServiceCommandDeps): ModelDeploymentClient {
  return new ModelDeploymentClient(service, clientOptions(service, deps));
}

export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** Remembered answers per workspace, so a second run asks with the last values filled in. */
const MEMORY_KEY = 'policySet.quota.last';
export interface QuotaMemory {
  subscriptionId?: string;
  location?: string;
  resourceGroupName?: string;
  accountName?: string;
  deploymentName?: string;
  model?: string;
  sku?: string;
}
export const recall = (context: vscode.ExtensionContext): QuotaMemory => context.workspaceState.get<QuotaMemory>(MEMORY_KEY) ?? {};
export const remember = (context: vscode.ExtensionContext, values: QuotaMemory): Thenable<void> =>
  context.workspaceState.update(MEMORY_KEY, { ...recall(context), ...values });

export async function askSubscriptionAndLocation(
  context: vscode.ExtensionContext,
  locationOptional = false,
  given: { subscriptionId?: string; location?: string } = {},
): Promise<{ subscriptionId: string; location?: string } | undefined> {
  // Answers given as the command's argument (scripts, keybindings, tests) are checked, not asked.
  if (given.subscriptionId !== undefined) {
    if (!SUBSCRIPTION_ID_PATTERN.test(given.subscriptionId)) throw new Error(`'${given.subscriptionId}' is not a subscription id`);
    const problem = given.location ? checkLocation(given.location) : locationOptional ? undefined : 'a region is needed';
    if (problem) throw new Error(problem);
    return { subscriptionId: given.subscriptionId, location: given.location || undefined };
  }
  const last = recall(context);
  const subscriptionId = (
    await vscode.window.showInputBox({
      title: 'Subscription id',
      value: last.subscriptionId ?? '',
      ignoreFocusOut: true,
      validateInput: (v) =>
        SUBSCRIPTION_ID_PATTERN.test(v.trim()) ? undefined : 'A subscription id is a GUID like 00000000-0000-0000-0000-000000000000',
    })
  )?.trim();
  if (!subscriptionId) return undefined;
  const location = (
    await vscode.window.showInputBox({
      title: locationOptional ? 'Region to check the quota in (empty: no check before the PUT)' : 'Region',
      value: last.location ?? '',
      ignoreFocusOut: true,
      validateInput: (v) => (locationOptional && !v.trim() ? undefined : checkLocation(v.trim())),
    })
  )?.trim();
  if (location === undefined || (!location && !locationOptional)) return undefined;
  await remember(context, { subscriptionId, location: location || last.location });
  return { subscriptionId, location: location || undefined };
}

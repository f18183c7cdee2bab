import * as vscode from 'vscode';
import { createAuth } from './auth';
import type { ServiceCommandDeps } from './common';
import { DEPLOY_COMMAND, deployVersion } from './deployVersion';
import { FETCH_COMMAND, fetchBuiltIn } from './fetchBuiltIn';
import { SIGN_IN_COMMAND, signIn } from './signIn';
import { SIGN_OUT_COMMAND, signOut } from './signOut';
import { AdvisorMetadataView, REFRESH_METADATA_COMMAND, SHOW_METADATA_COMMAND, showAdvisorMetadata } from './showAdvisorMetadata';
import { ITEM_SCHEME, ItemDocuments, OPEN_EVENTSTREAM_COMMAND, openEventstream } from './openEventstream';
import { DELETE_EVENTSTREAM_COMMAND, deleteEventstream } from './deleteEventstream';
import { SHOW_QUOTA_USAGE_COMMAND, showQuotaUsage } from './showQuotaUsage';
import { DEPLOY_MODEL_COMMAND, deployModel, type DeployModelArgs } from './deployModel';
import type { QuotaFiguresProvider } from './quotaCommon';
import { APPLY_DEPLOYMENT_PLAN_COMMAND, applyDeploymentPlan, type ApplyPlanProvider } from './applyDeploymentPlan';
import { FIND_REGION_COMMAND, findRegionWithQuota, type FindRegionArgs, type RegionsWithRoomProvider } from './findRegionWithQuota';

export { FETCH_COMMAND, DEPLOY_COMMAND, SIGN_IN_COMMAND, SIGN_OUT_COMMAND, ITEM_SCHEME, SHOW_QUOTA_USAGE_COMMAND, DEPLOY_MODEL_COMMAND };

/** Registers the commands that talk to the service (fetch, deploy, sign in, sign out, advisor metadata, eventstreams, quota and model deployments). */
export function registerServiceCommands(
  context: vscode.ExtensionContext,
  deps: Partial<ServiceCommandDeps> & {
    quotaFigures?: QuotaFiguresProvider;
    applyPlan?: ApplyPlanProvider;
    regionsWithRoom?: RegionsWithRoomProvider;
  } = {},
): void {
  const full: ServiceCommandDeps = { auth: deps.auth ?? createAuth(context), log: deps.log };
  context.subscriptions.push(
    vscode.commands.registerCommand(FETCH_COMMAND, (name?: unknown) => fetchBuiltIn(full, typeof name === 'string' ? name : undefined)),
    vscode.commands.registerCommand(DEPLOY_COMMAND, () => deployVersion(context, full)),
    vscode.commands.registerCommand(SIGN_IN_COMMAND, () => signIn(full)),
    vscode.commands.registerCommand(SIGN_OUT_COMMAND, () => signOut(full)),
  );
  registerItemCommands(context, full);
  registerQuotaCommands(context, full, deps.quotaFigures);
  registerPlanCommands(context, full, deps.applyPlan, deps.regionsWithRoom);
}

/** Plans as desired state and the search for a region with room; the reconciling is the language server's. */
function registerPlanCommands(
  context: vscode.ExtensionContext,
  deps: ServiceCommandDeps,
  applyPlan: ApplyPlanProvider | undefined,
  regionsWithRoom: RegionsWithRoomProvider | undefined,
): void {
  const noServer = () => Promise.reject(new Error('the language server is not running'));
  context.subscriptions.push(
    vscode.commands.registerCommand(APPLY_DEPLOYMENT_PLAN_COMMAND, (uri?: unknown) =>
      applyDeploymentPlan(deps, applyPlan ?? noServer, uri instanceof vscode.Uri ? uri : undefined),
    ),
    vscode.commands.registerCommand(FIND_REGION_COMMAND, (given?: FindRegionArgs) =>
      findRegionWithQuota(context, deps, regionsWithRoom ?? noServer, given),
    ),
  );
}

/** Advisor metadata (E3) and eventstreams (E4, E5): the view, the read-only item documents, their commands. */
function registerItemCommands(context: vscode.ExtensionContext, deps: ServiceCommandDeps): void {
  const view = new AdvisorMetadataView();
  const documents = new ItemDocuments();
  type Ids = { workspaceId?: unknown; eventstreamId?: unknown };
  context.subscriptions.push(
    view,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(ITEM_SCHEME, documents),
    vscode.commands.registerCommand(SHOW_METADATA_COMMAND, (options?: { filter?: unknown }) =>
      showAdvisorMetadata(deps, view, { filter: options?.filter }),
    ),
    vscode.commands.registerCommand(REFRESH_METADATA_COMMAND, () => showAdvisorMetadata(deps, view, { refresh: true })),
    vscode.commands.registerCommand(OPEN_EVENTSTREAM_COMMAND, (ids?: Ids) => openEventstream(context, deps, documents, ids)),
    vscode.commands.registerCommand(DELETE_EVENTSTREAM_COMMAND, (ids?: Ids) => deleteEventstream(context, deps, ids)),
  );
}

/** Model deployments and quota (E6, E7): the usage view and the create-or-resize command; figures come from the language server. */
function registerQuotaCommands(
  context: vscode.ExtensionContext,
  deps: ServiceCommandDeps,
  quotaFigures: QuotaFiguresProvider | undefined,
): void {
  const figures: QuotaFiguresProvider = quotaFigures ?? (() => Promise.reject(new Error('the language server is not running')));
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_QUOTA_USAGE_COMMAND, (given?: { subscriptionId?: string; location?: string }) =>
      showQuotaUsage(context, deps, figures, given ?? {}),
    ),
    vscode.commands.registerCommand(DEPLOY_MODEL_COMMAND, (given?: DeployModelArgs) => deployModel(context, deps, figures, given)),
  );
}

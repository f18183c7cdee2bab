import * as vscode from 'vscode';
import { parse as parseJsonc } from 'jsonc-parser';
import { checkScope, checkSetName, checkVersion, describeScope, versionToDeploy, type DeploymentScope } from '../api';
import { clientFor, openUntitled, requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';

export const DEPLOY_COMMAND = 'policySet.deployVersion';
/** The last scope, per workspace. */
const SCOPE_KEY = 'policySet.deploy.scope';

/** "Policy Set: Deploy Policy Set Definition Version...": E2 on the active document. */
export async function deployVersion(context: vscode.ExtensionContext, deps: ServiceCommandDeps): Promise<boolean> {
  if (!(await requireTrust())) return false;
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    await vscode.window.showErrorMessage('Policy Set: open the policy set definition to deploy first.');
    return false;
  }
  const document = editor.document;
  const errors = vscode.languages.getDiagnostics(document.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
  if (errors.length) {
    const first = errors[0];
    const choice = await vscode.window.showErrorMessage(
      `Policy Set: not deployed: the document has ${errors.length} error${errors.length === 1 ? '' : 's'}, first at line ${first.range.start.line + 1}: ${first.message}`,
      'Show Problems',
    );
    if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    return false;
  }
  const service = await settingsOrExplain();
  if (!service) return false;

  let found;
  try {
    found = versionToDeploy(parseJsonc(document.getText()));
  } catch (error) {
    await vscode.window.showErrorMessage(`Policy Set: not deployed: ${(error as Error).message}`);
    return false;
  }

  const remembered = context.workspaceState.get<DeploymentScope>(SCOPE_KEY);
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Subscription', scopeKind: 'subscription' as const, picked: remembered?.kind === 'subscription' },
      { label: 'Management group', scopeKind: 'managementGroup' as const, picked: remembered?.kind === 'managementGroup' },
    ].sort((a, b) => Number(b.picked) - Number(a.picked)),
    { title: 'Deploy to which scope?', ignoreFocusOut: true },
  );
  if (!picked) return false;
  const kind = picked.scopeKind;
  const id = await vscode.window.showInputBox({
    title: kind === 'subscription' ? 'Subscription id' : 'Management group id',
    value:
      remembered?.kind === 'subscription' && kind === 'subscription'
        ? remembered.subscriptionId
        : remembered?.kind === 'managementGroup' && kind === 'managementGroup'
          ? remembered.managementGroupId
          : '',
    ignoreFocusOut: true,
    validateInput: (value) =>
      checkScope(
        kind === 'subscription'
          ? { kind: 'subscription', subscriptionId: value.trim() }
          : { kind: 'managementGroup', managementGroupId: value.trim() },
      ),
  });
  if (!id) return false;
  const scope: DeploymentScope =
    kind === 'subscription'
      ? { kind: 'subscription', subscriptionId: id.trim() }
      : { kind: 'managementGroup', managementGroupId: id.trim() };
  await context.workspaceState.update(SCOPE_KEY, scope);

  const name = await vscode.window.showInputBox({
    title: 'Policy set definition name',
    value: found.name ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => checkSetName(v.trim()),
  });
  if (!name) return false;
  const version = await vscode.window.showInputBox({
    title: 'Version (#.#.#)',
    value: found.version ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => checkVersion(v.trim()),
  });
  if (!version) return false;

  const client = clientFor(service, deps);
  let url: string;
  try {
    url = client.versionUrl(scope, name.trim(), version.trim());
  } catch (error) {
    await showFailure('not deployed', error, deps);
    return false;
  }
  const confirm = await vscode.window.showWarningMessage(
    `Deploy version ${version.trim()} of '${name.trim()}' to ${describeScope(scope)}?`,
    {
      modal: true,
      detail: `PUT ${url}\n\nThe body is the document's properties, as in the editor now.${found.omitted.length ? `\n\nLeft out, because the service returns them and does not take them: ${found.omitted.join(', ')}.` : ''}`,
    },
    'Deploy',
  );
  if (confirm !== 'Deploy') return false;
  try {
    const properties = found.properties;
    const response = await withProgress(`Deploying version ${version.trim()} of '${name.trim()}'...`, (signal) =>
      client.createPolicySetDefinitionVersion(scope, name.trim(), version.trim(), properties, { signal }),
    );
    deps.log?.info(`PUT ${url}: ${response.status}${response.requestId ? ` (request id ${response.requestId})` : ''}`);
    const choice = await vscode.window.showInformationMessage(
      `Policy Set: ${response.status === 201 ? 'created' : 'updated'} version ${version.trim()} of '${name.trim()}' at ${describeScope(scope)}.`,
      'Open Result',
    );
    if (choice) await openUntitled(JSON.stringify(response.body, null, 2) + '\n');
    return true;
  } catch (error) {
    await showFailure('deploying failed', error, deps, service);
    return false;
  }
}

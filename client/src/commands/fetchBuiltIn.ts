import * as vscode from 'vscode';
import { EXPAND_VALUES, checkSetName, type ExpandValue } from '../api';
import { clientFor, openUntitled, requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';

export const FETCH_COMMAND = 'policySet.fetchBuiltIn';

/** "Policy Set: Fetch Built-in Policy Set Definition...": E1, opened as a new untitled document. */
export async function fetchBuiltIn(deps: ServiceCommandDeps, presetName?: string): Promise<vscode.TextDocument | undefined> {
  if (!(await requireTrust())) return undefined;
  const service = await settingsOrExplain();
  if (!service) return undefined;
  const name =
    presetName ??
    (await vscode.window.showInputBox({
      title: 'Fetch Built-in Policy Set Definition',
      prompt: 'Name of the built-in policy set definition (usually a GUID)',
      ignoreFocusOut: true,
      validateInput: (value) => (value ? checkSetName(value) : undefined),
    }));
  if (!name) return undefined;
  const nameProblem = checkSetName(name);
  if (nameProblem) {
    await vscode.window.showErrorMessage(`Policy Set: ${nameProblem}`);
    return undefined;
  }
  const picks = presetName
    ? []
    : await vscode.window.showQuickPick(
        EXPAND_VALUES.map((value) => ({
          label: value,
          description:
            value === 'LatestDefinitionVersion'
              ? 'latestDefinitionVersion of each reference'
              : 'effectiveDefinitionVersion of each reference',
        })),
        {
          title: '$expand (optional)',
          canPickMany: true,
          ignoreFocusOut: true,
          placeHolder: 'Fill these fields of each reference, or none',
        },
      );
  if (picks === undefined) return undefined;
  const expand = picks.map((p) => p.label as ExpandValue);
  const client = clientFor(service, deps);
  try {
    const response = await withProgress(`Fetching '${name}'...`, (signal) =>
      client.getBuiltInPolicySetDefinition(name, { expand, signal }),
    );
    deps.log?.info(`GET built-in '${name}': ${response.status}${response.requestId ? ` (request id ${response.requestId})` : ''}`);
    const editor = await openUntitled(JSON.stringify(response.body, null, 2) + '\n');
    void vscode.window
      .showInformationMessage(`Policy Set: fetched '${response.body.properties.displayName ?? name}'.`, 'Save As...')
      .then(async (choice) => {
        if (!choice) return;
        await vscode.window.showTextDocument(editor.document);
        await vscode.commands.executeCommand('workbench.action.files.saveAs');
      });
    return editor.document;
  } catch (error) {
    await showFailure(`fetching '${name}' failed`, error, deps, service);
    return undefined;
  }
}

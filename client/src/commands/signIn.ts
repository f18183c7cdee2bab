import * as vscode from 'vscode';
import { requireTrust, settingsOrExplain, showFailure, type ServiceCommandDeps } from './common';

export const SIGN_IN_COMMAND = 'policySet.signIn';

/** "Policy Set: Sign In": the VS Code provider first, then the implicit flow against {auth_url}. */
export async function signIn(deps: ServiceCommandDeps): Promise<boolean> {
  if (!(await requireTrust())) return false;
  const service = await settingsOrExplain();
  if (!service) return false;
  try {
    const ok = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Signing in...', cancellable: true },
      (_progress, token) => deps.auth.signIn(service, token),
    );
    if (ok) void vscode.window.showInformationMessage('Policy Set: signed in.');
    else
      void vscode.window.showErrorMessage(
        'Policy Set: not signed in. Set policySet.auth.providerId to a VS Code authentication provider, or policySet.service.authUrl and policySet.auth.clientId for the browser sign-in.',
      );
    return ok;
  } catch (error) {
    await showFailure('sign-in failed', error, deps);
    return false;
  }
}

import * as vscode from 'vscode';
import { settingsOrExplain, type ServiceCommandDeps } from './common';

export const SIGN_OUT_COMMAND = 'policySet.signOut';

/** "Policy Set: Sign Out": forgets the stored token. VS Code provider sessions are the Accounts menu's to end. */
export async function signOut(deps: ServiceCommandDeps): Promise<void> {
  const service = await settingsOrExplain();
  if (!service) return;
  await deps.auth.signOut(service);
  deps.log?.info('Signed out: the stored token was deleted.');
  void vscode.window.showInformationMessage(
    'Policy Set: signed out. Sessions of a VS Code authentication provider are ended from the Accounts menu.',
  );
}

import * as vscode from 'vscode';
import { ENV, resolveServiceSettings, type ServiceSettings } from '../api';

/**
 * The service settings of the editor (`policySet.service.*`), with the environment as a fallback; `needs`:
 * the address the command talks to (resource management, or workspace items for E4/E5).
 */
export function serviceSettings(needs: 'baseUrl' | 'itemsBaseUrl' = 'baseUrl'): ServiceSettings {
  const config = vscode.workspace.getConfiguration('policySet.service');
  return resolveServiceSettings(
    [
      {
        baseUrl: config.get<string>('baseUrl'),
        itemsBaseUrl: config.get<string>('itemsBaseUrl'),
        authUrl: config.get<string>('authUrl'),
        providerNamespace: config.get<string>('providerNamespace'),
      },
    ],
    process.env,
    `set policySet.service.baseUrl in the settings (or ${ENV.baseUrl} in the environment VS Code starts in)`,
    needs,
    `set policySet.service.itemsBaseUrl in the settings (or ${ENV.itemsBaseUrl} in the environment VS Code starts in)`,
  );
}

export interface AuthSettings {
  /** VS Code authentication provider id; '' means: use the implicit flow. */
  providerId: string;
  /** The resource whose `user_impersonation` scope is asked for; defaults to the service address. */
  resource: string;
  clientId: string;
  redirectPort: number;
  timeoutMs: number;
}

export function authSettings(service: ServiceSettings): AuthSettings {
  const config = vscode.workspace.getConfiguration('policySet.auth');
  return {
    providerId: config.get<string>('providerId', 'microsoft').trim(),
    resource: (config.get<string>('resource', '').trim() || service.baseUrl).replace(/\/+$/, ''),
    clientId: config.get<string>('clientId', '').trim(),
    redirectPort: config.get<number>('redirectPort', 0),
    timeoutMs: Math.max(1, vscode.workspace.getConfiguration('policySet.service').get<number>('timeoutSeconds', 60)) * 1000,
  };
}

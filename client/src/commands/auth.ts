import * as vscode from 'vscode';
import {
  AuthenticationRequiredError,
  eventstreamScopes,
  isExpired,
  signInWithImplicitFlow,
  type ImplicitFlowToken,
  type ServiceSettings,
  type TokenProvider,
} from '../api';
import { authSettings } from './settings';

/** Tokens of the implicit flow live only in SecretStorage, under this key (one per resource). */
const SECRET_PREFIX = 'policySet.implicitToken:';

export interface Auth {
  /**
   * A token provider for the api layer; asks the user to sign in when `interactive`. `scopes`: what to ask
   * the provider for (default: `<resource>/user_impersonation`, the scope of E1-E3).
   */
  tokenProvider(service: ServiceSettings, interactive: boolean, scopes?: readonly string[]): TokenProvider;
  signIn(service: ServiceSettings, token?: vscode.CancellationToken): Promise<boolean>;
  signOut(service: ServiceSettings): Promise<void>;
}

function scopeOf(resource: string): string {
  return `${resource}/user_impersonation`;
}

async function vscodeSession(
  providerId: string,
  scopes: readonly string[],
  createIfNone: boolean,
): Promise<vscode.AuthenticationSession | undefined> {
  try {
    return await vscode.authentication.getSession(providerId, scopes, createIfNone ? { createIfNone: true } : { silent: true });
  } catch (error) {
    // An unknown provider id throws; a refused sign-in too. Either way: no session from VS Code.
    const message = (error as Error)?.message ?? String(error);
    if (createIfNone && !/not.*(found|registered)|No authentication provider/i.test(message))
      throw new AuthenticationRequiredError(`Sign-in with '${providerId}' failed: ${message}`);
    return undefined;
  }
}

export function createAuth(context: vscode.ExtensionContext): Auth {
  const secretKey = (resource: string) => SECRET_PREFIX + resource;

  const storedToken = async (resource: string): Promise<ImplicitFlowToken | undefined> => {
    const text = await context.secrets.get(secretKey(resource));
    if (!text) return undefined;
    try {
      const token = JSON.parse(text) as ImplicitFlowToken;
      if (!isExpired(token)) return token;
    } catch {
      // unreadable: treated as absent
    }
    await context.secrets.delete(secretKey(resource));
    return undefined;
  };

  const implicitSignIn = async (
    service: ServiceSettings,
    scopes: readonly string[],
    key: string,
    cancel?: vscode.CancellationToken,
  ): Promise<ImplicitFlowToken | undefined> => {
    const auth = authSettings(service);
    if (!service.authUrl || !auth.clientId) return undefined;
    const controller = new AbortController();
    const subscription = cancel?.onCancellationRequested(() => controller.abort());
    try {
      const token = await signInWithImplicitFlow({
        authUrl: service.authUrl,
        clientId: auth.clientId,
        scope: scopes.join(' '),
        port: auth.redirectPort,
        signal: controller.signal,
        openBrowser: async (url) => {
          if (!(await vscode.env.openExternal(vscode.Uri.parse(url, true)))) throw new Error('The browser could not be opened for sign-in');
        },
      });
      await context.secrets.store(secretKey(key), JSON.stringify(token));
      return token;
    } finally {
      subscription?.dispose();
    }
  };

  const getToken = async (
    service: ServiceSettings,
    interactive: boolean,
    cancel?: vscode.CancellationToken,
    asked?: readonly string[],
  ): Promise<string | undefined> => {
    const auth = authSettings(service);
    const scopes = asked?.length ? asked : [scopeOf(auth.resource)];
    // Stored implicit-flow tokens: by resource for the default scope (as before), by scopes otherwise.
    const key = asked?.length ? scopes.join(' ') : auth.resource;
    if (auth.providerId) {
      const session = await vscodeSession(auth.providerId, scopes, false);
      if (session) return session.accessToken;
    }
    const stored = await storedToken(key);
    if (stored) return stored.accessToken;
    if (!interactive) return undefined;
    if (auth.providerId) {
      const session = await vscodeSession(auth.providerId, scopes, true);
      if (session) return session.accessToken;
    }
    return (await implicitSignIn(service, scopes, key, cancel))?.accessToken;
  };

  return {
    tokenProvider: (service, interactive, scopes) => (signal) => {
      const source = new vscode.CancellationTokenSource();
      signal.addEventListener('abort', () => source.cancel(), { once: true });
      return getToken(service, interactive, source.token, scopes).finally(() => source.dispose());
    },
    signIn: async (service, cancel) => !!(await getToken(service, true, cancel)),
    signOut: async (service) => {
      const auth = authSettings(service);
      await context.secrets.delete(secretKey(auth.resource));
      if (service.itemsBaseUrl)
        for (const access of ['read', 'write'] as const)
          await context.secrets.delete(secretKey(eventstreamScopes(service.itemsBaseUrl, access).join(' ')));
    },
  };
}

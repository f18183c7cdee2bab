// What the suites that talk to the local service share: whether the runner provides it, its admin
// endpoints, the test authentication provider, and the runner's page actions (what only a person can do:
// answer a dialog, type, read a notification), asked for with a console line (UI_REQUEST_PREFIX).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { poll, workspaceFile } from './helpers';
import {
  E2E_ACCOUNT,
  E2E_AUTH_PROVIDER,
  E2E_TOKEN,
  UI_ANSWERS_FOLDER,
  UI_REQUEST_PREFIX,
  type UiAnswer,
  type UiRequest,
} from './suiteNames';

/** A request the local service received (GET /_local/requests). */
export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
}

/**
 * Only under a runner that provides the local service and the page actions (runCodeServer.ts names the test
 * provider in the settings); e2e.test.ts fails when a suite reports fewer than its tests.
 */
export function runnerProvidesService(suiteName: string): boolean {
  const provides = vscode.workspace.getConfiguration('policySet.auth').get<string>('providerId') === E2E_AUTH_PROVIDER;
  if (!provides) console.log(`${suiteName}: not run, this runner provides no local service and no page actions (runCodeServer.ts does)`);
  return provides;
}

/** The local service's address, as the runner set it in the user settings. */
export function serviceUrl(setting: 'baseUrl' | 'itemsBaseUrl' = 'baseUrl'): string {
  const url = vscode.workspace.getConfiguration('policySet.service').get<string>(setting);
  if (!url) throw new Error(`the runner did not set policySet.service.${setting} (the local service)`);
  return url;
}

/** The local service's admin endpoints (no token; loopback only). */
export async function admin(method: 'GET' | 'POST' | 'DELETE', what: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${serviceUrl()}/_local/${what}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
  });
  if (!response.ok) throw new Error(`${method} /_local/${what}: ${response.status}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

export const requests = async (): Promise<Recorded[]> => (await admin('GET', 'requests')) as Recorded[];

/**
 * Registers the test authentication provider that policySet.auth.providerId names; every session holds the
 * test token. The scopes each call asked for are pushed to `askedScopes`.
 */
export function registerTestAuthProvider(askedScopes: string[][] = []): vscode.Disposable {
  const session = (scopes: readonly string[]): vscode.AuthenticationSession => ({
    id: 'e2e-session',
    accessToken: E2E_TOKEN,
    account: { id: 'e2e-user', label: E2E_ACCOUNT },
    scopes,
  });
  const changes = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  const registration = vscode.authentication.registerAuthenticationProvider(
    E2E_AUTH_PROVIDER,
    'Policy Set E2E',
    {
      onDidChangeSessions: changes.event,
      getSessions: (scopes) => {
        askedScopes.push([...(scopes ?? [])]);
        return Promise.resolve([session(scopes ?? [])]);
      },
      createSession: (scopes) => Promise.resolve(session(scopes)),
      removeSession: () => Promise.resolve(),
    },
    { supportsMultipleAccounts: false },
  );
  return vscode.Disposable.from(registration, changes);
}

let requestCount = 0;
type UiAsk = UiRequest extends infer R ? (R extends UiRequest ? Omit<R, 'id'> : never) : never;

/** Asks the runner to do something in the page; resolves with its answer (it writes a file in the workspace). */
export async function askRunner(request: UiAsk, timeoutMs = 70_000): Promise<UiAnswer> {
  const id = `${Date.now()}-${++requestCount}`;
  console.log(`${UI_REQUEST_PREFIX} ${Buffer.from(JSON.stringify({ ...request, id })).toString('base64')}`);
  const file = path.join(workspaceFile(UI_ANSWERS_FOLDER).fsPath, `${id}.json`);
  const answer = await poll(
    `the runner to do ${JSON.stringify(request)}`,
    () => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as UiAnswer) : undefined),
    timeoutMs,
  );
  if (!answer.ok) throw new Error(`the runner could not do ${JSON.stringify(request)}: ${answer.error}`);
  return answer;
}

/** The notification's text, read in the page; then all notifications are closed (which ends a command awaiting its message). */
export async function shownNotification(text: string): Promise<string> {
  // Under the smoke-test driver notifications go to the notification centre without a toast: open it.
  await vscode.commands.executeCommand('notifications.showList');
  const answer = await askRunner({ kind: 'readNotification', text });
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
  return answer.text ?? '';
}

/// <reference types="mocha" />
// Service commands in the browser: the extension's own commands, over fetch, against the local service that
// web.test.ts started (it answers CORS), signed in through a VS Code authentication provider registered here.
// The workspace's .vscode/settings.json (written by web.test.ts) names the service and the provider;
// web-test.json the built-in set to fetch.
import * as vscode from 'vscode';
import { PolicySetClient, fetchTransport, setDefaultTransport, NetworkError } from '#api';
import { fetchBuiltIn } from '#client/commands/fetchBuiltIn';
import type { Auth } from '#client/commands/auth';
import { WEB_AUTH_PROVIDER, WEB_TOKEN, type WebTestInfo } from './protocol';

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Gives the test's token as a session: what a real provider (Microsoft, GitHub) gives in vscode.dev. */
class TestAuthProvider implements vscode.AuthenticationProvider {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  private session(scopes: readonly string[]): vscode.AuthenticationSession {
    return { id: 'web-test', accessToken: WEB_TOKEN, account: { id: 'web-test', label: 'Web test' }, scopes };
  }
  getSessions(scopes?: readonly string[]) {
    return Promise.resolve([this.session(scopes ?? [])]);
  }
  createSession(scopes: readonly string[]) {
    return Promise.resolve(this.session(scopes));
  }
  removeSession() {
    return Promise.resolve();
  }
}

suite('web: service commands in the browser', () => {
  let info: WebTestInfo;
  let provider: vscode.Disposable;

  suiteSetup(async () => {
    provider = vscode.authentication.registerAuthenticationProvider(WEB_AUTH_PROVIDER, 'Policy Set web test', new TestAuthProvider());
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    info = JSON.parse(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'web-test.json'))),
    ) as WebTestInfo;
  });
  suiteTeardown(() => provider?.dispose());

  test('Fetch Built-in Policy Set Definition runs in the browser over fetch against the local service', async () => {
    // The command's own code (the same module the extension registers), signed in with the test's token: test
    // mode refuses the consent dialog a VS Code authentication provider asks for (see the next test).
    setDefaultTransport(fetchTransport());
    const auth: Auth = { tokenProvider: () => async () => WEB_TOKEN, signIn: async () => true, signOut: async () => undefined };
    const document = await fetchBuiltIn({ auth }, info.builtIn);
    check(document, 'the command opened a document (it returns none when it failed)');
    const set = JSON.parse(document.getText()) as { name?: string; properties?: { policyDefinitions?: unknown[] } };
    check(set.name === info.builtIn, `the fetched set is '${info.builtIn}' (got '${set.name}')`);
    check((set.properties?.policyDefinitions?.length ?? 0) > 0, 'it has its references');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test("the registered command signs in through VS Code's authentication provider", async () => {
    check(
      vscode.workspace.getConfiguration('policySet.service').get('baseUrl') === info.serviceUrl,
      `the workspace settings name the local service (${info.serviceUrl})`,
    );
    const shown: string[] = [];
    const window = vscode.window as { showErrorMessage: (...args: unknown[]) => Thenable<unknown> };
    const original = window.showErrorMessage;
    window.showErrorMessage = (...args: unknown[]) => {
      shown.push(String(args[0]));
      return original(...args);
    };
    try {
      const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('policySet.fetchBuiltIn', info.builtIn);
      // Under test, VS Code refuses the dialog in which the user would allow the extension to use the provider.
      check(document === undefined, 'no document without a session');
      check(
        shown.some((m) => m.includes(`Sign-in with '${WEB_AUTH_PROVIDER}'`)),
        `it asked the provider '${WEB_AUTH_PROVIDER}' and said why it stopped; shown: ${JSON.stringify(shown)}`,
      );
    } finally {
      window.showErrorMessage = original;
    }
  });

  test("a call the browser cannot make says so (CORS or unreachable), not 'Failed to fetch'", async () => {
    const client = new PolicySetClient(
      { baseUrl: info.closedUrl, providerNamespace: 'Provider' },
      { token: async () => WEB_TOKEN, timeoutMs: 10_000, transport: fetchTransport() },
    );
    let failure: unknown;
    try {
      await client.getBuiltInPolicySetDefinition(info.builtIn);
    } catch (error) {
      failure = error;
    }
    check(failure instanceof NetworkError, `a NetworkError (got ${String(failure)})`);
    check(
      /CORS/.test(failure.message) && /desktop extension and the policyset CLI/.test(failure.message),
      `it says what may be wrong and what can do it: ${failure.message}`,
    );
    check(!/Failed to fetch/i.test(failure.message), `not the browser's raw text: ${failure.message}`);
  });
});

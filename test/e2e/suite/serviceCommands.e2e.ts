// The service commands in the extension host, against the local service (test/fake-service, started by the runner
// on 127.0.0.1 and named in the user settings: policySet.service.baseUrl). Sign-in goes through VS Code's
// authentication API: this suite registers a test authentication provider, policySet.auth.providerId names
// it, and the consent dialog VS Code shows the first time is answered in the page by the runner, as a person
// would. What only a person can do (answer a dialog, type, close a notification) is asked of the runner with
// a console line (UI_REQUEST_PREFIX); everything else is checked here.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test, suiteSetup, suiteTeardown } from 'mocha';
import { codeOf, poll, waitForDiagnostic } from './helpers';
import { admin, askRunner, registerTestAuthProvider, requests, runnerProvidesService, serviceUrl, shownNotification } from './localService';
import { E2E_AUTH_PROVIDER, E2E_BUILT_IN, E2E_TOKEN, SERVICE_SUITE } from './suiteNames';

const NAME = E2E_BUILT_IN;

/** A command run without awaiting it: whether it has finished, and its result. */
function start<T>(command: string, ...args: unknown[]): { settled: () => boolean; result: Promise<T | undefined> } {
  let done = false;
  const result = Promise.resolve(vscode.commands.executeCommand<T>(command, ...args)).finally(() => (done = true));
  return { settled: () => done, result };
}

(runnerProvidesService(SERVICE_SUITE) ? suite : suite.skip)(SERVICE_SUITE, () => {
  let registration: vscode.Disposable | undefined;
  const askedScopes: string[][] = [];

  suiteSetup(() => {
    registration = registerTestAuthProvider(askedScopes);
    assert.equal(
      vscode.workspace.getConfiguration('policySet.auth').get('providerId'),
      E2E_AUTH_PROVIDER,
      'the runner names the test provider in the settings',
    );
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('policySet.service').update('timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    await admin('DELETE', 'faults').catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    registration?.dispose();
  });

  test("sign in through the VS Code authentication API: the test provider's session", async function () {
    this.timeout(60_000);
    const signedIn = await vscode.commands.executeCommand<boolean>('policySet.signIn');
    assert.equal(signedIn, true);
    assert.ok(
      askedScopes.some((s) => s.length === 1 && s[0] === `${serviceUrl()}/user_impersonation`),
      `the provider was asked for <resource>/user_impersonation; asked: ${JSON.stringify(askedScopes)}`,
    );
    assert.match(await shownNotification('signed in'), /Policy Set: signed in\./);
  });

  test('Fetch Built-in opens a new untitled policyset document with the set; one GET with the bearer token', async function () {
    this.timeout(60_000);
    await admin('DELETE', 'requests');
    const before = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('policySet.fetchBuiltIn', NAME);
    assert.ok(document, 'the command gives the opened document');
    assert.ok(!before.has(document.uri.toString()), 'a new document, not one that was open');
    assert.equal(document.isUntitled, true);
    assert.equal(document.languageId, 'policyset');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), document.uri.toString(), 'it is shown');
    const set = JSON.parse(document.getText()) as { name: string; properties: { policyDefinitions: unknown[] } };
    assert.equal(set.name, NAME);
    assert.ok(set.properties.policyDefinitions.length > 0);
    const seen = await requests();
    assert.equal(seen.length, 1);
    assert.equal(seen[0].method, 'GET');
    assert.equal(seen[0].path, `/providers/Provider.Authorization/policySetDefinitions/${NAME}`);
    assert.equal(seen[0].query['api-version'], '2025-11-01');
    assert.ok(seen[0].headers.authorization === `Bearer ${E2E_TOKEN}`, 'the session token of the test provider was sent');
    // The language server checks it like any policy set: no errors in a built-in set.
    await poll('diagnostics of the fetched set', () => vscode.languages.getDiagnostics(document.uri), 5_000);
  });

  test('a hung service: the editor takes input meanwhile, the fetch ends with an error message, no unsaved text is lost', async function () {
    this.timeout(90_000);
    await vscode.workspace.getConfiguration('policySet.service').update('timeoutSeconds', 8, vscode.ConfigurationTarget.Global);
    const original = 'Unsaved notes: keep me.\n';
    const draft = await vscode.workspace.openTextDocument({ language: 'plaintext', content: original });
    const editor = await vscode.window.showTextDocument(draft, { preview: false });
    assert.equal(draft.isDirty, true, 'an unsaved document');
    await admin('DELETE', 'requests');
    await admin('POST', 'faults', { mode: 'hang', method: 'GET', count: 1 });
    const fetchedDocuments = () => vscode.workspace.textDocuments.filter((d) => d.languageId === 'policyset' && d.isUntitled).length;
    const fetchedBefore = fetchedDocuments();

    const fetching = start<vscode.TextDocument>('policySet.fetchBuiltIn', NAME);
    await poll('the GET to reach the (hung) service', async () => ((await requests()).length === 1 ? true : undefined), 10_000);

    // Type into the unsaved document, with the keyboard, while the call hangs.
    await vscode.window.showTextDocument(draft, { preview: false });
    const end = draft.positionAt(draft.getText().length);
    editor.selection = new vscode.Selection(end, end);
    const typed = 'typed while fetching';
    await askRunner({ kind: 'type', text: typed });
    await poll('the typed text to reach the unsaved document', () => (draft.getText().includes(typed) ? true : undefined), 15_000);
    assert.equal(fetching.settled(), false, 'the fetch was still under way while the editor took the input');

    // The time limit ends the call; its error message is shown.
    const message = await shownNotification('No answer from the service');
    assert.match(
      message,
      new RegExp(
        `^Policy Set: fetching '${NAME}' failed: No answer from the service within 8 s \\(GET /providers/Provider\\.Authorization/policySetDefinitions/${NAME}\\)`,
      ),
    );
    const result = await Promise.race([fetching.result, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 45_000))]);
    assert.equal(result, undefined, 'the command ended without a document');

    assert.equal(draft.isClosed, false);
    assert.equal(draft.isDirty, true);
    assert.equal(draft.getText(), original + typed, 'the unsaved text is intact, with what was typed');
    assert.equal(fetchedDocuments(), fetchedBefore, 'no document was opened');
    assert.equal(
      vscode.window.activeTextEditor?.document.uri.toString(),
      draft.uri.toString(),
      'the unsaved document is still the active editor',
    );
    assert.equal((await requests()).length, 1, 'a GET that got no answer is not repeated past the time limit');

    // The editor is still usable: an edit through the API lands too.
    assert.ok(await editor.edit((e) => e.insert(draft.positionAt(draft.getText().length), '!')));
    assert.ok(draft.getText().endsWith(`${typed}!`));
  });

  test('a hung service: Cancel on the progress notification ends the fetch at once, quietly; the unsaved text is intact', async function () {
    this.timeout(60_000);
    await vscode.workspace.getConfiguration('policySet.service').update('timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    const original = 'More unsaved notes.\n';
    const draft = await vscode.workspace.openTextDocument({ language: 'plaintext', content: original });
    await vscode.window.showTextDocument(draft, { preview: false });
    await admin('DELETE', 'requests');
    await admin('POST', 'faults', { mode: 'hang', method: 'GET', count: 1 });
    const fetchedBefore = vscode.workspace.textDocuments.filter((d) => d.languageId === 'policyset' && d.isUntitled).length;

    const fetching = start<vscode.TextDocument>('policySet.fetchBuiltIn', NAME);
    await poll('the GET to reach the (hung) service', async () => ((await requests()).length === 1 ? true : undefined), 10_000);
    await vscode.commands.executeCommand('notifications.showList');
    const cancelled = Date.now();
    await askRunner({ kind: 'clickNotificationButton', text: `Fetching '${NAME}'`, button: 'Cancel' });
    const result = await Promise.race([fetching.result, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 15_000))]);
    // The time limit is the default 60 s: an end within seconds is the cancellation's.
    assert.equal(result, undefined, 'the command ended without a document, long before the 60 s limit');
    console.log(`# cancelled fetch ended ${Date.now() - cancelled} ms after the click was asked for`);
    await vscode.commands.executeCommand('notifications.hideList');
    assert.equal(draft.getText(), original);
    assert.equal(draft.isDirty, true);
    assert.equal(
      vscode.workspace.textDocuments.filter((d) => d.languageId === 'policyset' && d.isUntitled).length,
      fetchedBefore,
      'no document was opened',
    );
    assert.equal((await requests()).length, 1, 'nothing sent again after the cancellation');
  });

  test('Deploy refuses a document with errors: the message names them, nothing reaches the service', async function () {
    this.timeout(60_000);
    await admin('DELETE', 'requests');
    // A new document of its own (the fixtures' files are edited by other suites): a set with an undeclared group.
    const broken = {
      properties: {
        displayName: 'E2E: not deployable',
        policyType: 'Custom',
        policyDefinitionGroups: [{ name: 'Network' }],
        policyDefinitions: [
          {
            policyDefinitionReferenceId: 'ref1',
            policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d',
            groupNames: ['Monitoring'],
          },
        ],
      },
      name: 'e2e-not-deployable',
    };
    const document = await vscode.workspace.openTextDocument({ language: 'policyset', content: JSON.stringify(broken, null, 2) });
    await vscode.window.showTextDocument(document, { preview: false });
    const diagnostic = await waitForDiagnostic(document.uri, 'PS5001');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(codeOf(diagnostic), 'PS5001');
    const deploying = start<boolean>('policySet.deployVersion');
    assert.match(
      await shownNotification('not deployed'),
      /^Policy Set: not deployed: the document has 1 error, first at line \d+: Group 'Monitoring' is not declared/,
    );
    assert.equal(await deploying.result, false);
    assert.deepEqual(await requests(), [], 'no request reached the service');
  });
});

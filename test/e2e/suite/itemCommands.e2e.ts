// Advisor metadata (E3) and eventstreams (E4) in the extension host, against the local service the runner
// starts (policySet.service.baseUrl and .itemsBaseUrl both name it), signed in through a test authentication
// provider. The metadata command is run from the command palette by the runner, as a person would, and the
// view it fills is read and photographed in the page (METADATA_SCREENSHOT).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test, suiteSetup, suiteTeardown } from 'mocha';
import { admin, askRunner, registerTestAuthProvider, requests, runnerProvidesService, serviceUrl } from './localService';
import { poll, codeOf } from './helpers';
import { E2E_TOKEN, ITEMS_SUITE, METADATA_SCREENSHOT } from './suiteNames';

/** The local service's seed (test/fake-service/eventstreams.ts): a workspace and its eventstream. */
const WORKSPACE = 'a1b2c3d4-0001-4a5b-8c6d-000000000001';
const ORDERS = '5e7d1c2b-1111-4e2f-9a3b-0000000000a1';
/** An item the suite adds, with a folderId that is not a UUID: the workspace-item rules must say so. */
const BROKEN = '5e7d1c2b-9999-4e2f-9a3b-0000000000ff';

(runnerProvidesService(ITEMS_SUITE) ? suite : suite.skip)(ITEMS_SUITE, () => {
  let registration: vscode.Disposable | undefined;
  const askedScopes: string[][] = [];

  suiteSetup(() => {
    registration = registerTestAuthProvider(askedScopes);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    registration?.dispose();
  });

  test('Open Eventstream: a read-only workspace-item document with the item; one GET with the token for Eventstream.Read.All', async function () {
    this.timeout(60_000);
    await admin('DELETE', 'requests');
    const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('policySet.openEventstream', {
      workspaceId: WORKSPACE,
      eventstreamId: ORDERS,
    });
    assert.ok(document, 'the command gives the opened document');
    assert.equal(document.uri.scheme, 'policyset-item');
    assert.equal(document.languageId, 'policyset');
    assert.match(document.uri.path, /\/Orders stream\.json$/);
    const item = JSON.parse(document.getText()) as Record<string, unknown>;
    assert.deepEqual([item.id, item.workspaceId, item.displayName, item.type], [ORDERS, WORKSPACE, 'Orders stream', 'Eventstream']);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), document.uri.toString(), 'it is shown');
    const text = document.getText();
    // Read-only for a person: keys typed into its editor change nothing. Then keys typed into a draft arrive,
    // which shows the keystrokes were delivered (the draft's change comes after any change of the item's).
    await askRunner({ kind: 'type', text: 'typed into the item' });
    const draft = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
    await vscode.window.showTextDocument(draft, { preview: false });
    await askRunner({ kind: 'type', text: 'typed into the draft' });
    await poll(
      'the keys typed into the draft to arrive',
      () => (draft.getText().includes('typed into the draft') ? true : undefined),
      15_000,
    );
    assert.equal(document.getText(), text, 'the item document did not change');
    assert.equal(document.isDirty, false);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const seen = await requests();
    assert.deepEqual(
      seen.map((r) => `${r.method} ${r.path}`),
      [`GET /v1/workspaces/${WORKSPACE}/eventstreams/${ORDERS}`],
    );
    assert.ok(seen[0].headers.authorization === `Bearer ${E2E_TOKEN}`, 'the session token was sent');
    const origin = new URL(serviceUrl('itemsBaseUrl')).origin;
    assert.ok(
      askedScopes.some((s) => s.length === 1 && s[0] === `${origin}/Eventstream.Read.All`),
      `the provider was asked for the eventstream read scope; asked: ${JSON.stringify(askedScopes)}`,
    );
  });

  test('an opened eventstream is validated by the workspace-item rules: a folderId that is not a UUID is PS2007', async function () {
    this.timeout(60_000);
    await admin('POST', 'eventstreams', {
      id: BROKEN,
      workspaceId: WORKSPACE,
      folderId: 'not-a-uuid',
      displayName: 'Broken folder',
      type: 'Eventstream',
    });
    const broken = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('policySet.openEventstream', {
      workspaceId: WORKSPACE,
      eventstreamId: BROKEN,
    });
    assert.ok(broken);
    const diagnostic = await poll(
      'PS2007 on the opened item',
      () => vscode.languages.getDiagnostics(broken.uri).find((d) => codeOf(d) === 'PS2007'),
      20_000,
    );
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(broken.lineAt(diagnostic.range.start.line).text.includes('folderId'), true, diagnostic.message);
    // The well-formed one, opened before and checked by the same server, has no error.
    const good = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'policyset-item' && d.uri.path.includes(ORDERS));
    assert.ok(good, 'the first item is still open');
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(good.uri)
        .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
        .map((d) => d.message),
      [],
    );
  });

  test('Show Advisor Recommendation Metadata from the palette: all three pages in the view, grouped by entity (screenshot)', async function () {
    this.timeout(90_000);
    await admin('DELETE', 'requests');
    await askRunner({ kind: 'runCommand', title: 'Policy Set: Show Advisor Recommendation Metadata' });
    const pages = await poll(
      'the three metadata pages to be read',
      async () => {
        const seen = (await requests()).filter((r) => r.path === '/providers/Provider.Advisor/metadata');
        return seen.length >= 3 ? seen : undefined;
      },
      30_000,
    );
    assert.equal(pages.length, 3);
    assert.ok(pages.every((r) => r.query['api-version'] === '2025-01-01' && r.headers.authorization === `Bearer ${E2E_TOKEN}`));
    const answer = await askRunner({
      kind: 'screenshotView',
      view: 'Advisor Recommendation Metadata',
      text: 'Operational excellence',
      name: METADATA_SCREENSHOT,
    });
    const rows = answer.text ?? '';
    console.log(`# advisor metadata view rows:\n${rows}`);
    for (const expected of [
      'Recommendation Type — recommendationType · 6 values',
      'Category — recommendationCategory · 5 values',
      'Impact — recommendationImpact · 3 values',
      'Depends on: recommendationCategory, recommendationImpact',
      'Applicable scenarios: Alerts',
      'Reliability — HighAvailability',
      'Operational excellence — OperationalExcellence',
      'Use availability zones for better resiliency and availability — 3e35f804-52cb-4ebf-84d5-d15b3ab85dfd',
    ]) {
      assert.ok(rows.includes(expected), `the view shows '${expected}'; it shows:\n${rows}`);
    }
  });
});

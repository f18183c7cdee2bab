// The model-deployment commands in the extension host, against the local service's E6/E7 (an in-memory
// subscription seeded here through its admin endpoint): a deployment over the region's free quota is refused
// before anything is sent, and the usage view shows the region with bars. Signed in through a test
// authentication provider, as in the service suite; the runner reads the notification in the page.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test, suiteSetup, suiteTeardown } from 'mocha';
import { admin, askRunner, registerTestAuthProvider, requests, runnerProvidesService, shownNotification } from './localService';
import { E2E_TOKEN, MODEL_DEPLOYMENT_SUITE } from './suiteNames';

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const RG = 'rg-e2e';
const SEED = {
  accounts: [
    { subscriptionId: SUB, resourceGroup: RG, name: 'ai-east', location: 'eastus' },
    { subscriptionId: SUB, resourceGroup: RG, name: 'ai-east-2', location: 'eastus' },
  ],
  limits: [{ location: 'eastus', model: 'gpt-4o', limit: 100 }],
  deployments: [{ subscriptionId: SUB, resourceGroup: RG, account: 'ai-east-2', name: 'big', model: 'gpt-4o', capacity: 95 }],
};

(runnerProvidesService(MODEL_DEPLOYMENT_SUITE) ? suite : suite.skip)(MODEL_DEPLOYMENT_SUITE, () => {
  let registration: vscode.Disposable | undefined;

  suiteSetup(async () => {
    registration = registerTestAuthProvider();
    await admin('DELETE', 'quota');
    await admin('POST', 'quota', SEED);
  });

  suiteTeardown(async () => {
    await admin('DELETE', 'quota').catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    registration?.dispose();
  });

  test('Create or Resize Model Deployment over the free quota: refused with the free TPM, nothing sent but the two reads', async function () {
    this.timeout(90_000);
    await admin('DELETE', 'requests');
    const deploying = Promise.resolve(
      vscode.commands.executeCommand<boolean>('policySet.deployModel', {
        subscriptionId: SUB,
        location: 'eastus',
        resourceGroupName: RG,
        accountName: 'ai-east',
        deploymentName: 'chat',
        model: 'gpt-4o',
        sku: 'Standard',
        capacity: 20,
      }),
    );
    const message = await shownNotification('not deployed');
    assert.match(
      message,
      /^Policy Set: not deployed: 20,000 TPM asked, 5,000 TPM free of the region's 100,000 TPM quota for this model: 15,000 TPM short\./,
    );
    assert.match(message, /request a quota increase/);
    assert.equal(await deploying, false);
    const seen = await requests();
    assert.deepEqual(
      seen.map((r) => `${r.method} ${r.path}`),
      [
        `GET /subscriptions/${SUB}/resourceGroups/${RG}/providers/Provider.CognitiveServices/accounts/ai-east/deployments/chat`,
        `GET /subscriptions/${SUB}/providers/Provider.CognitiveServices/locations/eastus/usages`,
      ],
    );
    assert.ok(seen.every((r) => r.query['api-version'] === '2023-05-01' && r.headers.authorization === `Bearer ${E2E_TOKEN}`));
  });

  test('Show Quota Usage: a view with a row and a bar per model, not raw JSON', async function () {
    this.timeout(60_000);
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel | undefined>('policySet.showQuotaUsage', {
      subscriptionId: SUB,
      location: 'eastus',
    });
    assert.ok(panel, 'the view was opened');
    const html = panel.webview.html;
    assert.match(html, /<table id="quota-usage">/);
    assert.match(html, /<td>gpt-4o<\/td><td>Standard<\/td><td class="n">95,000<\/td><td class="n">100,000<\/td><td class="n">5,000<\/td>/);
    assert.match(html, /class="used full" style="width:95%"/);
    assert.match(html, /Model-service resources in the region: 2 of 30/);
    assert.ok(!html.includes('"currentValue"'), 'not the raw JSON');
    panel.dispose();
  });

  // The issue's scenario: eastus gpt-4o limit 100 with one deployment of 80; westus 300 with one of 100; swedencentral 50.
  const REGIONS_SEED = {
    accounts: [
      { subscriptionId: SUB, resourceGroup: RG, name: 'ai-east', location: 'eastus' },
      { subscriptionId: SUB, resourceGroup: RG, name: 'ai-west', location: 'westus' },
    ],
    limits: [
      { location: 'eastus', model: 'gpt-4o', limit: 100 },
      { location: 'westus', model: 'gpt-4o', limit: 300 },
      { location: 'swedencentral', model: 'gpt-4o', limit: 50 },
    ],
    deployments: [
      { subscriptionId: SUB, resourceGroup: RG, account: 'ai-east', name: 'chat', model: 'gpt-4o', version: '2024-08-06', capacity: 80 },
      { subscriptionId: SUB, resourceGroup: RG, account: 'ai-west', name: 'chat', model: 'gpt-4o', version: '2024-08-06', capacity: 100 },
    ],
  };

  test('Apply Deployment Plan: the open (unsaved) plan, one confirmation, exactly two PUTs with the shrink first', async function () {
    this.timeout(120_000);
    await admin('DELETE', 'quota');
    await admin('POST', 'quota', REGIONS_SEED);
    await admin('DELETE', 'requests');
    const entry = (account: string, region: string, name: string, capacity: number) => ({
      account,
      region,
      name,
      model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' },
      sku: { name: 'Standard', capacity },
    });
    const plan = {
      subscription: SUB,
      resourceGroup: RG,
      deployments: [
        entry('ai-east', 'eastus', 'chat-batch', 50),
        entry('ai-east', 'eastus', 'chat', 50),
        entry('ai-west', 'westus', 'chat', 100),
      ],
    };
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(plan, null, 2) });
    await vscode.window.showTextDocument(document, { preview: false });
    const applying = Promise.resolve(
      vscode.commands.executeCommand<{ applied: string[]; failed?: unknown; notSent: string[] }>(
        'policySet.applyDeploymentPlan',
        document.uri,
      ),
    );
    await vscode.commands.executeCommand('notifications.showList');
    await askRunner({
      kind: 'clickNotificationButton',
      text: 'send 2 PUTs in this order: ai-east/chat, ai-east/chat-batch',
      button: 'Apply 2 changes',
    });
    const outcome = await applying;
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    assert.deepEqual(outcome, { applied: ['ai-east/chat', 'ai-east/chat-batch'], notSent: [] });
    const puts = (await requests()).filter((r) => r.method === 'PUT');
    assert.deepEqual(
      puts.map((r) => r.path.split('/').slice(-3).join('/')),
      ['ai-east/deployments/chat', 'ai-east/deployments/chat-batch'],
      'exactly two PUTs, the shrink first; the unchanged westus deployment is not sent',
    );
    assert.ok(puts.every((r) => r.headers.authorization === `Bearer ${E2E_TOKEN}`));
  });

  test('Apply Deployment Plan refuses a plan over the quota with nothing sent but the reads', async function () {
    this.timeout(60_000);
    await admin('DELETE', 'requests');
    const plan = {
      subscription: SUB,
      resourceGroup: RG,
      region: 'eastus',
      deployments: [
        { account: 'ai-east', name: 'chat', model: 'gpt-4o', sku: { capacity: 50 } },
        { account: 'ai-east', name: 'chat-batch', model: 'gpt-4o', sku: { capacity: 80 } },
      ],
    };
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(plan, null, 2) });
    const outcome = await vscode.commands.executeCommand<{ refused?: string }>('policySet.applyDeploymentPlan', document.uri);
    assert.match(
      outcome.refused ?? '',
      /'gpt-4o' \(Standard\) in 'eastus': 130,000 TPM after the plan, over the 100,000 TPM quota by 30,000 TPM/,
    );
    assert.deepEqual(
      (await requests()).filter((r) => r.method !== 'GET'),
      [],
    );
  });

  test('Find a Region with Quota: for 150,000 TPM of gpt-4o only westus fits, with its 200,000 free TPM', async function () {
    this.timeout(60_000);
    const found = await vscode.commands.executeCommand<{
      rows: Array<{ location: string; freeTpm: number | null; fits: boolean }>;
      panel: vscode.WebviewPanel;
    }>('policySet.findRegionWithQuota', {
      subscriptionId: SUB,
      model: 'gpt-4o',
      tpm: 150_000,
      locations: ['eastus', 'westus', 'swedencentral'],
    });
    assert.deepEqual(
      found.rows.map((r) => [r.location, r.freeTpm, r.fits]),
      [
        ['westus', 200_000, true],
        ['swedencentral', 50_000, false],
        ['eastus', 0, false],
      ],
    );
    assert.match(
      found.panel.webview.html,
      /<td>westus<\/td><td class="n">300,000<\/td><td class="n">100,000<\/td><td class="n">200,000<\/td><td>fits<\/td>/,
    );
    found.panel.dispose();
  });
});

// Deployment plans through the real language server over stdio: the over-committed model's error on the
// line of the deployment that crosses the quota (usage from the file the plan names, and from the settings),
// hover on capacity, completion of model and sku names.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLanguageServer } from '../support/lspClient';
import { positionAt } from '../support/lspProcess';

interface Diagnostic {
  code: string;
  severity: number;
  message: string;
  range: { start: { line: number; character: number } };
  relatedInformation?: Array<{ location: { uri: string; range: { start: { line: number } } }; message: string }>;
}
interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const usage = (used: number) =>
  JSON.stringify({
    subscription: SUB,
    location: 'eastus',
    value: [{ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: used, limit: 100, unit: 'Count' }],
  });
const PLAN = (usageRef: string) => `{
  "subscription": "${SUB}",
  "region": "eastus",${usageRef}
  "deployments": [
    { "account": "ai-east", "name": "chat", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 6 } },
    { "account": "ai-east", "name": "chat-2", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 5 } }
  ]
}`;

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-lsp-quota-'));
  fs.writeFileSync(path.join(dir, 'usage-eastus.json'), usage(90));
  fs.writeFileSync(path.join(dir, 'usage-setting.json'), usage(95));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('deployment plans in the language server', () => {
  test("the plan's usage file: PS9103 on the line of the deployment that crosses the quota, the other related", async () => {
    const client = await startLanguageServer();
    const uri = pathToFileURL(path.join(dir, 'plan.json')).href;
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'json', version: 1, text: PLAN('\n  "usage": "usage-eastus.json",') },
    });
    const opened = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 1,
    );
    assert.deepEqual(
      opened.params.diagnostics.map((d) => [d.code, d.range.start.line, d.severity]),
      [['PS9103', 6, 1]],
    );
    assert.match(opened.params.diagnostics[0].message, /takes the plan to 11,000 TPM, over the 10,000 TPM free/);
    assert.deepEqual(
      opened.params.diagnostics[0].relatedInformation?.map((r) => r.location.range.start.line),
      [5],
    );
    // Lower the second deployment: the error goes.
    client.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: PLAN('\n  "usage": "usage-eastus.json",').replace('"capacity": 5', '"capacity": 4') }],
    });
    const changed = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 2,
    );
    assert.deepEqual(changed.params.diagnostics, []);
  });

  test('usage from the settings (policySet.quota.usageFiles); hover on capacity; completion of models and skus', async () => {
    const client = await startLanguageServer({
      initializationOptions: { policySet: { quota: { usageFiles: [path.join(dir, 'usage-setting.json')] } } },
    });
    const uri = pathToFileURL(path.join(dir, 'plan-settings.json')).href;
    const text = PLAN('');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
    const opened = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri);
    // 95 of 100 used: the first deployment (6) crosses already.
    assert.deepEqual(
      opened.params.diagnostics.map((d) => [d.code, d.range.start.line]),
      [['PS9103', 4]],
    );

    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: positionAt(text, text.indexOf('"capacity": 6') + 2),
    });
    assert.match(hover.result?.contents.value ?? '', /\| 6,000 \| 36 \| 0 \| 6 \|/);
    assert.match(hover.result?.contents.value ?? '', /1 unit = 6 RPM per 1,000 TPM/);

    const models = await client.request<{ items: Array<{ label: string }> }>('textDocument/completion', {
      textDocument: { uri },
      position: positionAt(text, text.indexOf('"gpt-4o"') + 2),
    });
    const modelLabels = models.result?.items.map((i) => i.label) ?? [];
    assert.ok(
      ['o1', 'o3-mini', 'gpt-35-turbo'].every((m) => modelLabels.includes(m)),
      modelLabels.join(','),
    );
    const skus = await client.request<{ items: Array<{ label: string }> }>('textDocument/completion', {
      textDocument: { uri },
      position: positionAt(text, text.indexOf('"Standard"') + 2),
    });
    assert.ok(skus.result?.items.some((i) => i.label === 'GlobalStandard'));
  });

  test('usage of another region: the not-checked warning (PS9105) on each entry it does not cover', async () => {
    const client = await startLanguageServer();
    fs.writeFileSync(path.join(dir, 'usage-westus.json'), usage(0).replace('"eastus"', '"westus"'));
    const uri = pathToFileURL(path.join(dir, 'plan-west.json')).href;
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'json', version: 1, text: PLAN('\n  "usage": "usage-westus.json",') },
    });
    const opened = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 1,
    );
    assert.deepEqual(
      opened.params.diagnostics.map((d) => [d.code, d.range.start.line, d.severity]),
      [
        ['PS9105', 5, 2],
        ['PS9105', 6, 2],
      ],
    );
    assert.match(
      opened.params.diagnostics[0].message,
      /not checked for this deployment: no usage of subscription .* in 'eastus': the usage given is for 'westus'/,
    );
  });

  test('hover on a capacity under one request per 10 s: the window that applies (5 RPM: one request every 12 s)', async () => {
    const client = await startLanguageServer();
    const uri = pathToFileURL(path.join(dir, 'o3-body.json')).href;
    const text = '{ "sku": { "name": "Standard", "capacity": 5 }, "properties": { "model": { "format": "OpenAI", "name": "o3" } } }';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: positionAt(text, text.indexOf('"capacity": 5') + 2),
    });
    assert.match(hover.result?.contents.value ?? '', /the window that applies: \*\*5 RPM: one request every 12 s\*\*/);
  });
});

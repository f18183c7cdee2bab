// One view of a plan (issue 31): once model apply has applied a plan, quota plan over freshly saved usage
// must agree ("nothing to do" there, no quota crossed here). The usage counts the applied deployments; saved
// with --plan, it lists them, and quota plan counts each entry that restates one only for the difference.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, type RunResult } from '../support/run';
import { REPO_ROOT } from '../support/corpus';
import { startLocalService, type LocalService } from '../fake-service/localService';
import type { QuotaSeed } from '../fake-service/modelDeployments';

const TOKEN = 'TOKEN-quota-agree-81d2';
const SUB = '00000000-0000-0000-0000-000000000000';
const SEED = path.join(REPO_ROOT, 'test/fake-service/seed-quota/demo-regions.json');
/** eastus: gpt-4o limit 100; the plan takes 50 + 40 = 90 of it (80 held before, by `chat`). */
const PLAN = {
  subscription: SUB,
  resourceGroup: 'rg-demo',
  region: 'eastus',
  account: 'ai-demo-east',
  deployments: [
    { name: 'chat', model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' }, sku: { name: 'Standard', capacity: 50 } },
    { name: 'chat-batch', model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' }, sku: { name: 'Standard', capacity: 40 } },
  ],
};

let dir: string;
let service: LocalService;
const cli = (args: string[], service?: LocalService): Promise<RunResult> =>
  runCli([...args, ...(service ? ['--base-url', service.url] : [])], {
    cwd: dir,
    env: { ...process.env, POLICYSET_ACCESS_TOKEN: TOKEN },
    timeoutMs: 60_000,
  });

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-quota-agree-'));
  fs.writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(PLAN, null, 2));
  service = await startLocalService({ quota: JSON.parse(fs.readFileSync(SEED, 'utf8')) as QuotaSeed });
});
after(async () => {
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('quota plan and model apply agree after an apply', () => {
  test('applied; then apply says nothing to do, and quota plan over usage saved with --plan finds no quota crossed', async () => {
    const applied = await cli(['model', 'apply', 'plan.json', '--yes'], service);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    const again = await cli(['model', 'apply', 'plan.json', '--dry-run'], service);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Nothing to do: every deployment is as the plan says/);

    // Usage alone counts the applied 90 of 100 as used: the plan's 90 again would not fit (the disagreement).
    const bare = await cli(
      ['quota', 'usage', '--subscription', SUB, '--location', 'eastus', '--format', 'json', '-o', 'usage-bare.json'],
      service,
    );
    assert.equal(bare.code, 0, bare.stderr);
    const disagree = await cli(['quota', 'plan', 'plan.json', '--usage', 'usage-bare.json']);
    assert.equal(disagree.code, 1, disagree.stdout);
    assert.match(disagree.stdout, /PS9103/);

    // Saved with --plan: the plan's deployments that exist are beside the usage, and quota plan agrees.
    const saved = await cli(
      ['quota', 'usage', '--subscription', SUB, '--location', 'eastus', '--format', 'json', '--plan', 'plan.json', '-o', 'usage.json'],
      service,
    );
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stderr, /2 of the plan's 2 deployments in eastus exist/);
    const usage = JSON.parse(fs.readFileSync(path.join(dir, 'usage.json'), 'utf8'));
    assert.deepEqual(
      usage.deployments.map((d: { name: string; capacity: number }) => `${d.name} ${d.capacity}`),
      ['chat 50', 'chat-batch 40'],
    );
    const agree = await cli(['quota', 'plan', 'plan.json', '--usage', 'usage.json', '--format', 'json']);
    assert.equal(agree.code, 0, agree.stdout);
    const report = JSON.parse(agree.stdout);
    assert.deepEqual(
      report.diagnostics.filter((d: { code: string }) => d.code === 'PS9103'),
      [],
    );
    assert.deepEqual(
      report.deployments.map((d: { existing?: number; existingFrom?: string }) => [d.existing, d.existingFrom]),
      [
        [50, 'usage'],
        [40, 'usage'],
      ],
    );
  });

  test('an entry that grows past the quota is still found over the saved deployments (only the difference is counted)', async () => {
    const grown = structuredClone(PLAN);
    grown.deployments[1].sku.capacity = 51; // 50 + 51 = 101 of 100; the usage holds 90 of them already
    fs.writeFileSync(path.join(dir, 'grown.json'), JSON.stringify(grown, null, 2));
    const result = await cli(['quota', 'plan', 'grown.json', '--usage', 'usage.json']);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stdout, /PS9103/);
    const apply = await cli(['model', 'apply', 'grown.json', '--dry-run'], service);
    assert.equal(apply.code, 1, apply.stdout);
  });
});

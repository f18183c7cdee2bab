import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SUBSET } from '../support/corpus';
import { startLocalService, parseFault, FAULT_MODES } from './localService';
import type { QuotaSeed } from './modelDeployments';

const USAGE = `Usage: npm run service:local -- [--port <n>] [--namespace Provider] [--token <t>] [--fault <mode>[:retryAfter][x<count>][@GET|@PUT|@DELETE]]...
                              [--quota <seed.json>] [--quiet]

A local service on 127.0.0.1 implementing E1 and E2 (policy sets), E3 (advisor metadata), E4/E5 (eventstreams,
under /v1/: use the same address as the items base URL) and E6/E7 (model deployments, quota usage) for tests
and demos. Fault modes: ${FAULT_MODES.join(', ')}.
Faults can also be set while it runs: POST /_local/faults {"mode":"429","retryAfter":2,"count":1}; DELETE /_local/faults.
Requests received: GET /_local/requests. E6/E7 (model deployments, quota usage) run over an in-memory subscription:
--quota <file> seeds it ({ accounts, limits, deployments, defaultLimit, pageSize }), as POST /_local/quota does.
Built-in sets (E1): the public cloud's sets of the full corpus (POLICYSET_CORPUS, or ../shared/corpus beside the
checkout), else of the corpus subset in test/fixtures/corpus, and two seed sets (test/fake-service/seed).
Environment: POLICYSET_CORPUS, POLICYSET_LOCAL_PORT, POLICYSET_LOCAL_FAULTS (comma-separated).
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.POLICYSET_LOCAL_PORT ?? '0' },
      namespace: { type: 'string', default: 'Provider' },
      token: { type: 'string' },
      fault: { type: 'string', multiple: true, default: [] },
      quota: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port takes 0 to 65535, not '${values.port}'`);
  const faultTexts = [...(values.fault as string[]), ...(process.env.POLICYSET_LOCAL_FAULTS ?? '').split(',').filter((s) => s.trim())];
  const service = await startLocalService({
    port,
    providerNamespace: values.namespace as string,
    token: values.token as string | undefined,
    faults: faultTexts.map(parseFault),
    quota: values.quota ? (JSON.parse(fs.readFileSync(values.quota as string, 'utf8')) as QuotaSeed) : undefined,
    log: values.quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
  });
  const { source } = service;
  const which =
    source.kind === 'corpus'
      ? `${source.corpusCount} of the public cloud's built-in sets from ${path.relative(process.cwd(), source.corpusDir) || '.'}${source.corpusDir === SUBSET.dir ? ' (the corpus subset; POLICYSET_CORPUS names the full corpus)' : ''} and ${source.count - source.corpusCount} from the seed`
      : `${source.count} built-in sets from the seed`;
  process.stdout.write(`Local policy service listening on ${service.url} (${which})\n`);
  const workspaces = new Set([...service.eventstreams.items.values()].map((i) => i.workspaceId));
  process.stdout.write(
    `  advisor metadata at /providers/${values.namespace as string}.Advisor/metadata; ${service.eventstreams.items.size} eventstreams in ${workspaces.size} workspaces under /v1/workspaces/\n`,
  );
  for (const item of service.eventstreams.items.values())
    process.stdout.write(`    ${item.workspaceId} ${item.id} ${String(item.displayName)}\n`);
  process.stdout.write(
    `  model deployments and quota usage under /subscriptions/<id>/: ${service.quota.accounts.size} accounts, ${service.quota.deployments.size} deployments (seed with --quota or POST /_local/quota)\n`,
  );
  const stop = () => void service.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`service:local: ${error.message}\n`);
  process.exit(2);
});

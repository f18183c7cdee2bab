// npm run bench: the share of built-in policy definitions the offline evaluator decides (no `unknown`) on a
// minimal resource of their own type, and the reasons of the rest, grouped. The shared corpus holds only the
// definitions' index (no policy rules), so the definitions are read from POLICYSET_BUILTIN_DEFINITIONS (a
// folder such as a checkout's built-in-policies/policyDefinitions) when it is set, else from the examples.
// No assertions: figures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { aliasCatalogue, evaluate, type JsonObject } from '#server/service/evaluate/index';
import { FULL_CORPUS, listJsonFiles, REPO_ROOT } from '../support/corpus';
import { minimalResourceFor, benchParameters } from './evaluateResource';

const folder = process.env.POLICYSET_BUILTIN_DEFINITIONS ?? path.join(REPO_ROOT, 'examples', 'definitions');
if (!process.env.POLICYSET_BUILTIN_DEFINITIONS) {
  process.stdout.write(
    `evaluate: POLICYSET_BUILTIN_DEFINITIONS is not set (the shared corpus${FULL_CORPUS ? ' beside the checkout' : ''} has the definitions' index only, no rules): measuring examples/definitions\n`,
  );
}
const files = listJsonFiles(folder);
// POLICYSET_ALIASES: an alias catalogue (the service's alias list export, or { alias: path }) to resolve aliases with.
const aliases = process.env.POLICYSET_ALIASES
  ? aliasCatalogue(JSON.parse(fs.readFileSync(process.env.POLICYSET_ALIASES, 'utf8')))
  : undefined;
let decided = 0;
let manual = 0;
let total = 0;
const outcomes = new Map<string, number>();
const reasons = new Map<string, number>();
for (const file of files) {
  let document: JsonObject;
  try {
    document = JSON.parse(fs.readFileSync(file, 'utf8')) as JsonObject;
  } catch {
    continue;
  }
  const properties = document.properties as JsonObject | undefined;
  if (!properties || typeof properties !== 'object' || !properties.policyRule) continue;
  total++;
  const resource = minimalResourceFor(properties);
  const [result] = evaluate(
    {
      target: document,
      findDefinition: () => undefined,
      assignment: { properties: { parameters: benchParameters(properties) } },
      context: {
        aliases,
        now: '2026-01-01T00:00:00Z',
        relatedResources: [],
        apiVersion: '2023-01-01',
        subscription: {
          subscriptionId: '00000000-0000-0000-0000-000000000000',
          id: '/subscriptions/00000000-0000-0000-0000-000000000000',
          displayName: 'example',
          tenantId: '00000000-0000-0000-0000-000000000000',
          tags: {},
        },
        resourceGroup: {
          name: 'rg',
          location: 'westeurope',
          id: '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg',
          type: 'Microsoft.Resources/resourceGroups',
          managedBy: null,
          tags: {},
          properties: {},
        },
      },
    },
    resource,
  );
  outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
  if (result.awaitingAttestation) manual++;
  if (result.outcome === 'unknown') {
    const reason = (result.reason ?? 'no reason').replace(/'[^']*'/g, "'…'");
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  } else decided++;
}
const share = total ? ((100 * decided) / total).toFixed(1) : '0';
process.stdout.write(
  `evaluate: ${decided} of ${total} definitions from ${path.relative(process.cwd(), folder) || folder} decided on a minimal resource of their type (${share}%), ${aliases ? `with a catalogue of ${aliases.size} aliases, then the bundled one and the mechanical rule` : 'aliases by the bundled catalogue, then the mechanical rule'}\n`,
);
process.stdout.write(
  `  of the unknown, ${manual} are manual definitions whose documented default state is Unknown (an attestation decides): with them, ${total ? ((100 * (decided + manual)) / total).toFixed(1) : '0'}% have the outcome the service documents\n`,
);
process.stdout.write(`  outcomes: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 25))
  process.stdout.write(`  ${String(n).padStart(5)}  ${reason}\n`);

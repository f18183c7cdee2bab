import { parseArgs } from 'node:util';
import {
  DEFAULT_MODEL_FORMAT,
  putOutcome,
  readDeploymentState,
  redact,
  safeText,
  type DeploymentTarget,
  type ModelDeploymentClient,
} from '#api';
import { parseJson } from '../../service/json';
import {
  applyRows,
  applySummary,
  applyTargets,
  deployedSpec,
  readPlan,
  reconcile,
  type ApplyTarget,
  type ReconcileEntry,
  type Reconciliation,
  type RegionUsage,
  type Usage,
} from '../../service/quota';
import { InputError, readBytes, UsageError } from '../../node/files';
import { confirm, reportApiError, serviceContext, serviceOptions, SERVICE_OPTIONS_USAGE } from '../options/serviceOptions';
import { capacityTable, CAPACITY_UNITS_USAGE, fmt, modelDeploymentClient } from '../options/quotaOptions';
import { mapLimit } from '../concurrency';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset model apply <plan file> [--dry-run] [--yes] [--format text|json]
                           [--capacity-units <file>] [service options]

Makes the subscription match a deployment plan (its entries are the deployments as they should be). Reads
each entry's deployment (a GET on its path; 404: it does not exist yet) and the usage (E7) of every
subscription and region the plan touches, a few at a time; classifies each entry as create, resize
(capacity, model, the named version or the deployment type differ) or unchanged (never sent); checks the
end state against every quota it touches (used now - what the changed entries free + what they take
<= limit) and the 30 resources per region, and refuses a plan that does not fit with nothing sent,
naming each quota it crosses, by how much, and the entries that draw on it. Orders the PUTs so that
every intermediate state fits (shrinks and moves away from a model first, then grows and creates), or
says that no order does. Shows the table, asks once (or --yes), and sends one PUT per changed entry in
that order; stops at the first failed PUT and reports what was applied, what was not, and what is
unknown (a PUT that may have been applied is never sent again).

An entry names its region, or the plan's "region" applies; every deployment of an account is in the
account's region. "existing" in an entry is for offline checks (quota plan) and is ignored here.

Examples:
  policyset model apply deployments.deployment-plan.json --dry-run
  policyset model apply deployments.deployment-plan.json --yes --format json

      --dry-run                 Read and check only: send nothing (exit 0 when the plan fits, 1 when not)
  -y, --yes                     Apply without asking
      --format text|json        json: { actions, quotas, order, applied?, failed?, unknown?, notSent? }
${CAPACITY_UNITS_USAGE}
${SERVICE_OPTIONS_USAGE}
Exit status: 0 all applied (or nothing to do, or a dry run that fits), 1 refused (does not fit, no order,
not confirmed), 2 failures (a PUT failed or its outcome is unknown; usage, input, sign-in or read problems).
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = {
  0: 'all applied (or nothing to do, or a dry run that fits)',
  1: 'refused (does not fit, no order, not confirmed)',
  2: 'failures (a PUT failed or its outcome is unknown; usage, input, sign-in or read problems)',
};

/** Reads (GETs, usages) in flight at once: a few, not a burst. */
const READS_AT_ONCE = 4;

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      'dry-run': { type: 'boolean', default: false },
      yes: { type: 'boolean', short: 'y', default: false },
      format: { type: 'string', default: 'text' },
      'capacity-units': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('model apply takes one plan file');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const file = positionals[0];
  const table = capacityTable(values['capacity-units']);
  const text = Buffer.from(await readBytes(file, 'plan'))
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const parsed = parseJson(text);
  if (parsed.syntaxErrors.length || parsed.tooLarge || parsed.tooDeep)
    throw new InputError(
      `${file} could not be read as a plan (${parsed.syntaxErrors.length ? `${parsed.syntaxErrors.length} syntax error${parsed.syntaxErrors.length === 1 ? '' : 's'}` : 'too large or too deeply nested'}): run policyset quota plan ${file} to see where`,
    );
  const plan = readPlan(parsed.root);
  if (!plan.deployments.length || plan.lone)
    throw new InputError(`${file} is not a deployment plan ({ "deployments": [...] }); model deploy sends a single deployment`);
  const { targets, problems } = applyTargets(plan);
  if (problems.length) throw new InputError(`${file}: ${problems.join('; ')}`);

  const context = serviceContext(values, env);
  const client = modelDeploymentClient(context);
  const targetOf = (t: ApplyTarget): DeploymentTarget => ({
    subscriptionId: t.subscription,
    resourceGroupName: t.resourceGroup,
    accountName: t.account,
    deploymentName: t.name,
  });
  const regions = [
    ...new Map(
      targets.map((t) => [`${t.subscription}|${t.region}`.toLowerCase(), { subscription: t.subscription, region: t.region }]),
    ).values(),
  ];
  try {
    for (const t of targets) client.deploymentPath(targetOf(t));
    for (const r of regions) client.usagesPath(r.subscription, r.region);
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
  const say = (line: string) => process.stderr.write(`policyset: ${redact(line, context.secrets)}\n`);

  // Reads only, before anything is sent.
  let entries: ReconcileEntry[];
  let usages: RegionUsage[];
  try {
    entries = await mapLimit(targets, READS_AT_ONCE, async (t) => {
      const state = await readDeploymentState(client, targetOf(t));
      const current = state.deployment ? deployedSpec(state.deployment) : undefined;
      if (state.deployment && !current)
        throw new InputError(
          `the service's answer for ${t.account}/${t.name} has no model name or capacity: cannot tell what would change; nothing sent`,
        );
      return { ...t, current, accountIsNew: state.accountMissing };
    });
    usages = await mapLimit(regions, READS_AT_ONCE, async (r) => ({
      ...r,
      value: (await client.listUsages(r.subscription, r.region)).value as Usage[],
    }));
  } catch (error) {
    if (error instanceof InputError) throw error;
    say('nothing sent: a read failed');
    return reportApiError(error, context.secrets);
  }

  const rec = reconcile(entries, usages);
  const summary = applySummary(rec);
  const json = values.format === 'json';
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (!json) for (const line of reportLines(file, rec, table)) out(line);
  const finish = (extra: Record<string, unknown>, status: number) => {
    if (json) out(JSON.stringify({ ...summary, ...extra }, null, 2));
    return status;
  };

  if (!rec.fits) {
    if (!json) out(['', 'Refused: the plan does not fit; nothing was sent.', ...rec.problems.map((p) => `  - ${p}`)].join('\n'));
    return finish({ refused: true }, 1);
  }
  if (!rec.order) {
    if (!json) out(`\nRefused: ${rec.noOrder}; nothing was sent.`);
    return finish({ refused: true }, 1);
  }
  if (!rec.order.length) {
    if (!json) out('\nNothing to do: every deployment is as the plan says.');
    return finish({ applied: [] }, 0);
  }
  if (values['dry-run']) {
    if (!json) out('\nDry run: nothing was sent.');
    return finish({ dryRun: true }, 0);
  }
  if (
    !(await confirm(
      `Send ${rec.order.length} PUT${rec.order.length === 1 ? '' : 's'} in this order?`,
      values.yes as boolean,
      'nothing was sent',
    ))
  )
    return finish({ confirmed: false }, 1);
  // Ctrl-C while the PUTs go: say what was applied, what may have been (the PUT in flight), what was not sent.
  const progress: SendProgress = { applied: [], order: rec.order };
  const onInterrupt = () => {
    const summary = interruptedSummary(progress);
    if (json) out(JSON.stringify({ ...applySummary(rec), interrupted: true, ...summary }, null, 2));
    else {
      out('');
      out('Interrupted (Ctrl-C):');
      for (const key of summary.applied) out(`applied   ${key}`);
      for (const key of summary.unknown)
        out(`UNKNOWN   ${key}: its PUT was sent and not answered; it may have been applied and is not sent again`);
      for (const key of summary.notSent) out(`not sent  ${key}`);
      if (summary.unknown.length) out(`Read it (policyset model apply ${file} --dry-run) before applying again.`);
    }
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  let outcome: SendOutcome;
  try {
    outcome = await sendInOrder(client, rec, targetOf, say, progress);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
  if (!json) {
    out('');
    for (const key of outcome.applied) out(`applied   ${key}`);
    if (outcome.failed)
      out(
        `${outcome.failed.outcome === 'unknown' ? 'UNKNOWN ' : 'failed  '}  ${outcome.failed.key}: ${redact(outcome.failed.message, context.secrets)}`,
      );
    for (const key of outcome.notSent) out(`not sent  ${key}`);
    if (outcome.failed?.outcome === 'unknown')
      out(
        `The PUT of ${outcome.failed.key} may have been applied: it is not sent again. Read it (policyset model apply ${file} --dry-run) before applying again.`,
      );
  }
  return finish(
    {
      applied: outcome.applied,
      ...(outcome.failed ? { failed: { ...outcome.failed, message: redact(outcome.failed.message, context.secrets) } } : {}),
      ...(outcome.notSent.length ? { notSent: outcome.notSent } : {}),
    },
    outcome.failed ? 2 : 0,
  );
}

interface SendOutcome {
  applied: string[];
  failed?: { key: string; outcome: 'refused' | 'unknown'; status?: number; code?: string; message: string };
  notSent: string[];
}

/** Where the PUTs are, for a summary at Ctrl-C: those answered, and the one in flight. */
interface SendProgress {
  applied: string[];
  inFlight?: string;
  order: string[];
}

/** What an interruption leaves: applied, unknown (sent, not answered), not sent. */
export function interruptedSummary(progress: SendProgress): { applied: string[]; unknown: string[]; notSent: string[] } {
  const settled = new Set(progress.applied);
  if (progress.inFlight) settled.add(progress.inFlight);
  return {
    applied: [...progress.applied],
    unknown: progress.inFlight ? [progress.inFlight] : [],
    notSent: progress.order.filter((key) => !settled.has(key)),
  };
}

/** One PUT per changed entry, in order; stops at the first that fails. */
async function sendInOrder(
  client: ModelDeploymentClient,
  rec: Reconciliation,
  targetOf: (t: ApplyTarget) => DeploymentTarget,
  say: (line: string) => void,
  progress: SendProgress = { applied: [], order: rec.order ?? [] },
): Promise<SendOutcome> {
  const byKey = new Map(rec.entries.map((c) => [c.key, c.entry]));
  const order = rec.order ?? [];
  const result: SendOutcome = { applied: [], notSent: [] };
  for (let i = 0; i < order.length; i++) {
    const entry = byKey.get(order[i])!;
    const d = entry.desired;
    // A plan without a version keeps the deployed one: a PUT without it would let the service pick its default.
    const version =
      d.version ?? (entry.current && entry.current.model.toLowerCase() === d.model.toLowerCase() ? entry.current.version : undefined);
    const body = {
      sku: { name: d.sku, capacity: d.capacity },
      properties: {
        model: { format: d.format ?? entry.current?.format ?? DEFAULT_MODEL_FORMAT, name: d.model, ...(version ? { version } : {}) },
      },
    };
    say(
      `PUT ${i + 1}/${order.length} ${order[i]}: ${d.model} ${d.sku} capacity ${entry.current ? `${entry.current.capacity} -> ` : ''}${d.capacity}`,
    );
    progress.inFlight = order[i];
    try {
      const response = await client.createOrUpdateDeployment(targetOf(entry), body);
      // The service's words, made safe for a terminal (escapes and line breaks shown, not acted on).
      const state = response.body?.properties?.provisioningState;
      say(`  ${response.status}${state ? ` (provisioningState ${safeText(String(state), { max: 200 })})` : ''}`);
      result.applied.push(order[i]);
      progress.applied.push(order[i]);
      progress.inFlight = undefined;
    } catch (error) {
      progress.inFlight = undefined;
      const e = error as { status?: number; code?: string; message?: string };
      result.failed = {
        key: order[i],
        outcome: putOutcome(error),
        ...(typeof e.status === 'number' ? { status: e.status } : {}),
        ...(typeof e.code === 'string' ? { code: e.code } : {}),
        message: e.message ?? String(error),
      };
      result.notSent = order.slice(i + 1);
      break;
    }
  }
  return result;
}

/** The table of entries, the quotas, and the order with its evidence. */
function reportLines(file: string, rec: Reconciliation, table: ReturnType<typeof capacityTable>): string[] {
  const rows = applyRows(rec, table);
  const changed = rows.filter((r) => r.action !== 'unchanged').length;
  const cells = rows.map((r) => [
    r.key,
    r.region,
    `${r.model} ${r.sku}`,
    r.action + (r.action === 'resize' && r.changes.some((c) => c !== 'capacity') ? ` (${r.changes.join(', ')})` : ''),
    `${r.from ?? '-'} -> ${r.to}`,
    fmt(r.tpm),
    r.rpm === undefined ? '? (no capacity-unit class)' : `${fmt(r.rpm, 2)} (${r.window})`,
  ]);
  const lines = [`${file}: ${rows.length} deployment${rows.length === 1 ? '' : 's'}, ${changed} to change`, ''];
  for (const line of grid(['entry', 'region', 'model', 'action', 'capacity', 'TPM after', 'RPM after'], cells, [5])) lines.push(line);
  lines.push('');
  const quotaCells = rec.quotas.map((q) => [
    `${q.model} ${q.sku} in ${q.region}`,
    q.limitTpm === undefined ? '?' : fmt(q.limitTpm),
    q.usedTpm === undefined ? '?' : fmt(q.usedTpm),
    q.afterTpm === undefined ? '?' : fmt(q.afterTpm),
    !q.found ? 'not known' : q.fits ? 'fits' : `OVER by ${fmt(q.overTpm ?? 0)}`,
  ]);
  for (const line of grid(['quota', 'limit TPM', 'used now', 'used after', ''], quotaCells, [1, 2, 3])) lines.push(line);
  for (const r of rec.resources) {
    if (r.newAccounts.length)
      lines.push(`resources in ${r.region}: ${r.used} now, ${r.after} after (new: ${r.newAccounts.join(', ')}), limit ${r.limit}`);
  }
  if (rec.order?.length && rec.steps) {
    lines.push('', 'Order (each PUT checked against the quota it draws on, as the service checks it):');
    rec.steps.forEach((s, i) =>
      lines.push(
        `  ${i + 1}. ${s.key}: ${s.quota} ${fmt(s.beforeTpm)} -> ${fmt(s.afterTpm)} of ${fmt(s.limitTpm)} TPM${s.frees.map((f) => `; frees ${fmt(f.tpm)} TPM of ${f.quota}`).join('')}`,
      ),
    );
  }
  return lines;
}

function grid(header: string[], rows: string[][], right: number[]): string[] {
  // No spread over the rows: a plan of thousands of entries would pass that many arguments.
  const widths = header.map((h, i) => rows.reduce((w, r) => Math.max(w, r[i].length), h.length));
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

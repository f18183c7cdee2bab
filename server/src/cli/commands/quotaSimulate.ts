import { parseArgs } from 'node:util';
import { capacityClassOf, rateLimits, simulate } from '../../service/quota';
import { UsageError } from '../../node/files';
import { capacityTable, CAPACITY_UNITS_USAGE, fmt, numberFlag } from '../options/quotaOptions';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset quota simulate --model <name> --capacity <n> --rps <n> --prompt-tokens <n>
                              --max-tokens <n> [--best-of <n>] [--minutes <n>] [--format text|json]
                              [--capacity-units <file>]

Replays a steady load (requests arriving evenly at --rps per second, for --minutes, default 1) against
a deployment's rate limits, as the service counts them (spec Limits 4-5): each request counts
prompt + max_tokens x best_of tokens on receipt, against a TPM count that resets every minute; the RPM
is enforced over short windows (1 s when it allows a request, else 10 s, else 60 s). Says how many
requests would be refused, and by which rule.

Examples:
  policyset quota simulate --model gpt-4o --capacity 10 --rps 1 --prompt-tokens 200 --max-tokens 400
  policyset quota simulate --model gpt-4o --capacity 100 --rps 11 --prompt-tokens 10 --max-tokens 10 --format json

${CAPACITY_UNITS_USAGE}

Exit status: 0 done (whatever the load), 2 usage problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'done (whatever the load)', 2: 'usage problems' };

/** Loads past this are not simulated request by request (a typo, not a workload). */
const MAX_REQUESTS = 10_000_000;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      capacity: { type: 'string' },
      rps: { type: 'string' },
      'prompt-tokens': { type: 'string' },
      'max-tokens': { type: 'string' },
      'best-of': { type: 'string' },
      minutes: { type: 'string' },
      format: { type: 'string', default: 'text' },
      'capacity-units': { type: 'string' },
    },
  });
  if (positionals.length) throw new UsageError(`quota simulate takes no positional arguments ('${positionals[0]}')`);
  if (!values.model) throw new UsageError('quota simulate needs --model <name>');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const capacity = numberFlag(values.capacity, '--capacity', { min: 1, integer: true, required: true })!;
  const rps = numberFlag(values.rps, '--rps', { min: 0.001, max: 100_000, required: true })!;
  const promptTokens = numberFlag(values['prompt-tokens'], '--prompt-tokens', { min: 0, integer: true, required: true })!;
  const maxTokens = numberFlag(values['max-tokens'], '--max-tokens', { min: 0, integer: true, required: true })!;
  const bestOf = numberFlag(values['best-of'], '--best-of', { min: 1, max: 128, integer: true }) ?? 1;
  const minutes = numberFlag(values.minutes, '--minutes', { min: 1 / 60, max: 1440 }) ?? 1;
  if (rps * minutes * 60 > MAX_REQUESTS)
    throw new UsageError(`--rps ${rps} for ${minutes} minutes is more than ${fmt(MAX_REQUESTS)} requests: simulate a shorter time`);
  const table = capacityTable(values['capacity-units']);
  const unit = capacityClassOf(values.model, table);
  if (!unit)
    throw new UsageError(
      `'${values.model}' has no known capacity-unit class, so its RPM is not known: add it with --capacity-units <file>`,
    );
  const limits = rateLimits(capacity, unit);
  const result = simulate(limits, { rps, minutes, promptTokens, maxTokens, bestOf });
  if (values.format === 'json') {
    process.stdout.write(JSON.stringify({ model: values.model, class: unit.name, limits, ...result }, null, 2) + '\n');
    return 0;
  }
  const refused = result.refusedRpm + result.refusedTpm;
  const lines = [
    `deployment     ${values.model}, capacity ${capacity}: ${fmt(limits.tpm)} TPM, ${fmt(limits.rpm, 2)} RPM (${result.window.allowance} per ${result.window.seconds} s window)`,
    `load           ${fmt(rps, 3)} request${rps === 1 ? '' : 's'}/s for ${fmt(minutes, 2)} min; each counts ${fmt(result.requestTokens)} tokens (${fmt(promptTokens)} prompt + ${fmt(maxTokens)} max_tokens x ${bestOf} best_of)`,
    `sent           ${fmt(result.sent)}`,
    `accepted       ${fmt(result.accepted)}`,
    `refused        ${fmt(refused)}${result.sent ? ` (${fmt((100 * refused) / result.sent, 1)}%)` : ''}: ${fmt(result.refusedRpm)} by the RPM window, ${fmt(result.refusedTpm)} by the TPM per minute`,
  ];
  if (result.firstRefusal)
    lines.push(
      `first refusal  at ${fmt(result.firstRefusal.atSeconds, 3)} s, by the ${result.firstRefusal.rule === 'rpm' ? `RPM window (${result.window.allowance} per ${result.window.seconds} s)` : `TPM (${fmt(limits.tpm)} per minute)`}`,
    );
  if (result.minutes.length > 1) {
    lines.push('', 'minute   sent  accepted  refused RPM  refused TPM  tokens counted');
    for (const m of result.minutes)
      lines.push(
        `${String(m.minute).padStart(6)} ${fmt(m.sent).padStart(6)} ${fmt(m.accepted).padStart(9)} ${fmt(m.refusedRpm).padStart(12)} ${fmt(m.refusedTpm).padStart(12)} ${fmt(m.tokensCounted).padStart(15)}`,
      );
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

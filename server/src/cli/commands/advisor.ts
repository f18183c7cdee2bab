import { parseArgs } from 'node:util';
import { safeText, type MetadataEntity } from '#api';
import { UsageError } from '../../node/files';
import { closestMatch } from '../../service/text';
import {
  advisorMetadataClient,
  reportApiError,
  serviceContext,
  serviceOptions,
  SERVICE_OPTIONS_USAGE,
  redactForOutput,
} from '../options/serviceOptions';
import { writeOutputFile } from '../../node/output';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset advisor metadata [--filter <expr>] [--format text|json] [-o <file>] [service options]

Lists the advisor's recommendation metadata (E3, api-version 2025-01-01), every page (nextLink is
followed on the service's own host only, at most 100 pages). --filter is sent as $filter as given; the
real service takes forms such as "recommendationCategory eq 'Cost'", joined by "and".
Text: a table per entity (name, display name, what it depends on, applicable scenarios, and its
supported values). JSON: the array of all entities of all pages.

Examples:
  policyset advisor metadata
  policyset advisor metadata --filter "recommendationCategory eq 'Cost'" --format json -o metadata.json

${SERVICE_OPTIONS_USAGE}
Exit status: 0 done, 2 usage, input, sign-in or service problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: Record<string, ExitStatuses> = { metadata: { 0: 'done', 2: 'usage, input, sign-in or service problems' } };

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      filter: { type: 'string' },
      format: { type: 'string', short: 'f', default: 'text' },
      output: { type: 'string', short: 'o' },
    },
  });
  if (positionals[0] !== 'metadata' || positionals.length !== 1)
    throw new UsageError(
      positionals.length
        ? `advisor has one subcommand, metadata; not '${positionals.join(' ')}'${closestMatch(positionals[0], ['metadata']) ? "; did you mean 'advisor metadata'?" : ''}`
        : 'advisor needs a subcommand: policyset advisor metadata',
    );
  const format = values.format as string;
  if (format !== 'text' && format !== 'json') throw new UsageError(`unknown format '${format}': use text or json`);
  const context = serviceContext(values, env);
  let entities: MetadataEntity[];
  try {
    ({ entities } = await advisorMetadataClient(context).listAll({ filter: values.filter }));
  } catch (error) {
    return reportApiError(error, context.secrets);
  }
  const text = format === 'json' ? JSON.stringify(entities, null, 2) + '\n' : metadataTable(entities);
  if (values.output) {
    try {
      writeOutputFile(values.output, redactForOutput(text));
    } catch (error) {
      process.stderr.write(`policyset: ${(error as Error).message}\n`);
      return 2;
    }
    process.stderr.write(`policyset: saved ${entities.length} metadata entit${entities.length === 1 ? 'y' : 'ies'} to ${values.output}\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

/** One line of service text: control characters (newlines too) escaped, cut at a sane length. */
const one = (value: unknown) => safeText(String(value));
const list = (values: readonly string[] | null | undefined) => (values?.length ? values.map(one).join(', ') : '-');

/** A readable table: one block per entity, its supported values as rows of id and display name. */
export function metadataTable(entities: MetadataEntity[]): string {
  if (!entities.length) return 'No metadata entities.\n';
  const blocks = entities.map((entity) => {
    const p = entity.properties ?? {};
    const values = (p.supportedValues ?? []).map((v) => [one(v.id ?? ''), one(v.displayName ?? '')] as const);
    const width = Math.max(2, ...values.map(([id]) => id.length));
    const head = [
      `${entity.name !== undefined ? one(entity.name) : '(no name)'}  ${p.displayName ? `"${one(p.displayName)}"` : ''}`.trimEnd(),
      `  depends on:           ${list(p.dependsOn)}`,
      `  applicable scenarios: ${list(p.applicableScenarios)}`,
      `  supported values (${values.length}):`,
      `    ${'ID'.padEnd(width)}  DISPLAY NAME`,
      ...values.map(([id, display]) => `    ${id.padEnd(width)}  ${display}`),
    ];
    return head.join('\n');
  });
  return `${blocks.join('\n\n')}\n\n${entities.length} entit${entities.length === 1 ? 'y' : 'ies'}\n`;
}

import { parseArgs } from 'node:util';
import { parseExpand, redact, safeText, ServiceError } from '#api';
import { UsageError } from '../../node/files';
import {
  policySetClient,
  reportApiError,
  serviceContext,
  serviceOptions,
  SERVICE_OPTIONS_USAGE,
  redactForOutput,
} from '../options/serviceOptions';
import { writeOutputFile } from '../../node/output';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset fetch <name> [--expand <list>] [-o <file>] [--format text|json] [service options]

Gets a built-in policy set definition (E1) and prints it, or saves it with -o.
--expand LatestDefinitionVersion,EffectiveDefinitionVersion fills those fields of each reference.
--format json with -o prints what was saved as one JSON object (without -o the set is printed as JSON
either way); docs/cli.md "JSON outputs".

Examples:
  policyset fetch 1f3afdf9-d0c9-4c3d-847f-89da613e70a8 -o set.json
  policyset fetch 1f3afdf9-d0c9-4c3d-847f-89da613e70a8 --expand LatestDefinitionVersion

${SERVICE_OPTIONS_USAGE}
Exit status: 0 done, 2 usage, input, sign-in or service problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'done', 2: 'usage, input, sign-in or service problems' };

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      expand: { type: 'string' },
      output: { type: 'string', short: 'o' },
      format: { type: 'string', short: 'f', default: 'text' },
    },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? 'fetch takes one name' : 'fetch needs the name of a built-in policy set definition');
  let expand;
  try {
    expand = values.expand !== undefined ? parseExpand(values.expand) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const context = serviceContext(values, env);
  try {
    const response = await policySetClient(context).getBuiltInPolicySetDefinition(positionals[0], { expand });
    const text = JSON.stringify(response.body, null, 2) + '\n';
    if (values.output) {
      try {
        writeOutputFile(values.output, redactForOutput(text));
      } catch (error) {
        process.stderr.write(`policyset: ${(error as Error).message}\n`);
        return 2;
      }
      // The service's display name, made safe for a terminal and cleaned of the secrets.
      const shown = safeText(redact(String(response.body.properties.displayName ?? positionals[0]), context.secrets), { max: 200 });
      process.stderr.write(`policyset: saved '${shown}' to ${values.output}\n`);
      if (values.format === 'json') {
        const saved = {
          outcome: 'saved',
          file: values.output,
          name: response.body.name ?? positionals[0],
          displayName: response.body.properties.displayName ?? null,
          version: response.body.properties.version ?? null,
          requestId: response.requestId ?? null,
        };
        process.stdout.write(JSON.stringify(saved, null, 2) + '\n');
      }
    } else {
      process.stdout.write(text);
    }
    return 0;
  } catch (error) {
    const status = reportApiError(error, context.secrets);
    if (error instanceof ServiceError && error.status === 404) process.stderr.write(`policyset: ${notFoundHint(positionals[0])}\n`);
    return status;
  }
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What to do after a 404: built-in sets are fetched by name (a GUID), and a display name is not one. */
export function notFoundHint(name: string): string {
  const shown = safeText(name, { max: 200 });
  if (GUID.test(name)) return `no built-in policy set definition is named '${shown}' at this service (check the cloud and --base-url)`;
  const what = /\s/.test(name) ? `'${shown}' looks like a display name` : `'${shown}' is not the name of a built-in policy set definition`;
  return `${what}: fetch takes the set's name, for built-ins a GUID (the last segment of its id, like 1f3afdf9-d0c9-4c3d-847f-89da613e70a8); find it beside the display name in the portal's Definitions list, or in the vendor's repository of built-in sets`;
}

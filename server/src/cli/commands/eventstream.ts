import { parseArgs } from 'node:util';
import { checkItemId, safeText, type EventstreamClient } from '#api';
import { UsageError } from '../../node/files';
import { closestMatch } from '../../service/text';
import {
  confirm,
  unreadable,
  eventstreamClient,
  reportApiError,
  serviceContext,
  serviceOptions,
  serviceOptionsUsage,
  redactForOutput,
} from '../options/serviceOptions';
import { writeOutputFile } from '../../node/output';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset eventstream get <workspaceId> <eventstreamId> [-o <file>] [--format text|json] [service options]
       policyset eventstream delete <workspaceId> <eventstreamId> [--yes] [--format text|json] [service options]

get (E4) prints the eventstream item's JSON, or saves it with -o.
delete (E5) reads the item first and shows its display name, then asks on a terminal; without one,
--yes is required. A DELETE is sent again only after a 429 or 503 (not processed); a retry answered
ItemNotFound means the item was deleted meanwhile ("already deleted", exit 0). Both IDs are UUIDs,
checked before anything is sent. The address is --items-base-url or POLICYSET_ITEMS_BASE_URL.
--format json: delete prints its outcome as one JSON object, get with -o what it saved (without -o, get
prints the item's JSON either way); docs/cli.md "JSON outputs".

Examples:
  policyset eventstream get <workspaceId> <eventstreamId> -o item.json
  policyset eventstream delete <workspaceId> <eventstreamId> --yes --format json

${serviceOptionsUsage({ items: true })}
Exit status: 0 done, 1 not confirmed, 2 usage, input, sign-in or service problems (ItemNotFound too).
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: Record<string, ExitStatuses> = {
  get: { 0: 'done', 2: 'usage, input, sign-in or service problems (ItemNotFound too)' },
  delete: { 0: 'done', 1: 'not confirmed', 2: 'usage, input, sign-in or service problems (ItemNotFound too)' },
};

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      output: { type: 'string', short: 'o' },
      yes: { type: 'boolean', short: 'y', default: false },
      format: { type: 'string', short: 'f', default: 'text' },
    },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const json = values.format === 'json';
  const [sub, workspaceId, eventstreamId, ...extra] = positionals;
  if (sub !== 'get' && sub !== 'delete') {
    const near = sub ? closestMatch(sub, ['get', 'delete']) : undefined;
    throw new UsageError(
      sub
        ? `eventstream takes get or delete, not '${sub}'${near ? `; did you mean 'eventstream ${near}'?` : ''}`
        : 'eventstream needs a subcommand: get or delete',
    );
  }
  if (!workspaceId || !eventstreamId || extra.length) throw new UsageError(`eventstream ${sub} takes <workspaceId> <eventstreamId>`);
  const problem = checkItemId(workspaceId, 'workspace') ?? checkItemId(eventstreamId, 'eventstream');
  if (problem) throw new UsageError(problem);
  if (sub === 'delete' && values.output) throw new UsageError('-o is for eventstream get');
  if (sub === 'get' && values.yes) throw new UsageError('--yes is for eventstream delete');
  const context = serviceContext(values, env, 'itemsBaseUrl');
  const client = eventstreamClient(context);
  try {
    return sub === 'get'
      ? await get(client, workspaceId, eventstreamId, values.output, json)
      : await remove(client, workspaceId, eventstreamId, values.yes as boolean, json);
  } catch (error) {
    return reportApiError(error, context.secrets);
  }
}

const print = (outcome: object) => process.stdout.write(JSON.stringify(outcome, null, 2) + '\n');

async function get(
  client: EventstreamClient,
  workspaceId: string,
  eventstreamId: string,
  output: string | undefined,
  json: boolean,
): Promise<number> {
  const response = await client.get(workspaceId, eventstreamId);
  const text = JSON.stringify(response.body, null, 2) + '\n';
  if (!output) {
    process.stdout.write(text);
    return 0;
  }
  try {
    writeOutputFile(output, redactForOutput(text));
  } catch (error) {
    process.stderr.write(`policyset: ${(error as Error).message}\n`);
    return 2;
  }
  process.stderr.write(
    `policyset: saved eventstream '${safeText(String(response.body.displayName ?? eventstreamId), { max: 200 })}' to ${output}\n`,
  );
  if (json)
    print({
      outcome: 'saved',
      file: output,
      workspaceId,
      eventstreamId,
      displayName: response.body.displayName ?? null,
      requestId: response.requestId ?? null,
    });
  return 0;
}

async function remove(client: EventstreamClient, workspaceId: string, eventstreamId: string, yes: boolean, json: boolean): Promise<number> {
  // Read first: the question names what would be deleted, and a missing item is reported before any DELETE.
  const item = (await client.get(workspaceId, eventstreamId)).body;
  const name = item.displayName ? `'${safeText(String(item.displayName), { max: 200 })}'` : '(no display name)';
  process.stderr.write(
    `policyset: delete eventstream ${name} (${eventstreamId}) in workspace ${workspaceId}\n  DELETE ${client.eventstreamUrl(workspaceId, eventstreamId)}\n`,
  );
  if (!(await confirm(`Delete eventstream ${name}?`, yes, 'not deleted'))) {
    if (json) print({ outcome: 'not confirmed', workspaceId, eventstreamId, displayName: item.displayName ?? null });
    return 1;
  }
  const result = await client.delete(workspaceId, eventstreamId);
  if (json) {
    print({
      outcome: result.alreadyDeleted ? 'already deleted' : 'deleted',
      status: result.status,
      workspaceId,
      eventstreamId,
      displayName: item.displayName ?? null,
      requestId: result.requestId ?? null,
    });
    return 0;
  }
  const id = result.requestId ? `, request id ${result.requestId}` : '';
  if (result.alreadyDeleted)
    process.stdout.write(
      `already deleted: eventstream ${name} (${eventstreamId}) was gone when the retried DELETE arrived (${result.status} ItemNotFound after a 429${id})\n`,
    );
  else
    process.stdout.write(
      `deleted eventstream ${name} (${eventstreamId}) in workspace ${workspaceId} (${result.status}${id})${unreadable(result.unreadableBody)}\n`,
    );
  return 0;
}

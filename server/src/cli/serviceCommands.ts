import { parseArgs } from 'node:util';
import { exec } from 'node:child_process';
import * as fs from 'node:fs';
import * as readline from 'node:readline/promises';
import { parse as parseJsonc } from 'jsonc-parser';
import {
  ApiError,
  PolicySetClient,
  SettingsError,
  ENV,
  describeScope,
  parseExpand,
  redact,
  resolveServiceSettings,
  versionToDeploy,
  type DeploymentScope,
  type TokenProvider,
} from '#api';
import { readBytes, UsageError } from '../node/files';
import { lintBytes } from './lintEngine';
import { loadCatalog, resolveDefinitionSources } from '../node/definitions';
import { formatText } from './formatters';

export const SERVICE_USAGE = `Usage: policyset fetch <name> [--expand <list>] [-o <file>] [service options]
       policyset deploy <file> (--subscription <id> | --management-group <id>) [--name <set name>]
                        [--version <#.#.#>] [--yes] [-d <definitions>] [service options]

fetch   Gets a built-in policy set definition (E1) and prints it, or saves it with -o.
        --expand LatestDefinitionVersion,EffectiveDefinitionVersion fills those fields of each reference.
deploy  Lints the file, then creates a version of a policy set definition (E2) with one PUT of its
        properties. Refuses when the lint finds errors. Asks for confirmation on a terminal; without one,
        --yes is required. The set name comes from --name, the document's id or name; the version from
        --version, the version resource's name or properties.version.

Service options:
      --base-url <url>          The service address (or ${ENV.baseUrl})
      --namespace <name>        Provider namespace in paths (default: Provider, or ${ENV.providerNamespace})
      --token-command "<cmd>"   A command that prints the bearer token (default: the token is read from
                                ${ENV.accessToken})
      --timeout <seconds>       Time limit of each call, retries included (default: 60)

Exit status: 0 done, 1 refused (lint errors, not confirmed), 2 usage, input, sign-in or service problems.
`;

const serviceOptions = {
  'base-url': { type: 'string' },
  namespace: { type: 'string' },
  'token-command': { type: 'string' },
  timeout: { type: 'string' },
} as const;

interface Common {
  client: PolicySetClient;
  timeoutMs: number;
  /** Known secrets, to keep out of anything printed. */
  secrets: Array<string | undefined>;
}

function common(values: Record<string, unknown>, env: NodeJS.ProcessEnv): Common {
  let settings;
  try {
    settings = resolveServiceSettings([{ baseUrl: values['base-url'] as string | undefined, providerNamespace: values.namespace as string | undefined }], env);
  } catch (error) {
    if (error instanceof SettingsError) throw new UsageError(error.message);
    throw error;
  }
  const timeoutText = values.timeout as string | undefined;
  const seconds = timeoutText === undefined ? 60 : Number(timeoutText);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new UsageError(`--timeout takes seconds from 0.1 to 3600, not '${timeoutText}'`);
  const timeoutMs = Math.round(seconds * 1000);
  const secrets: Array<string | undefined> = [];
  const command = values['token-command'] as string | undefined;
  let pending: Promise<string | undefined> | undefined;
  const token: TokenProvider = (signal) => {
    pending ??= command ? runTokenCommand(command, signal) : Promise.resolve(env[ENV.accessToken]?.trim() || undefined);
    return pending.then((t) => {
      if (t) secrets.push(t);
      return t;
    });
  };
  const client = new PolicySetClient(settings, {
    token,
    timeoutMs,
    onRetry: (info) => process.stderr.write(`policyset: ${redact(info.reason, secrets)}; retrying in ${(info.delayMs / 1000).toFixed(1)} s (attempt ${info.attempt + 1})\n`),
  });
  return { client, timeoutMs, secrets };
}

/** Runs the token command; its output is the token. Neither its output nor its error output is ever printed. */
function runTokenCommand(command: string, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    exec(command, { timeout: 60_000, maxBuffer: 1024 * 1024, signal, windowsHide: true }, (error, stdout) => {
      if (error) {
        const how = (error as NodeJS.ErrnoException & { killed?: boolean }).killed ? 'was stopped' : `failed with exit status ${String(error.code ?? '?')}`;
        reject(new ApiError(`the --token-command ${how}; its output is not shown because it may hold secrets`));
        return;
      }
      const lines = stdout.split(/\r?\n/).filter((l) => l.trim());
      if (lines.length > 1) return reject(new ApiError('the --token-command printed more than one line; it must print only the token'));
      resolve(lines[0]?.trim() || undefined);
    });
  });
}

export async function fetchCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...serviceOptions, expand: { type: 'string' }, output: { type: 'string', short: 'o' } },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'fetch takes one name' : 'fetch needs the name of a built-in policy set definition');
  let expand;
  try {
    expand = values.expand !== undefined ? parseExpand(values.expand) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { client, secrets } = common(values, env);
  try {
    const response = await client.getBuiltInPolicySetDefinition(positionals[0], { expand });
    const text = JSON.stringify(response.body, null, 2) + '\n';
    if (values.output) {
      try {
        fs.writeFileSync(values.output, text);
      } catch (error) {
        process.stderr.write(`policyset: cannot write '${values.output}': ${(error as Error).message}\n`);
        return 2;
      }
      process.stderr.write(`policyset: saved '${response.body.properties.displayName ?? positionals[0]}' to ${values.output}\n`);
    } else {
      process.stdout.write(text);
    }
    return 0;
  } catch (error) {
    return reportApiError(error, secrets);
  }
}

export async function deployCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      subscription: { type: 'string' },
      'management-group': { type: 'string' },
      name: { type: 'string' },
      version: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      definitions: { type: 'string', short: 'd', multiple: true, default: [] },
    },
  });
  if (positionals.length !== 1) throw new UsageError('deploy takes one file');
  if (!!values.subscription === !!values['management-group']) throw new UsageError('deploy needs exactly one of --subscription <id> or --management-group <id>');
  const scope: DeploymentScope = values.subscription
    ? { kind: 'subscription', subscriptionId: values.subscription }
    : { kind: 'managementGroup', managementGroupId: values['management-group'] as string };
  const { client, secrets } = common(values, env);
  const file = positionals[0];

  // Lint first, with the same engine as `policyset lint`: errors stop the deployment.
  const bytes = await readBytes(file);
  const definitionPaths = values.definitions as string[];
  const catalog = definitionPaths.length ? await loadCatalog(await resolveDefinitionSources(definitionPaths)) : undefined;
  const result = lintBytes(file, bytes, true, catalog, { severities: {} });
  const errors = result.diagnostics.filter((d) => d.severity === 1);
  if (errors.length) {
    process.stderr.write(formatText([{ ...result, diagnostics: errors }], process.cwd(), false));
    process.stderr.write(`policyset: not deployed: ${file} has ${errors.length} error${errors.length === 1 ? '' : 's'}\n`);
    return 1;
  }

  let target;
  try {
    const document: unknown = parseJsonc(Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, ''));
    target = versionToDeploy(document, { name: values.name, version: values.version });
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
  if (!target.name) throw new UsageError(`${file} does not name its policy set definition: give --name <set name>`);
  if (!target.version) throw new UsageError(`${file} has no version (a version resource's name or properties.version): give --version <#.#.#>`);
  let path: string;
  try {
    path = client.versionPath(scope, target.name, target.version);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const url = `${client.settings.baseUrl}${path}`;
  process.stderr.write(`policyset: deploy version ${target.version} of '${target.name}' at ${describeScope(scope)}\n  PUT ${url}\n`);
  if (!values.yes) {
    if (!process.stdin.isTTY || !process.stderr.isTTY) {
      process.stderr.write('policyset: not deployed: no terminal to confirm on; pass --yes to deploy without asking\n');
      return 1;
    }
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question('Deploy? [y/N] ');
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      process.stderr.write('policyset: not deployed\n');
      return 1;
    }
  }
  try {
    const response = await client.createPolicySetDefinitionVersion(scope, target.name, target.version, target.properties);
    const verb = response.status === 201 ? 'created' : 'updated';
    process.stdout.write(`${verb} ${response.body?.id ?? path} (${response.status}${response.requestId ? `, request id ${response.requestId}` : ''})\n`);
    return 0;
  } catch (error) {
    return reportApiError(error, secrets);
  }
}

function reportApiError(error: unknown, secrets: Array<string | undefined>): number {
  if (error instanceof ApiError) {
    process.stderr.write(`policyset: ${redact(error.message, secrets)}\n`);
    return 2;
  }
  throw error;
}

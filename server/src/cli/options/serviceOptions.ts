// What every service command shares: the service flags, the client they build, the token (never
// printed), confirmation on a terminal, and how an api error is reported. Each command lives in a
// file of its own under ./commands.
import { exec } from 'node:child_process';
import * as readline from 'node:readline/promises';
import { Writable } from 'node:stream';
import {
  AdvisorMetadataClient,
  ApiError,
  escapeControls,
  formatSeconds,
  safeText,
  AuthenticationRequiredError,
  EventstreamClient,
  PolicySetClient,
  SettingsError,
  ENV,
  redact,
  resolveServiceSettings,
  type ServiceSettings,
  type TokenProvider,
  type RetryInfo,
} from '#api';
import { UsageError } from '../../node/files';

/** The service flags in a command's help; the workspace-items address only where it is used (eventstream). */
export function serviceOptionsUsage(options: { items?: boolean } = {}): string {
  return SERVICE_OPTIONS_USAGE.replace('Service options:\n', `Service options:\n${options.items ? ITEMS_BASE_URL_USAGE : ''}`);
}

const ITEMS_BASE_URL_USAGE = `      --items-base-url <url>    The workspace-items address, for eventstreams (or ${ENV.itemsBaseUrl})
`;

export const SERVICE_OPTIONS_USAGE = `Service options:
      --base-url <url>          The service address (or ${ENV.baseUrl})
      --namespace <name>        Provider namespace in paths (default: Provider, or ${ENV.providerNamespace})
      --token-command "<cmd>"   A command that prints the bearer token (default: the token is read from
                                ${ENV.accessToken})
      --timeout <seconds>       Time limit of each call, retries included (default: 60)
`;

/** parseArgs options of the service flags; spread into a command's own options. */
export const serviceOptions = {
  'base-url': { type: 'string' },
  'items-base-url': { type: 'string' },
  namespace: { type: 'string' },
  'token-command': { type: 'string' },
  timeout: { type: 'string' },
} as const;

export interface ServiceContext {
  settings: ServiceSettings;
  token: TokenProvider;
  timeoutMs: number;
  /** Known secrets, to keep out of anything printed. */
  secrets: Array<string | undefined>;
  /** Prints a retry on standard error, without secrets. */
  onRetry: (info: RetryInfo) => void;
}

/** The settings, token and time limit the service flags (and environment) give. */
export function serviceContext(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  needs: 'baseUrl' | 'itemsBaseUrl' = 'baseUrl',
): ServiceContext {
  let settings: ServiceSettings;
  try {
    settings = resolveServiceSettings(
      [
        {
          baseUrl: values['base-url'] as string | undefined,
          itemsBaseUrl: values['items-base-url'] as string | undefined,
          providerNamespace: values.namespace as string | undefined,
        },
      ],
      env,
      `give --base-url <url> or set ${ENV.baseUrl}`,
      needs,
      `give --items-base-url <url> or set ${ENV.itemsBaseUrl}`,
    );
  } catch (error) {
    if (error instanceof SettingsError) throw new UsageError(error.message);
    throw error;
  }
  const timeoutText = values.timeout as string | undefined;
  const seconds = timeoutText === undefined ? 60 : Number(timeoutText);
  if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 3600)
    throw new UsageError(`--timeout takes seconds from 0.1 to 3600, not '${timeoutText}'`);
  const timeoutMs = Math.round(seconds * 1000);
  const secrets: Array<string | undefined> = [env[ENV.accessToken]?.trim()];
  guardOutput(secrets);
  const command = values['token-command'] as string | undefined;
  let pending: Promise<string | undefined> | undefined;
  const token: TokenProvider = (signal) => {
    pending ??= command ? runTokenCommand(command, signal, timeoutMs) : Promise.resolve(env[ENV.accessToken]?.trim() || undefined);
    return pending.then((t) => {
      if (t) secrets.push(t);
      return t;
    });
  };
  const onRetry = (info: RetryInfo): void => {
    process.stderr.write(
      `policyset: ${redact(info.reason, secrets)}; retrying in ${(info.delayMs / 1000).toFixed(1)} s (attempt ${info.attempt + 1})\n`,
    );
  };
  return { settings, token, timeoutMs, secrets, onRetry };
}

/** The secrets of every service context of this process: everything printed is cleaned of them. */
const guarded: Array<ReadonlyArray<string | undefined>> = [];
type RawWrite = (chunk: unknown, ...rest: unknown[]) => boolean;
/** Each stream's own write, from before guardOutput: the prompt's terminal output only (see promptOutput). */
const rawWrites = new Map<NodeJS.WriteStream, RawWrite>();
const allSecrets = () => guarded.flat();

/**
 * One redaction for everything printed: standard output and standard error are cleaned of the secrets
 * (see redact) and of control characters but newline and tab (see escapeControls: \\uXXXX, valid in JSON
 * too) whatever the command writes, the service's answers included. `secrets` is read at each
 * write, so a token that becomes known later is covered too. Installed once per process.
 */
function guardOutput(secrets: ReadonlyArray<string | undefined>): void {
  guarded.push(secrets);
  if (guarded.length > 1) return;
  // Service text reaches these streams (answers, messages): no escape sequence gets through to the terminal.
  const clean = (text: string) => escapeControls(redact(text, allSecrets()));
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as RawWrite;
    rawWrites.set(stream, write);
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(
        typeof chunk === 'string' ? clean(chunk) : chunk instanceof Uint8Array ? clean(Buffer.from(chunk).toString('utf8')) : chunk,
        ...rest,
      )) as typeof stream.write;
  }
}

/** Text for a file the user asked for (-o), cleaned of the secrets (its control characters are the data's, JSON-escaped or not). */
export function redactForOutput(text: string): string {
  return redact(text, allSecrets());
}

/** The client of the policy set interfaces (E1, E2) for these flags. */
export function policySetClient(context: ServiceContext): PolicySetClient {
  return new PolicySetClient(context.settings, { token: context.token, timeoutMs: context.timeoutMs, onRetry: context.onRetry });
}

/** The client of the advisor metadata interface (E3) for these flags. */
export function advisorMetadataClient(context: ServiceContext): AdvisorMetadataClient {
  return new AdvisorMetadataClient(context.settings, { token: context.token, timeoutMs: context.timeoutMs, onRetry: context.onRetry });
}

/** The client of the eventstream interface (E4, E5) for these flags (the items address). */
export function eventstreamClient(context: ServiceContext): EventstreamClient {
  return new EventstreamClient(context.settings, { token: context.token, timeoutMs: context.timeoutMs, onRetry: context.onRetry });
}

/** Runs the token command; its output is the token. Neither its output nor its error output is ever printed. */
function runTokenCommand(command: string, signal: AbortSignal, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    // --timeout bounds the token command too: a hung command is stopped, not waited for.
    exec(command, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, signal, windowsHide: true }, (error, stdout) => {
      if (error) {
        const killed = (error as NodeJS.ErrnoException & { killed?: boolean }).killed;
        // The shell answers 127 when it cannot find the program, 126 when it cannot run it.
        // Named only when it looks like a program's name (never an assignment that may hold a secret).
        const first = command.trim().split(/\s+/)[0];
        const program = /^[\w./-]+$/.test(first) ? ` '${first}'` : '';
        const how = killed
          ? `did not finish within ${formatSeconds(timeoutMs)} (--timeout) and was stopped`
          : error.code === 127
            ? `could not be run: the shell found no program${program} (check the name and PATH)`
            : error.code === 126
              ? `could not be run: its program${program} is not executable`
              : `failed with exit status ${String(error.code ?? '?')}`;
        reject(new ApiError(`the --token-command ${how}; its output is not shown because it may hold secrets`));
        return;
      }
      const lines = stdout.split(/\r?\n/).filter((l) => l.trim());
      if (lines.length > 1) return reject(new ApiError('the --token-command printed more than one line; it must print only the token'));
      resolve(lines[0]?.trim() || undefined);
    });
  });
}

/**
 * Asks on the terminal before something is changed. Without `--yes` and without a terminal it refuses
 * (prints why) and answers false; `what` is the thing not done ("not deployed").
 */
export async function confirm(question: string, yes: boolean, what: string): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    process.stderr.write(`policyset: ${what}: no terminal to confirm on; pass --yes to go ahead without asking\n`);
    return false;
  }
  // The question is text (its service-derived parts made safe by the caller, cleaned again here); what
  // readline writes after it (cursor codes, the echoed answer) is the terminal's own and goes out as it is.
  const rl = readline.createInterface({ input: process.stdin, output: promptOutput(process.stderr), terminal: true });
  const answer = await rl.question(`${escapeControls(redact(question, allSecrets()))} [y/N] `);
  rl.close();
  if (/^y(es)?$/i.test(answer.trim())) return true;
  process.stderr.write(`policyset: ${what}\n`);
  return false;
}

/**
 * The terminal as readline needs it for a prompt: its writes bypass the output guard (readline's cursor codes
 * and the echo of what the person types are not text to escape), its width is the terminal's.
 */
function promptOutput(stream: NodeJS.WriteStream): NodeJS.WritableStream {
  const found = rawWrites.get(stream);
  if (!found) return stream;
  const raw: RawWrite = found;
  class TerminalOutput extends Writable {
    readonly isTTY = true;
    get columns(): number {
      return stream.columns;
    }
    get rows(): number {
      return stream.rows;
    }
    override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
      raw(chunk, callback);
    }
  }
  return new TerminalOutput({ decodeStrings: false });
}

/** What is said when the service accepted a write but its answer could not be read. */
export function unreadable(excerpt: string | undefined): string {
  return excerpt === undefined
    ? ''
    : `; the service's answer could not be read (not JSON: "${safeText(excerpt, { max: 200 })}"), but it accepted the request`;
}

/** Prints an api error without secrets: exit status 2. Anything else is rethrown. */
export function reportApiError(error: unknown, secrets: Array<string | undefined>): number {
  if (error instanceof AuthenticationRequiredError) {
    // In the CLI's own terms: where a token comes from here.
    process.stderr.write(
      `policyset: ${redact(error.message, secrets)}; set ${ENV.accessToken} to a bearer token, or pass --token-command "<a command that prints one>"\n`,
    );
    return 2;
  }
  if (error instanceof ApiError) {
    process.stderr.write(`policyset: ${redact(error.message, secrets)}\n`);
    return 2;
  }
  throw error;
}

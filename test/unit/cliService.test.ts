// What every service command of the CLI shares (server/src/cli/options/serviceOptions.ts), in-process: the
// service flags' usage errors, the time limit, where the token comes from (never printed, the token command's
// output and failures included), the one guard over standard error (secrets and control characters out of
// everything written), confirmation without a terminal and how an api error is reported. Expected texts are
// written out by hand from docs/cli.md and the code's documented wording. A file of its own: the output guard
// is installed once per process.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { interruptedSummary } from '#server/cli/commands/modelApply';
import {
  confirm,
  redactForOutput,
  reportApiError,
  serviceContext,
  serviceOptionsUsage,
  unreadable,
} from '#server/cli/options/serviceOptions';
import { ApiError, AuthenticationRequiredError } from '#api';
import { UsageError } from '#server/node/files';

const BASE = { 'base-url': 'http://127.0.0.1:9' };
const TOKEN = 'tok-SECRET-1234';
const written: string[] = [];
let recording = false;
let firstContext: ReturnType<typeof serviceContext>;
let guardedByFirst = '';

before(() => {
  // Installed before the first service context, so the output guard wraps this recorder: what the guard lets
  // through is what a terminal would get.
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (recording) {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const callback = rest.at(-1);
      if (typeof callback === 'function') process.nextTick(callback);
      return true;
    }
    return (original as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  // The guard covers standard output too, which the test runner's child process speaks its protocol on: the
  // first context installs the guard, then standard output gets its own write back (standard error is tested).
  const stdoutWrite = process.stdout.write;
  firstContext = serviceContext(BASE, { POLICYSET_ACCESS_TOKEN: '  first-ONLY-1111 \n' });
  process.stdout.write = stdoutWrite;
  // Before any other context: the first one alone guards the output (a command makes one).
  recording = true;
  process.stderr.write('first-ONLY-1111 \u001b\n');
  recording = false;
  guardedByFirst = written.splice(0).join('');
});

/** What the code wrote to standard error while `run` ran, after the guard. */
async function stderrOf(run: () => unknown): Promise<string> {
  written.length = 0;
  recording = true;
  try {
    await run();
  } finally {
    recording = false;
  }
  return written.join('');
}

const usage = (run: () => unknown, message: string) =>
  assert.throws(run, (e: unknown) => e instanceof UsageError && e.message === message, message);

describe('the service flags', () => {
  test('no address: what to give; a namespace that is not one name', () => {
    usage(() => serviceContext({}, {}), 'no service address: give --base-url <url> or set POLICYSET_BASE_URL');
    usage(
      () => serviceContext({}, {}, 'itemsBaseUrl'),
      'no workspace-items address: give --items-base-url <url> or set POLICYSET_ITEMS_BASE_URL',
    );
    usage(
      () => serviceContext({ ...BASE, namespace: 'Pro/../vider' }, {}),
      "provider namespace 'Pro/../vider' must be letters and digits, like 'Provider'",
    );
    assert.equal(serviceContext({}, { POLICYSET_BASE_URL: 'http://127.0.0.1:9' }).settings.baseUrl.startsWith('http://127.0.0.1:9'), true);
  });

  test('--timeout: seconds from 0.1 to 3600, in milliseconds; 60 s by default', () => {
    assert.equal(serviceContext(BASE, {}).timeoutMs, 60_000);
    assert.equal(serviceContext({ ...BASE, timeout: '0.1' }, {}).timeoutMs, 100);
    assert.equal(serviceContext({ ...BASE, timeout: '3600' }, {}).timeoutMs, 3_600_000);
    assert.equal(serviceContext({ ...BASE, timeout: '1.2345' }, {}).timeoutMs, 1235);
    for (const bad of ['0.09', '3600.5', '-1', 'soon', 'Infinity', 'NaN'])
      usage(() => serviceContext({ ...BASE, timeout: bad }, {}), `--timeout takes seconds from 0.1 to 3600, not '${bad}'`);
  });

  test('the usage text: the items address only where it is used', () => {
    assert.equal(serviceOptionsUsage().includes('--items-base-url'), false);
    assert.equal(serviceOptionsUsage().startsWith('Service options:\n      --base-url <url>'), true);
    assert.equal(
      serviceOptionsUsage({ items: true }).startsWith(
        'Service options:\n      --items-base-url <url>    The workspace-items address, for eventstreams (or POLICYSET_ITEMS_BASE_URL)\n      --base-url <url>',
      ),
      true,
    );
  });
});

describe('the token', () => {
  test('from the environment, trimmed; none when empty', async () => {
    assert.equal(await serviceContext(BASE, { POLICYSET_ACCESS_TOKEN: `  ${TOKEN}\n` }).token(new AbortController().signal), TOKEN);
    assert.equal(await serviceContext(BASE, { POLICYSET_ACCESS_TOKEN: '   ' }).token(new AbortController().signal), undefined);
    assert.equal(await serviceContext(BASE, {}).token(new AbortController().signal), undefined);
  });

  test('--token-command: its one line, trimmed; run once however often the token is asked for', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-token-'));
    const log = path.join(dir, 'runs');
    const context = serviceContext({ ...BASE, 'token-command': `echo run >> "${log}"; printf '\\n  cmd-TOKEN-9876  \\n\\n'` }, {});
    const signal = new AbortController().signal;
    assert.equal(await context.token(signal), 'cmd-TOKEN-9876');
    assert.equal(await context.token(signal), 'cmd-TOKEN-9876');
    assert.equal(fs.readFileSync(log, 'utf8'), 'run\n');
    assert.ok(context.secrets.includes('cmd-TOKEN-9876'), 'the token is a secret to keep out of output');
    assert.equal(await serviceContext({ ...BASE, 'token-command': 'true' }, {}).token(signal), undefined);
    assert.equal(
      await serviceContext({ ...BASE, 'token-command': "printf 'tok-5\\n   \\n\\t\\n'" }, {}).token(signal),
      'tok-5',
      'lines of spaces are no lines',
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('--token-command failures: why, never its output', async () => {
    const signal = new AbortController().signal;
    const failure = async (command: string, values: Record<string, unknown> = {}) => {
      try {
        await serviceContext({ ...BASE, ...values, 'token-command': command }, {}).token(signal);
      } catch (error) {
        assert.ok(error instanceof ApiError);
        return error.message;
      }
      assert.fail(`${command} did not fail`);
    };
    const hidden = '; its output is not shown because it may hold secrets';
    assert.equal(await failure('echo leaked-SECRET; exit 3'), `the --token-command failed with exit status 3${hidden}`);
    assert.equal(
      await failure('no-such-program-policyset-test --flag'),
      `the --token-command could not be run: the shell found no program 'no-such-program-policyset-test' (check the name and PATH)${hidden}`,
    );
    assert.equal(
      await failure('  no-such-program-policyset-test'),
      `the --token-command could not be run: the shell found no program 'no-such-program-policyset-test' (check the name and PATH)${hidden}`,
      'spaces before the program',
    );
    assert.equal(
      await failure('TOKEN=leaked-SECRET no-such-program-policyset-test'),
      `the --token-command could not be run: the shell found no program (check the name and PATH)${hidden}`,
      'an assignment is not named: it may hold a secret',
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-token-'));
    const script = path.join(dir, 'not-executable.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho x\n', { mode: 0o644 });
    // No execute bit: the shell refuses it (126), for root too.
    assert.equal(await failure(script), `the --token-command could not be run: its program '${script}' is not executable${hidden}`);
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(await failure('printf "a\\nb\\n"'), 'the --token-command printed more than one line; it must print only the token');
    assert.equal(
      await failure('sleep 5', { timeout: '0.3' }),
      `the --token-command did not finish within 0.3 s (--timeout) and was stopped${hidden}`,
    );
  });
});

describe('the output guard', () => {
  test('the first service context of the process installs it, with the token of the environment (trimmed) as a secret', async () => {
    assert.equal(await stderrOf(() => process.stderr.write('a first-ONLY-1111 b\u0007\n')), 'a [redacted] b\\u0007\n');
    assert.deepEqual(firstContext.secrets, ['first-ONLY-1111']);
    assert.equal(guardedByFirst, '[redacted] \\u001b\n');
  });

  test('standard error: secrets known now or later, and control characters, never reach the terminal', async () => {
    const context = serviceContext(BASE, { POLICYSET_ACCESS_TOKEN: TOKEN });
    const out = await stderrOf(() => {
      process.stderr.write(`answer: ${TOKEN} \u001b[2J\u0007 tab\tend\n`);
      process.stderr.write(new TextEncoder().encode(`bytes ${TOKEN}\n`));
    });
    assert.equal(out, 'answer: [redacted] \\u001b[2J\\u0007 tab\tend\nbytes [redacted]\n');
    // A token the command prints later is covered from then on.
    context.secrets.push('later-SECRET-5555');
    assert.equal(await stderrOf(() => process.stderr.write('later-SECRET-5555\n')), '[redacted]\n');
    assert.equal(redactForOutput(`{"t":"${TOKEN}","x":"\u001b"}`), '{"t":"[redacted]","x":"\u001b"}', '-o files keep their own characters');
  });

  test('a retry is said on standard error, without secrets', async () => {
    const context = serviceContext(BASE, { POLICYSET_ACCESS_TOKEN: TOKEN });
    const out = await stderrOf(() => context.onRetry({ reason: `429 for ${TOKEN}`, delayMs: 1500, attempt: 1 } as never));
    assert.equal(out, 'policyset: 429 for [redacted]; retrying in 1.5 s (attempt 2)\n');
    const whole = await stderrOf(() => context.onRetry({ reason: 'busy', delayMs: 20_000, attempt: 0 } as never));
    assert.equal(whole, 'policyset: busy; retrying in 20.0 s (attempt 1)\n');
  });
});

/** Runs `run` with standard input a terminal that types `typed`, and standard error a terminal. */
async function onTerminal<T>(typed: string, run: () => Promise<T>): Promise<{ result: T; screen: string }> {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  const saved = {
    stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!,
    tty: Object.getOwnPropertyDescriptor(process.stderr, 'isTTY'),
  };
  Object.defineProperty(process, 'stdin', { value: input, configurable: true });
  Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true, writable: true });
  try {
    let result: T | undefined;
    const screen = await stderrOf(async () => {
      const pending = run();
      setImmediate(() => input.write(typed));
      result = await pending;
    });
    return { result: result as T, screen };
  } finally {
    Object.defineProperty(process, 'stdin', saved.stdin);
    if (saved.tty) Object.defineProperty(process.stderr, 'isTTY', saved.tty);
    else delete (process.stderr as { isTTY?: boolean }).isTTY;
  }
}

describe('errors and confirmation', () => {
  test('an api error: its message without secrets, exit 2; sign-in says where a token comes from; others are thrown on', async () => {
    let status = 0;
    const out = await stderrOf(() => (status = reportApiError(new ApiError(`HTTP 400 for ${TOKEN}`), [TOKEN])));
    assert.equal(status, 2);
    assert.equal(out, 'policyset: HTTP 400 for [redacted]\n');
    const auth = await stderrOf(() => (status = reportApiError(new AuthenticationRequiredError('the service asks for a token'), [])));
    assert.equal(status, 2);
    assert.equal(
      auth,
      'policyset: the service asks for a token; set POLICYSET_ACCESS_TOKEN to a bearer token, or pass --token-command "<a command that prints one>"\n',
    );
    const other = new TypeError('a bug');
    assert.throws(
      () => reportApiError(other, []),
      (e: unknown) => e === other,
    );
  });

  test('an answer that could not be read: said with a safe excerpt', () => {
    assert.equal(unreadable(undefined), '');
    assert.equal(
      unreadable('<html>\u001b[31m'),
      `; the service's answer could not be read (not JSON: "<html>\\u001b[31m"), but it accepted the request`,
    );
    assert.ok(unreadable('x'.repeat(500)).includes(`${'x'.repeat(200)}… (300 more characters not shown)`));
  });

  test('confirmation on a terminal: y or yes (any case, spaces around) goes ahead; anything else does not', async () => {
    for (const [typed, expected] of [
      ['y\r', true],
      ['YES\r', true],
      [' yes \r', true],
      ['\r', false],
      ['n\r', false],
      ['nay\r', false],
      ['yesterday\r', false],
      ['ye\r', false],
    ] as const) {
      const { result, screen } = await onTerminal(typed, () => confirm(`Deploy ${TOKEN} \u001b[2J?`, false, 'not deployed'));
      assert.equal(result, expected, JSON.stringify(typed));
      // The question is cleaned of secrets and control characters; the terminal's own codes pass (not escaped).
      assert.ok(screen.includes('Deploy [redacted] \\u001b[2J? [y/N] '), JSON.stringify(screen));
      assert.equal(screen.endsWith('policyset: not deployed\n'), !expected, JSON.stringify(screen));
    }
  });

  test('confirmation: --yes goes ahead; without a terminal nothing is done and the reason is said', async () => {
    assert.equal(await confirm('Deploy?', true, 'not deployed'), true);
    let answer: boolean | undefined;
    const out = await stderrOf(async () => (answer = await confirm('Deploy?', false, 'not deployed')));
    assert.equal(answer, false);
    assert.equal(out, 'policyset: not deployed: no terminal to confirm on; pass --yes to go ahead without asking\n');
    // A terminal on one side only is not one to ask on (the pseudo-terminal test, api/prompt, asks on both).
    for (const [stdin, stderr] of [
      [true, false],
      [false, true],
    ]) {
      const saved = [Object.getOwnPropertyDescriptor(process.stdin, 'isTTY'), Object.getOwnPropertyDescriptor(process.stderr, 'isTTY')];
      Object.defineProperty(process.stdin, 'isTTY', { value: stdin, configurable: true, writable: true });
      Object.defineProperty(process.stderr, 'isTTY', { value: stderr, configurable: true, writable: true });
      try {
        const said = await stderrOf(async () => (answer = await confirm('Delete?', false, 'not deleted')));
        assert.equal(answer, false);
        assert.equal(said, 'policyset: not deleted: no terminal to confirm on; pass --yes to go ahead without asking\n');
      } finally {
        for (const [stream, descriptor] of [
          [process.stdin, saved[0]],
          [process.stderr, saved[1]],
        ] as const) {
          if (descriptor) Object.defineProperty(stream, 'isTTY', descriptor);
          else delete (stream as { isTTY?: boolean }).isTTY;
        }
      }
    }
  });
});

describe('model apply at Ctrl-C: what was applied, what may have been, what was not sent', () => {
  test('the PUT in flight is unknown, never "not sent"; without one, every key not answered is not sent', () => {
    const order = ['a/one', 'a/two', 'a/three'];
    assert.deepEqual(interruptedSummary({ applied: ['a/one'], inFlight: 'a/two', order }), {
      applied: ['a/one'],
      unknown: ['a/two'],
      notSent: ['a/three'],
    });
    assert.deepEqual(interruptedSummary({ applied: ['a/one'], order }), { applied: ['a/one'], unknown: [], notSent: ['a/two', 'a/three'] });
    assert.deepEqual(interruptedSummary({ applied: [], inFlight: 'a/one', order }), {
      applied: [],
      unknown: ['a/one'],
      notSent: ['a/two', 'a/three'],
    });
    const applied = ['a/one'];
    const summary = interruptedSummary({ applied, order });
    summary.applied.push('changed');
    assert.deepEqual(applied, ['a/one'], 'a copy: the progress is not changed by what reads it');
  });
});

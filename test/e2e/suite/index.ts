// The integration suite's entry: the `run()` contract of VS Code's extension tests, the same under
// @vscode/test-electron (runElectron.ts) and under code-server's smoke-test driver (runCodeServer.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/** The line prefix by which a runner reads each test's result from the extension host's console. */
export const RESULT_PREFIX = '[policyset-e2e]';

export interface E2eResult {
  suite: string;
  title: string;
  state: 'passed' | 'failed';
  durationMs?: number;
  error?: string;
}

/** Prints one line per test (also under test-electron, where it lands in the runner's output): code-server shows the extension host's console.log in the page's console. */
class ConsoleReporter {
  constructor(runner: Mocha.Runner) {
    const report = (test: Mocha.Test, state: E2eResult['state'], error?: Error) => {
      const result: E2eResult = {
        suite: test.parent?.fullTitle() ?? '',
        title: test.title,
        state,
        durationMs: test.duration,
        error: error ? `${error.message}\n${error.stack ?? ''}` : undefined,
      };
      console.log(`${state === 'passed' ? 'ok  ' : 'FAIL'} ${result.suite} › ${result.title}${error ? `: ${error.message}` : ''}`);
      // Base64: one token that survives however the console joins and styles its arguments.
      console.log(`${RESULT_PREFIX} ${Buffer.from(JSON.stringify(result)).toString('base64')}`);
    };
    runner.on('pass', (test) => report(test, 'passed'));
    runner.on('fail', (runnable: Mocha.Runnable, error: Error) => {
      // A failing hook fails the tests it stands for.
      if ((runnable as { type?: string }).type === 'hook') for (const t of runnable.parent?.tests ?? []) report(t, 'failed', error);
      else report(runnable as Mocha.Test, 'failed', error);
    });
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: ConsoleReporter as unknown as string });
  for (const file of fs
    .readdirSync(__dirname)
    .filter((name) => name.endsWith('.e2e.js'))
    .sort())
    mocha.addFile(path.join(__dirname, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} e2e test(s) failed`)) : resolve()));
  });
}

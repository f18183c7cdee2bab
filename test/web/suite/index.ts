/// <reference types="mocha" />
// The web suite's entry, loaded by @vscode/test-web into the web worker extension host (bundled by
// web.test.ts into test/out/web/suite.bundle.js): mocha's browser build, one result line per test.
/* eslint-disable @typescript-eslint/no-require-imports -- mocha's browser build sets the global `mocha` */
require('mocha/mocha.js');

import { RESULT_PREFIX, type WebResult } from './protocol';

class ConsoleReporter {
  constructor(runner: Mocha.Runner) {
    const report = (test: Mocha.Test, state: WebResult['state'], error?: Error) => {
      const result: WebResult = {
        suite: test.parent?.fullTitle() ?? '',
        title: test.title,
        state,
        error: error ? `${error.message}\n${error.stack ?? ''}` : undefined,
      };
      console.log(`${RESULT_PREFIX} ${JSON.stringify(result)}`);
    };
    runner.on('pass', (test) => report(test, 'passed'));
    runner.on('fail', (runnable: Mocha.Runnable, error: Error) => {
      // A failing hook is reported under its own title (the whole-suite check in web.test.ts fails on it).
      report(runnable as Mocha.Test, 'failed', error);
    });
  }
}

export function run(): Promise<void> {
  mocha.setup({ ui: 'tdd', reporter: ConsoleReporter as unknown as string, timeout: 60_000 });
  require('./web.suite');
  require('./service.suite');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} web test(s) failed`)) : resolve()));
  });
}

// Loaded (through NODE_OPTIONS) into every node process a test file starts during `npm run mutate`'s first
// run: when the process exits, what it reached of the instrumented code is written for the test file's
// process to collect (see coverage-parent.js).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.POLICYSET_MUTATE_COVERAGE_DIR;
if (dir) {
  const write = () => {
    const coverage = globalThis.__stryker__?.mutantCoverage;
    if (!coverage) return;
    const counts = { ...coverage.static };
    for (const perTest of Object.values(coverage.perTest ?? {})) {
      for (const [id, n] of Object.entries(perTest)) counts[id] = (counts[id] ?? 0) + n;
    }
    try {
      fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(counts));
    } catch {
      // The test file's process has ended and removed the directory: nothing to report to.
    }
  };
  process.on('exit', write);
  // A server ended by a signal does not run its exit handlers: write on the signals tests send too, then
  // end as the signal would have, unless the process handles the signal itself.
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      write();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

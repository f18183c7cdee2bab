// Preloaded (`node -r`) into each test file's process by `npm run mutate`, before the tap runner's own hook.
// Stryker's tap runner counts as reached only the mutants that run in the test file's own process; but many
// tests run the code they test in a process of their own (the CLI, the language server). During the first
// run (the one that measures what each file reaches), this makes every node process started from this one
// load coverage-child.js, which writes what that process reached to a directory when it exits; when this
// process exits, those counts are added to its own, so that the tap runner sees them as reached by this file.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (process.env.STRYKER_DRY_RUN === 'true') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-mutate-'));
  const child = path.join(__dirname, 'coverage-child.js');
  process.env.POLICYSET_MUTATE_COVERAGE_DIR = dir;
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(child)}`.trim();
  // Registered before the tap runner's hook registers its own: this one runs first, the tap runner's then
  // writes the merged counts.
  process.on('exit', () => {
    const ns = (globalThis.__stryker__ ??= {});
    const own = (ns.mutantCoverage ??= { static: {}, perTest: {} });
    for (const name of fs.readdirSync(dir)) {
      try {
        const counts = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
        for (const [id, n] of Object.entries(counts)) own.static[id] = (own.static[id] ?? 0) + n;
      } catch {
        // A child that was still writing when it was killed: what it reached is lost, not guessed.
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

// A fix never makes a file worse: `policyset lint --fix` on copies of the corpus's sets (the subset, and the
// full corpus when it is beside the checkout), the dialect fixtures and examples/. Each file fixed still
// parses, has no more problems (fewer when something was fixed), differs from the original only near the
// problems the report says were fixed (every other line byte for byte the same), and a second run changes
// nothing. --fix-dry-run writes nothing.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateText } from '#service';
import { runCli } from '../support/run';
import { CORPORA, REPO_ROOT } from '../support/corpus';

interface JsonReport {
  summary: { fixed?: number; fixedFiles?: number };
  files: Array<{
    file: string;
    diagnostics: Array<{ code: string; line: number }>;
    fixed?: Array<{ code: string; line: number }>;
    output?: string;
  }>;
}

/** Every file of a tree: its bytes and its mtime. */
function snapshot(dir: string): Map<string, { bytes: Buffer; mtimeMs: number }> {
  const out = new Map<string, { bytes: Buffer; mtimeMs: number }>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.set(path.relative(dir, full), { bytes: fs.readFileSync(full), mtimeMs: fs.statSync(full).mtimeMs });
    }
  };
  walk(dir);
  return out;
}

/**
 * The hunks of a line diff (Myers), as ranges of the old lines [from, to) that were replaced (an insertion
 * marks the old line after it): the test's own oracle of what changed, independent of the service's edits.
 */
function changedLines(a: string[], b: string[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 2);
  const trace: Int32Array[] = [];
  outer: for (let d = 0; d <= n + m; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) break outer;
    }
  }
  // Back from the end: the pairs of lines kept.
  const pairs: Array<[number, number]> = [[n, m]];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      pairs.push([x - 1, y - 1]);
      x--;
      y--;
    }
    x = prevX;
    y = prevY;
  }
  pairs.push([-1, -1]);
  pairs.reverse();
  const hunks: Array<[number, number]> = [];
  for (let i = 1; i < pairs.length; i++) {
    const [pa, pb] = pairs[i - 1];
    const [qa, qb] = pairs[i];
    if (qa - pa > 1 || qb - pb > 1) hunks.push([pa + 1, Math.max(qa, pa + 2)]);
  }
  return hunks;
}

const NEAR = 3;

async function lintJson(args: string[], cwd: string): Promise<JsonReport> {
  const run = await runCli(['lint', ...args, '-f', 'json', '--no-error-on-unmatched-pattern'], { cwd, timeoutMs: 300_000 });
  assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as JsonReport;
}

interface Target {
  name: string;
  /** Copied into the temporary folder, then linted there. */
  source: string;
  /** Extra arguments (the corpus's definitions index), given as absolute paths. */
  args: string[];
}

const TARGETS: Target[] = [
  ...CORPORA.map((c) => ({ name: `corpus (${c.label})`, source: c.sets, args: ['-d', c.index] })),
  { name: 'dialects', source: path.join(REPO_ROOT, 'test', 'fixtures', 'dialects'), args: [] },
  { name: 'examples', source: path.join(REPO_ROOT, 'examples'), args: ['-d', path.join(REPO_ROOT, 'examples', 'definitions')] },
];

describe('lint --fix never makes a file worse', () => {
  let root: string;
  before(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-fix-corpus-'))));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  let totalFixed = 0;
  for (const target of TARGETS) {
    test(target.name, async () => {
      const dir = path.join(root, target.name.replace(/\W+/g, '-'));
      fs.cpSync(target.source, dir, { recursive: true });
      const original = snapshot(dir);
      const beforeReport = await lintJson(['.', ...target.args, '--min-severity', 'hint'], dir);
      const beforeByFile = new Map(beforeReport.files.map((f) => [f.file, f.diagnostics]));

      // --fix-dry-run: nothing written, not a byte, not an mtime.
      const dry = await lintJson(['.', ...target.args, '--min-severity', 'hint', '--fix-dry-run'], dir);
      assert.deepEqual(snapshot(dir), original);

      const fixed = await lintJson(['.', ...target.args, '--min-severity', 'hint', '--fix'], dir);
      assert.equal(fixed.summary.fixed, dry.summary.fixed, 'the dry run said what --fix does');
      const after = snapshot(dir);
      assert.deepEqual([...after.keys()].sort(), [...original.keys()].sort(), 'no file made or removed (no temporary file left)');
      for (const [file, was] of original) {
        const now = after.get(file)!;
        const report = fixed.files.find((f) => path.normalize(f.file) === path.normalize(file));
        const fixes = report?.fixed ?? [];
        if (!fixes.length) {
          assert.ok(now.bytes.equals(was.bytes), `${file}: unchanged without fixes`);
          continue;
        }
        totalFixed += fixes.length;
        const text = now.bytes.toString('utf8');
        const oldText = was.bytes.toString('utf8');
        assert.equal(text, report!.output, `${file}: written as reported`);
        // Still parses; no more problems, and fewer.
        const parsedBefore = validateText(oldText, { assumePolicyDocument: true }).document.parsed.syntaxErrors.length;
        assert.ok(
          validateText(text, { assumePolicyDocument: true }).document.parsed.syntaxErrors.length <= parsedBefore,
          `${file}: parses`,
        );
        const before = beforeByFile.get(report!.file) ?? [];
        assert.ok(
          report!.diagnostics.length < before.length,
          `${file}: ${before.length} problems before, ${report!.diagnostics.length} after`,
        );
        // Only near the problems fixed: every changed line close to a fix, every fix close to a change.
        const hunks = changedLines(oldText.split('\n'), text.split('\n'));
        assert.ok(hunks.length > 0, `${file}: changed`);
        const fixLines = fixes.map((f) => f.line - 1);
        // PS2006's one hint for a set whose parameter types are all lowercase fixes them all: a changed line that is
        // a parameter type changed only in its casing is that fix's, wherever it is.
        const oldLines = oldText.split('\n');
        const newLines = new Set(text.split('\n'));
        const typeCasing = (from: number, to: number) =>
          fixes.some((f) => f.code === 'PS2006') &&
          oldLines
            .slice(from, to)
            .every((line) => /"type"\s*:/.test(line) && [...newLines].some((n) => n !== line && n.toLowerCase() === line.toLowerCase()));
        for (const [from, to] of hunks)
          assert.ok(
            typeCasing(from, to) || fixLines.some((l) => l >= from - NEAR && l < to + NEAR),
            `${file}: lines ${from + 1}-${to} changed, no fix near them (fixes at ${fixLines.map((l) => l + 1).join(', ')})`,
          );
        for (const l of fixLines)
          assert.ok(
            hunks.some(([from, to]) => l >= from - NEAR && l < to + NEAR),
            `${file}: a fix at line ${l + 1} changed nothing near it`,
          );
      }

      // Idempotent: a second run fixes nothing and writes nothing.
      const again = await lintJson(['.', ...target.args, '--min-severity', 'hint', '--fix'], dir);
      assert.equal(again.summary.fixed, 0);
      assert.deepEqual(snapshot(dir), after);
    });
  }

  test('the corpus, fixtures and examples had something to fix', () => {
    // Not a silent pass: the checks above ran on files that changed.
    assert.ok(totalFixed > 0, `fixes applied: ${totalFixed}`);
  });
});

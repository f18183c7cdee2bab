// The diagnostics of a fixture open in the editor (service/features/fixtureDiagnostics.ts) and the code lens's
// title (lsp/fixtureLenses.ts), from hand-made runs: the lines and titles are worked out from the texts by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureDiagnostics, FIXTURE_CODES } from '#server/service/features/fixtureDiagnostics';
import { FixtureLenses, type FixtureRunOf } from '#server/lsp/fixtureLenses';
import type { FixtureRun } from '#service';

const TEXT = `{
  "target": "set.json",
  // a comment, as JSONC allows
  "cases": [
    { "name": "one", "resource": "a.json", "expect": { "x": "compliant" } },
    {
      "name": "two",
      "resource": "b.json",
      "expect": {
        "x": "compliant",
        "y": "nonCompliant"
      }
    }
  ]
}`;

const expectation = (referenceId: string, passed: boolean, extra: object = {}) => ({
  referenceId,
  expected: 'nonCompliant',
  actual: passed ? 'nonCompliant' : 'compliant',
  passed,
  ...extra,
});

test('a failed expectation: on its own line in its case, code and message; passed ones give nothing', () => {
  const run: FixtureRun = {
    cases: [
      { name: 'one', passed: true, expectations: [expectation('x', true)] },
      {
        name: 'two',
        passed: false,
        expectations: [expectation('x', true), expectation('y', false, { explanation: "Compliant because `a` is 'b'" })],
      },
    ],
  };
  const [diagnostic, ...rest] = fixtureDiagnostics(TEXT, run);
  assert.equal(rest.length, 0);
  assert.deepEqual(diagnostic.range, { start: { line: 10, character: 8 }, end: { line: 10, character: 27 } });
  assert.equal(diagnostic.code, FIXTURE_CODES.expectationFailed);
  assert.equal(diagnostic.message, "'y': expected nonCompliant, got compliant. Compliant because `a` is 'b'");
});

test('an expectation of a reference ID no member has, on one resource of several', () => {
  const run: FixtureRun = {
    cases: [
      { name: 'one', passed: false, expectations: [{ referenceId: 'x', expected: 'compliant', resource: 'r2', passed: false }] },
      { name: 'two', passed: true, expectations: [] },
    ],
  };
  const [diagnostic] = fixtureDiagnostics(TEXT, run);
  assert.equal(diagnostic.range.start.line, 4);
  assert.equal(diagnostic.message, "'x' on 'r2': expected compliant, but no member of the set has this reference ID.");
});

test('a fixture that cannot run: on the value naming the file, its nearest ancestor, or the first line', () => {
  const at = (path: Array<string | number>) => fixtureDiagnostics(TEXT, { error: 'cannot read', at: path })[0];
  assert.equal(at(['cases', 1, 'resource']).range.start.line, 7);
  assert.equal(at(['cases', 1, 'resource']).code, FIXTURE_CODES.fixtureNotRun);
  assert.equal(at(['cases', 1, 'resource']).message, 'The fixture cannot run: cannot read');
  // The case has no "related" of its own: its case.
  assert.equal(at(['cases', 1, 'related']).range.start.line, 5);
  assert.deepEqual(at([]).range, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } });
});

test('the code lens title: samples are cases, failing cases counted, fixtures that cannot run said', () => {
  const of = (...runs: FixtureRun[]): FixtureRunOf[] => runs.map((run, i) => ({ uri: `file:///f${i}`, text: '', run }));
  const cases = (...passed: boolean[]): FixtureRun => ({ cases: passed.map((p, i) => ({ name: `c${i}`, passed: p, expectations: [] })) });
  assert.equal(FixtureLenses.title(of(cases(true, false, true), cases(false, true))), 'evaluate 5 samples: 2 fail');
  assert.equal(FixtureLenses.title(of(cases(true))), 'evaluate 1 sample: all pass');
  assert.equal(FixtureLenses.title(of(cases(true, true), { error: 'x', at: [] })), 'evaluate 2 samples: 1 fixture cannot run');
  assert.equal(
    FixtureLenses.title(of(cases(false), { error: 'x', at: [] }, { error: 'y', at: [] })),
    'evaluate 1 sample: 1 fail, 2 fixtures cannot run',
  );
});

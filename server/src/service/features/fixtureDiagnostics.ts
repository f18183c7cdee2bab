// The diagnostics of a `policyset test` fixture open in the editor (docs/evaluate.md, "In the editor"): each
// failed expectation on its line in the case's `expect`, and a fixture that cannot run (a file it names is
// missing or is not what it should be) on the value that names it. The run itself is the host's (it reads
// files); this turns its results into diagnostics. Pure.
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver-types';
import { DIAGNOSTIC_SOURCE } from '../diagnostics';
import { LineIndex } from '../text';
import type { FixtureExpectation, FixtureRun } from '../evaluate';

/** The codes: the first is the SARIF ruleId of `policyset test`, so that the editor and CI name a failure alike. */
export const FIXTURE_CODES = { expectationFailed: 'expectation-failed', fixtureNotRun: 'fixture-not-run' } as const;

/** The property (key and value) of the node at `path`, else its deepest ancestor that is there. */
function propertyAt(root: JsonNode | undefined, path: Array<string | number>): JsonNode | undefined {
  if (!root) return undefined;
  for (let length = path.length; length > 0; length--) {
    const node = findNodeAtLocation(root, path.slice(0, length));
    if (node) return node.parent?.type === 'property' ? node.parent : node;
  }
  return undefined;
}

/** The range of an expectation (`"ref": "outcome"` in the case's `expect`), else of what holds it. */
export function expectationRange(text: string, caseIndex: number, referenceId: string): Range {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = propertyAt(root, ['cases', caseIndex, 'expect', referenceId]);
  const lines = new LineIndex(text);
  return node ? lines.rangeOf(node.offset, node.offset + node.length) : lines.rangeOf(0, 0);
}

function expectationMessage(e: FixtureExpectation): string {
  const subject = `'${e.referenceId}'${e.resource ? ` on '${e.resource}'` : ''}`;
  if (e.actual === undefined) return `${subject}: expected ${e.expected}, but no member of the set has this reference ID.`;
  const why = e.explanation ?? e.reason;
  return `${subject}: expected ${e.expected}, got ${e.actual}.${why ? ` ${why}` : ''}`;
}

/** The diagnostics of a fixture's run; `text`: the fixture's text the run was made of. */
export function fixtureDiagnostics(text: string, run: FixtureRun): Diagnostic[] {
  const lines = new LineIndex(text);
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const rangeOf = (node: JsonNode | undefined) => {
    if (node) return lines.rangeOf(node.offset, node.offset + node.length);
    // The fixture as a whole: its first line.
    const end = text.search(/\r|\n|$/);
    return lines.rangeOf(0, end);
  };
  if ('error' in run)
    return [
      {
        range: rangeOf(propertyAt(root, run.at)),
        severity: DiagnosticSeverity.Error,
        source: DIAGNOSTIC_SOURCE,
        code: FIXTURE_CODES.fixtureNotRun,
        message: `The fixture cannot run: ${run.error}`,
      },
    ];
  const diagnostics: Diagnostic[] = [];
  run.cases.forEach((c, index) => {
    for (const e of c.expectations) {
      if (e.passed) continue;
      diagnostics.push({
        range: rangeOf(propertyAt(root, ['cases', index, 'expect', e.referenceId])),
        severity: DiagnosticSeverity.Error,
        source: DIAGNOSTIC_SOURCE,
        code: FIXTURE_CODES.expectationFailed,
        message: expectationMessage(e),
        data: { case: c.name },
      });
    }
  });
  return diagnostics;
}

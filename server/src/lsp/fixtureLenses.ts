// The fixtures that name a set or definition (docs/evaluate.md, "In the editor"): found by a scan of the
// workspace folders for `*.policytest.json` (kept until a fixture file is created, changed or deleted, or the
// folders change) and among the open documents that are fixtures by content; run for the code lens
// "evaluate N samples: k fail" and for policySet/fixtureResults, which its command shows.
import { parse } from 'jsonc-parser';
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isFixture, type FixtureRun } from '../service';
import { expectationRange } from '../service/features';
import { isFixtureText } from './fixtureChecks';
import type { FixtureResultsAnswer } from './protocol';
import type { FileChange, ServerHost } from './serverHost';

/** URIs compared as the same file whatever their percent-encoding. */
const sameFile = (a: string, b: string) => {
  try {
    return decodeURIComponent(a) === decodeURIComponent(b);
  } catch {
    return a === b;
  }
};

export interface FixtureRunOf {
  uri: string;
  text: string;
  run: FixtureRun;
}

export class FixtureLenses {
  private scanned: Promise<string[]> | undefined;

  constructor(
    private readonly host: ServerHost,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly folders: () => string[],
  ) {}

  /** Whether fixtures can be found and run here (not in the browser). */
  get available(): boolean {
    return !!(this.host.findFixtures && this.host.fixtureTarget && this.host.runFixture);
  }

  /** The folders changed, or a fixture file did: the next question scans again. Answers whether lenses may have changed. */
  filesChanged(changes: FileChange[] | undefined): boolean {
    if (changes && !changes.some((c) => c.uri.endsWith('.policytest.json'))) return false;
    this.scanned = undefined;
    return true;
  }

  private textOf(uri: string): string | undefined {
    return this.documents.get(uri)?.getText() ?? this.host.readFile(uri);
  }

  /** The fixtures whose `target` is the document (a path to it; an inline target names no file). */
  async fixturesNaming(uri: string): Promise<string[]> {
    const { findFixtures, fixtureTarget } = this.host;
    if (!findFixtures || !fixtureTarget) return [];
    this.scanned ??= findFixtures(this.folders());
    const open = this.documents
      .all()
      .filter((d) => isFixtureText(d.getText()))
      .map((d) => d.uri);
    const candidates = [...new Set([...open, ...(await this.scanned)])];
    return candidates.filter((fixture) => {
      const text = this.textOf(fixture);
      if (text === undefined) return false;
      const value: unknown = parse(text, [], { allowTrailingComma: true });
      if (!isFixture(value) || typeof value.target !== 'string') return false;
      const target = fixtureTarget(fixture, value.target);
      return target !== undefined && sameFile(target, uri);
    });
  }

  /** Runs the fixtures (an open one with its text in the editor), in order. */
  async run(fixtures: string[]): Promise<FixtureRunOf[]> {
    const out: FixtureRunOf[] = [];
    for (const uri of fixtures) {
      const text = this.textOf(uri);
      if (text === undefined || !this.host.runFixture) continue;
      const run = await this.host.runFixture(uri, text);
      if (run) out.push({ uri, text, run });
    }
    return out;
  }

  /** The lens's title: "evaluate 5 samples: 2 fail", "evaluate 4 samples: all pass" (a sample: a case of a fixture). */
  static title(runs: FixtureRunOf[]): string {
    let samples = 0;
    let failed = 0;
    let broken = 0;
    for (const { run } of runs) {
      if ('error' in run) broken++;
      else {
        samples += run.cases.length;
        failed += run.cases.filter((c) => !c.passed).length;
      }
    }
    const head = `evaluate ${samples} sample${samples === 1 ? '' : 's'}`;
    const parts = [
      failed ? `${failed} fail` : broken ? '' : 'all pass',
      broken ? `${broken} fixture${broken === 1 ? '' : 's'} cannot run` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `${head}: ${parts}`;
  }

  /** The answer of policySet/fixtureResults: every expectation with its range in its fixture. */
  static answer(runs: FixtureRunOf[]): FixtureResultsAnswer {
    return {
      fixtures: runs.map(({ uri, text, run }) =>
        'error' in run
          ? { uri, error: run.error, cases: [] }
          : {
              uri,
              cases: run.cases.map((c, index) => ({
                name: c.name,
                passed: c.passed,
                expectations: c.expectations.map((e) => ({
                  referenceId: e.referenceId,
                  expected: e.expected,
                  ...(e.actual !== undefined ? { actual: e.actual } : {}),
                  ...(e.resource !== undefined ? { resource: e.resource } : {}),
                  ...(e.explanation !== undefined ? { explanation: e.explanation } : {}),
                  ...(e.reason !== undefined ? { reason: e.reason } : {}),
                  passed: e.passed,
                  range: expectationRange(text, index, e.referenceId),
                })),
              })),
            },
      ),
    };
  }
}

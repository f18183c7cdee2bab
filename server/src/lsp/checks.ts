// The check of one document, as push and pull diagnostics both run it (diagnostics.ts): at once, or a
// rule at a time so that waiting requests are answered between rules; and what is kept of its last result.
import { DiagnosticSeverity, type Diagnostic, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  validateDocument,
  validationSteps,
  siblingsOf,
  splitSetOf,
  validateSplitSet,
  NOT_A_POLICY_DOCUMENT,
  DIAGNOSTIC_SOURCE,
  type ValidationResult,
} from '../service';
import type { DocumentParses } from './documentCache';
import type { ServerHost } from './serverHost';
import type { Workspace } from './workspace';
import type { FixtureChecks } from './fixtureChecks';

/** Validation yields to waiting requests after this much work. */
const VALIDATION_SLICE_MS = 8;

/**
 * No silent pass: a document opened as a policy set (language 'policyset') that is valid JSON of no known
 * kind gets one information diagnostic on its first line saying why nothing else is reported.
 */
function notCheckedNotice(document: TextDocument, result: ValidationResult): Diagnostic[] | undefined {
  if (document.languageId !== 'policyset' || result.kind !== 'unknown' || result.diagnostics.length > 0) return undefined;
  const firstLine = document.getText({ start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }).replace(/\r?\n$/, '');
  return [
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: firstLine.length } },
      severity: DiagnosticSeverity.Information,
      source: DIAGNOSTIC_SOURCE,
      message: `Not checked: ${NOT_A_POLICY_DOCUMENT}. A set needs properties.policyDefinitions; a definition needs properties.policyRule.`,
      data: { rule: 'not-checked', messageId: 'notChecked' },
    },
  ];
}

/** The last diagnostics computed for a document: their counts (documentInfo) and, in onSave mode, themselves. */
export interface LastDiagnostics {
  version: number;
  /** Errors, warnings and information. */
  problems: number;
  errors: number;
  warnings: number;
  /** The diagnostics as JSON, in onSave mode only: a pull between saves answers with them. */
  json?: string;
}

function lastDiagnostics(version: number, diagnostics: Diagnostic[], keep: boolean): LastDiagnostics {
  let problems = 0;
  let errors = 0;
  let warnings = 0;
  for (const { severity } of diagnostics) {
    if ((severity ?? 1) <= 3) problems++;
    if (severity === 1) errors++;
    else if (severity === 2) warnings++;
  }
  return { version, problems, errors, warnings, json: keep ? JSON.stringify(diagnostics) : undefined };
}

export class DocumentChecks {
  /**
   * The last diagnostics computed per document: their counts (documentInfo) and, in onSave mode, the
   * diagnostics themselves as JSON text (a pull between saves answers with them; nothing else reads them).
   */
  private readonly results = new Map<string, LastDiagnostics>();
  /** The `policyset test` fixtures' own diagnostics (fixtureChecks.ts), added to a fixture's. */
  fixtures: FixtureChecks | undefined;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly parses: DocumentParses,
    private readonly workspace: Workspace,
    private readonly host: ServerHost,
    private readonly onSave: () => boolean,
    private readonly logError: (message: string) => void,
  ) {}

  last(uri: string): LastDiagnostics | undefined {
    return this.results.get(uri);
  }

  /** The counts of the document's current version, checking it now when they are not known. */
  counts(document: TextDocument): LastDiagnostics {
    const last = this.results.get(document.uri);
    if (last && last.version === document.version) return last;
    this.diagnose(document);
    return this.results.get(document.uri)!;
  }

  forget(uri: string): void {
    this.results.delete(uri);
  }

  forgetAll(): void {
    this.results.clear();
  }

  /** Validates at once (a pull request, or a request that needs the diagnostics now); `keep`: keep the parse (see DocumentParses). */
  diagnose(document: TextDocument, keep = true): Diagnostic[] {
    if (this.workspace.isIgnored(document.uri)) return this.keep(document, []);
    const asPart = this.diagnoseAsPart(document);
    if (asPart) return asPart;
    const policyDocument = this.parses.parsed(document, true, keep);
    return this.remember(document, validateDocument(policyDocument, this.workspace.validationOptions(document, policyDocument)));
  }

  /**
   * Validates a rule at a time, letting requests that arrive meanwhile (completion, hover) be answered
   * between rules (`pause`, after each slice of work), and gives up as soon as the document changes: its
   * newer version has a run of its own.
   */
  async diagnoseInSteps(document: TextDocument, keep: boolean, pause: () => Promise<void>): Promise<Diagnostic[] | undefined> {
    const current = () => this.documents.get(document.uri)?.version === document.version;
    if (this.workspace.isIgnored(document.uri)) return this.keep(document, []);
    const asPart = this.diagnoseAsPart(document);
    if (asPart) return asPart;
    const policyDocument = this.parses.parsed(document, true, keep);
    const steps = validationSteps(policyDocument, this.workspace.validationOptions(document, policyDocument));
    let sliceStart = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return this.remember(document, step.value);
      if (performance.now() - sliceStart > VALIDATION_SLICE_MS) {
        await pause();
        if (!current()) return undefined;
        sliceStart = performance.now();
      }
    }
  }

  /** The other open parts of a document's split-layout set: a change to one part re-checks them. */
  openSiblings(uri: string): TextDocument[] {
    return siblingsOf(uri)
      .map((s) => this.documents.get(s))
      .filter((d): d is TextDocument => !!d);
  }

  /**
   * A part of a set in the split layout (`<base>.definitions.json`, `.parameters.json`, `.groups.json`): the
   * set is assembled from the open parts and, for the others, the files on disk, and checked as one.
   */
  private diagnoseAsPart(document: TextDocument): Diagnostic[] | undefined {
    const parts = splitSetOf(document.uri, (sibling) => this.documents.get(sibling)?.getText() ?? this.host.readFile(sibling));
    if (!parts) return undefined;
    return this.keep(document, validateSplitSet(parts, this.workspace.validationOptions(document)).get(document.uri) ?? []);
  }

  private remember(document: TextDocument, result: ValidationResult): Diagnostic[] {
    for (const failure of result.internalErrors) this.logError(`rule ${failure.rule} failed on ${document.uri}: ${failure.message}`);
    const fixture = this.fixtures?.diagnostics(document) ?? [];
    return this.keep(document, [...(notCheckedNotice(document, result) ?? result.diagnostics), ...fixture]);
  }

  private keep(document: TextDocument, diagnostics: Diagnostic[]): Diagnostic[] {
    this.results.set(document.uri, lastDiagnostics(document.version, diagnostics, this.onSave()));
    return diagnostics;
  }
}

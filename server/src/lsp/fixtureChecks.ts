// The diagnostics of the `policyset test` fixtures open in the editor (docs/evaluate.md, "In the editor"). A
// run reads files, so it is asynchronous: a check of a fixture starts one for its version and answers with
// the last results meanwhile; when the run ends the document is checked again (`ready`) and gets them.
import { parse } from 'jsonc-parser';
import type { Diagnostic, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isFixture } from '../service';
import { fixtureDiagnostics } from '../service/features';
import type { ServerHost } from './serverHost';

/** Whether an open document is a fixture, by content as `policyset test` takes it ("target" and "cases"). */
export function isFixtureText(text: string): boolean {
  if (!text.includes('"cases"') || !text.includes('"target"')) return false;
  return isFixture(parse(text, [], { allowTrailingComma: true }));
}

export class FixtureChecks {
  /** The last results per fixture, for the version they were made of (-1: files it names changed since). */
  private readonly results = new Map<string, { version: number; diagnostics: Diagnostic[] }>();
  /** The version being run, per fixture. */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly run: ServerHost['runFixture'],
    private readonly documents: TextDocuments<TextDocument>,
    private readonly ready: (document: TextDocument) => void,
    private readonly logError: (message: string) => void,
  ) {}

  /** The fixture diagnostics of a document: none when it is not a fixture or fixtures cannot be run here (the browser). */
  diagnostics(document: TextDocument): Diagnostic[] {
    if (!this.run || !isFixtureText(document.getText())) {
      this.results.delete(document.uri);
      return [];
    }
    const last = this.results.get(document.uri);
    if (last?.version === document.version) return last.diagnostics;
    this.start(document);
    return last?.diagnostics ?? [];
  }

  forget(uri: string): void {
    this.results.delete(uri);
    this.running.delete(uri);
  }

  /** Files changed on disk (a set, a definition or a resource a fixture names): every open fixture runs again. */
  filesChanged(): void {
    this.running.clear();
    for (const [uri, last] of this.results) {
      this.results.set(uri, { ...last, version: -1 });
      const document = this.documents.get(uri);
      if (document) this.ready(document);
    }
  }

  private start(document: TextDocument): void {
    const { uri, version } = document;
    if (this.running.get(uri) === version || !this.run) return;
    this.running.set(uri, version);
    const text = document.getText();
    this.run(uri, text)
      .then((run) => {
        if (this.running.get(uri) === version) this.running.delete(uri);
        const current = this.documents.get(uri);
        if (current?.version !== version) return;
        this.results.set(uri, { version, diagnostics: run ? fixtureDiagnostics(text, run) : [] });
        this.ready(current);
      })
      .catch((error: Error) => {
        if (this.running.get(uri) === version) this.running.delete(uri);
        this.logError(`the fixture ${uri} could not be run: ${error.message}`);
      });
  }
}

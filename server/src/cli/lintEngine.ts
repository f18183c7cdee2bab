import { isUtf8 } from 'node:buffer';
import { POLICY_FILE } from '../node/files';
import { validateText, decodeUtf8, NOT_A_POLICY_DOCUMENT, cloudOfPath, type DefinitionCatalog, type DocumentKind, type PolicySetDiagnostic, type SeverityName, type SeveritySetting } from '../service';
import { LARGE_DOCUMENT } from '../service/json';

/** What a worker or the main thread needs to lint files the same way. */
export interface LintSettings {
  severities: Record<string, SeveritySetting>;
  minSeverity?: SeverityName;
  cloud?: string;
  docsBaseUrl?: string;
  /** Compute FileResult.identities (only SARIF fingerprints use them; other reports skip the work). */
  identities?: boolean;
  /** `lint --against <revision>`: each set is checked against its file at that revision (version-not-bumped). */
  against?: { revision: string; referenceAdded: 'minor' | 'major' };
}

/** The file's text at the --against revision, for the sets among the files (undefined when it is new since). */
function previousOf(file: string, text: string, against: LintSettings['against']): { text: string; label: string; referenceAdded: 'minor' | 'major' } | undefined {
  if (!against || !text.includes('olicyDefinitions')) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- git is run only with --against
  const previous = (require('./git') as typeof import('./git')).showAtRevision(against.revision, file);
  return previous === undefined ? undefined : { text: previous, label: against.revision, referenceAdded: against.referenceAdded };
}

export interface FileResult {
  file: string;
  kind: DocumentKind;
  diagnostics: PolicySetDiagnostic[];
  /** Not a policy document: nothing to report. */
  skipped: boolean;
  /** Named on the command line but not checked, and why: said to the user, never passed over in silence. */
  notChecked?: string;
  /** A file that could not be read. */
  error?: string;
  /** A rule failed on this file: a bug in this tool, reported so it is not hidden. */
  internalErrors: Array<{ rule: string; message: string }>;
  /**
   * Per diagnostic, what identifies it apart from where it is: its code, the flagged text (whitespace
   * folded) and which occurrence of that pair it is. SARIF fingerprints are made of this and the file,
   * so an alert keeps its fingerprint when lines are inserted above it.
   */
  identities: string[];
}

/** See FileResult.identities. */
export function diagnosticIdentities(text: string, diagnostics: PolicySetDiagnostic[]): string[] {
  if (!diagnostics.length) return [];
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const offset = (p: { line: number; character: number }) => (starts[p.line] ?? text.length) + p.character;
  const seen = new Map<string, number>();
  return diagnostics.map((d) => {
    const flagged = text.slice(offset(d.range.start), offset(d.range.end)).replace(/\s+/g, ' ').slice(0, 500);
    const key = `${d.code}\u0000${flagged}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return `${key}\u0000${n}`;
  });
}

/** Valid UTF-8 (nearly every file) is decoded by Node's own fast path; decodeUtf8 finds where invalid bytes are. */
function decode(bytes: Uint8Array): ReturnType<typeof decodeUtf8> {
  return isUtf8(bytes) ? { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') } : decodeUtf8(bytes);
}

/** A file to lint: its bytes are read when it is linted. */
export interface LintTask {
  file: string;
  /** Its size when it was first read. */
  size: number;
  explicit: boolean;
  read: () => Uint8Array;
}

/** Lints a task; a file that cannot be read any more gives a result with the error. */
export function lintTask(task: LintTask, catalog: DefinitionCatalog | undefined, settings: LintSettings): FileResult {
  let bytes: Uint8Array;
  try {
    bytes = task.read();
  } catch (error) {
    return { file: task.file, kind: 'unknown', diagnostics: [], skipped: false, error: (error as Error).message, internalErrors: [], identities: [] };
  }
  return lintBytes(task.file, bytes, task.explicit, catalog, settings);
}

export function lintBytes(file: string, bytes: Uint8Array, explicit: boolean, catalog: DefinitionCatalog | undefined, settings: LintSettings): FileResult {
  const { text, encodingProblem } = decode(bytes);
  let previous;
  try {
    previous = previousOf(file, text, settings.against);
  } catch (error) {
    return { file, kind: 'unknown', diagnostics: [], skipped: false, error: (error as Error).message, internalErrors: [], identities: [] };
  }
  const result = validateText(text, {
    uri: file,
    definitions: catalog,
    cloud: settings.cloud ?? cloudOfPath(file),
    severities: settings.severities,
    minSeverity: settings.minSeverity,
    assumePolicyDocument: explicit || !!encodingProblem,
    encodingProblem,
    docsBaseUrl: settings.docsBaseUrl,
    previous,
  });
  // A document that is not a policy document, and not named on the command line, is left alone.
  let skipped = result.kind === 'unknown' && (!explicit || result.diagnostics.length === 0) && !encodingProblem;
  let notChecked: string | undefined;
  if (explicit && result.kind === 'unknown' && !encodingProblem) {
    if (skipped) notChecked = NOT_A_POLICY_DOCUMENT;
    else if (!POLICY_FILE.test(file) && result.diagnostics.every((d) => d.code === 'PS1001')) {
      // A named .txt (or any other) file that is not JSON is not a broken policy document.
      notChecked = 'not JSON, and not a .json or .jsonc file';
      skipped = true;
    }
  }
  // Too large for a tree: its syntax and size were checked (PS9006), nothing else. Never reported as a pass.
  if (!skipped && result.document.parsed.tooLarge) notChecked = `over ${LARGE_DOCUMENT / 1048576} MiB, only its syntax and size were checked (none of its content)`;
  const diagnostics = skipped ? [] : result.diagnostics;
  return {
    file,
    kind: result.kind,
    diagnostics,
    skipped,
    notChecked,
    internalErrors: result.internalErrors,
    identities: settings.identities === false ? [] : diagnosticIdentities(text, diagnostics),
  };
}

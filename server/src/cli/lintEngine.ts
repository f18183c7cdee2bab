import { isUtf8 } from 'node:buffer';
import { validateText, decodeUtf8, cloudOfPath, type DefinitionCatalog, type DocumentKind, type PolicySetDiagnostic, type SeverityName, type SeveritySetting } from '../service';

/** What a worker or the main thread needs to lint files the same way. */
export interface LintSettings {
  severities: Record<string, SeveritySetting>;
  minSeverity?: SeverityName;
  cloud?: string;
  docsBaseUrl?: string;
}

export interface FileResult {
  file: string;
  kind: DocumentKind;
  diagnostics: PolicySetDiagnostic[];
  /** Not a policy document: nothing to report. */
  skipped: boolean;
  /** A file that could not be read. */
  error?: string;
  /** A rule failed on this file: a bug in this tool, reported so it is not hidden. */
  internalErrors: Array<{ rule: string; message: string }>;
}

/** Valid UTF-8 (nearly every file) is decoded by Node's own fast path; decodeUtf8 finds where invalid bytes are. */
function decode(bytes: Uint8Array): ReturnType<typeof decodeUtf8> {
  return isUtf8(bytes) ? { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') } : decodeUtf8(bytes);
}

export function lintBytes(file: string, bytes: Uint8Array, explicit: boolean, catalog: DefinitionCatalog | undefined, settings: LintSettings): FileResult {
  const { text, encodingProblem } = decode(bytes);
  const result = validateText(text, {
    uri: file,
    definitions: catalog,
    cloud: settings.cloud ?? cloudOfPath(file),
    severities: settings.severities,
    minSeverity: settings.minSeverity,
    assumePolicyDocument: explicit || !!encodingProblem,
    encodingProblem,
    docsBaseUrl: settings.docsBaseUrl,
  });
  // A document that is not a policy document, and not named on the command line, is left alone.
  const skipped = result.kind === 'unknown' && (!explicit || result.diagnostics.length === 0) && !encodingProblem;
  return {
    file,
    kind: result.kind,
    diagnostics: skipped ? [] : result.diagnostics,
    skipped,
    internalErrors: result.internalErrors,
  };
}

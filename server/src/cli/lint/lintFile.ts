import { isUtf8 } from 'node:buffer';
import { POLICY_FILE } from '../../node/files';
import {
  validateText,
  decodeText,
  encodingOf,
  mentionsPolicyKeys,
  placeholderAtSyntaxError,
  NOT_A_POLICY_DOCUMENT,
  cloudOfPath,
  uncheckedTotal,
  type UncheckedReferences,
  type DefinitionCatalog,
  type DocumentKind,
  type PolicySetDiagnostic,
  type SeverityName,
  type SeveritySetting,
  type ValidateOptions,
} from '../../service';
import type { ConsumerSite } from '../../service/consumers';
import { LARGE_DOCUMENT } from '../../service/json';
import { parseDocumentText } from '../../service/json/documentValue';
import { fixAllDocument, type AppliedFix } from '../../service/features/fixAll';
import type { FixKind, TextEncodingName } from '../../service';
import { hashText } from '../../service/text';

/** What a worker or the main thread needs to lint files the same way. */
export interface LintSettings {
  severities: Record<string, SeveritySetting>;
  minSeverity?: SeverityName;
  cloud?: string;
  docsBaseUrl?: string;
  /** Compute FileResult.identities (only SARIF fingerprints use them; other reports skip the work). */
  identities?: boolean;
  /** `lint --against <revision>`: each set is checked against its file at that revision (version-not-bumped). */
  against?: {
    revision: string;
    referenceAdded: 'minor' | 'major';
    referenceRemoved?: 'minor' | 'major';
    /** --consumers: where the assignments are (default: the files linted). */
    consumerPaths?: string[];
    /** The consumers read there (by the engine, before the files are linted): the version check names what the changes break. */
    consumers?: ConsumerSite[];
  };
  /** `lint --fix` or `--fix-dry-run`: apply the safe fixes (of these kinds; every kind when undefined). Nothing is written here. */
  fix?: { kinds?: FixKind[] };
}

/** What `--fix` did to a file's text (written, or not, by the lint command). */
export interface FileFix {
  /** The fixed text. */
  output: string;
  fixes: AppliedFix[];
  /** hashText of the text that was fixed: the file is written only if it still holds that text. */
  sourceHash: string;
  /** The encoding it was read in, and is written back in. */
  encoding?: TextEncodingName;
  /** The report of the text before the fixes: it stands when the fixed text is not written. */
  before: { diagnostics: PolicySetDiagnostic[]; identities: string[] };
  /** A pass left out because it would have made the file worse (see fixAll.ts). */
  rejected?: { reason: string; fixes: string[] };
}

/** The file's text at the --against revision, for the sets among the files (undefined when it is new since). */
function previousOf(file: string, text: string, against: LintSettings['against']): ValidateOptions['previous'] {
  if (!against || !text.includes('olicyDefinitions')) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- git is run only with --against
  const previous = (require('../versions/git') as typeof import('../versions/git')).showAtRevision(against.revision, file);
  return previous === undefined
    ? undefined
    : {
        text: previous,
        label: against.revision,
        referenceAdded: against.referenceAdded,
        referenceRemoved: against.referenceRemoved,
        consumers: against.consumers,
      };
}

/**
 * JSON with comments and trailing commas, as its readers take it (the policy-as-code framework's assignment
 * and exemption files are .jsonc): other JSON in a walk, never "not JSON".
 */
function isJsonc(text: string): boolean {
  try {
    parseDocumentText(text);
    return true;
  } catch {
    return false;
  }
}

export interface FileResult {
  file: string;
  kind: DocumentKind;
  diagnostics: PolicySetDiagnostic[];
  /** Not a policy document: nothing to report. */
  skipped: boolean;
  /**
   * Why a file found in a folder was skipped when it is not even JSON (or not UTF-8) and names no policy key
   * (a generator's template with placeholders, a UTF-16 template of another product): listed as skipped in
   * every format, not reported as errors.
   */
  skipReason?: string;
  /** Named on the command line but not checked, and why: said to the user, never passed over in silence. */
  notChecked?: string;
  /** A file that could not be read. */
  error?: string;
  /** `--fix`: the fixed text, when fixes were applied (see FileFix). */
  fix?: FileFix;
  /** `--fix`: why a file with problems was not fixed (not UTF-8, too large, a split-set part). */
  notFixed?: string;
  /** A rule failed on this file: a bug in this tool, reported so it is not hidden. */
  internalErrors: Array<{ rule: string; message: string }>;
  /** References whose definition was not checked, and why (none for a skipped file). */
  unchecked?: UncheckedReferences;
  /** Assignments in the file whose set is not among the known ones, so not checked against it. */
  unresolvedAssignments?: number;
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

/**
 * Valid UTF-8 without a byte order mark (nearly every file) is decoded by Node's own fast path; decodeText
 * reads the other encodings it knows by their first bytes, and finds where invalid bytes are.
 */
function decode(bytes: Uint8Array): ReturnType<typeof decodeText> {
  return !encodingOf(bytes) && isUtf8(bytes)
    ? { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') }
    : decodeText(bytes);
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
export function lintTask(
  task: LintTask,
  catalog: DefinitionCatalog | undefined,
  settings: LintSettings,
  extra: Pick<ValidateOptions, 'libraryAssignments' | 'assignments'> = {},
): FileResult {
  let bytes: Uint8Array;
  try {
    bytes = task.read();
  } catch (error) {
    return unreadableResult(task.file, error);
  }
  return lintBytes(task.file, bytes, task.explicit, catalog, settings, extra);
}

/** The result of a file that could not be read (or linted): the error, nothing checked. */
export function unreadableResult(file: string, error: unknown): FileResult {
  return {
    file,
    kind: 'unknown',
    diagnostics: [],
    skipped: false,
    error: (error as Error).message,
    internalErrors: [],
    identities: [],
  };
}

export function lintBytes(
  file: string,
  bytes: Uint8Array,
  explicit: boolean,
  catalog: DefinitionCatalog | undefined,
  settings: LintSettings,
  /** What the host adds for some files (the assignment files that default values, exemptions and enrollments name). */
  extra: Pick<ValidateOptions, 'libraryAssignments' | 'assignments'> = {},
): FileResult {
  const { text, encodingProblem, encoding } = decode(bytes);
  // A file that is not UTF-8 is reported as a policy document when it is named, or when its text names a
  // policy key; one found in a folder that names none is some other product's file.
  const policyLike = !!encodingProblem && (explicit || mentionsPolicyKeys(text));
  let previous;
  try {
    previous = previousOf(file, text, settings.against);
  } catch (error) {
    return { file, kind: 'unknown', diagnostics: [], skipped: false, error: (error as Error).message, internalErrors: [], identities: [] };
  }
  const validateOptions = {
    uri: file,
    definitions: catalog,
    cloud: settings.cloud ?? cloudOfPath(file),
    severities: settings.severities,
    minSeverity: settings.minSeverity,
    assumePolicyDocument: explicit || policyLike,
    encodingProblem,
    encoding,
    docsBaseUrl: settings.docsBaseUrl,
    previous,
    ...extra,
  };
  let result = validateText(text, validateOptions);
  // A document that is not a policy document, and not named on the command line, is left alone.
  let skipped = result.kind === 'unknown' && (!explicit || result.diagnostics.length === 0) && !policyLike;
  let skipReason: string | undefined;
  if (skipped && !explicit) {
    // Not JSON at all (or not UTF-8): said, so that no one takes it for a file that was checked.
    if (encodingProblem) skipReason = 'not UTF-8 text, and no policy key in it';
    else if (result.document.parsed.syntaxErrors.length && !isJsonc(text))
      skipReason = `not JSON${encoding ? ` (${encoding})` : ''}, and no policy key in it`;
  }
  // A generator's template of a policy file (placeholders such as ##POLICY_KIND## where JSON needs a value or a
  // property) is not a policy document until a script fills it in: skipped when found in a folder, said why.
  const syntaxErrors = result.document.parsed.syntaxErrors;
  if (!explicit && syntaxErrors.length && !encodingProblem) {
    const placeholder = placeholderAtSyntaxError(
      text,
      syntaxErrors.map((e) => e.offset),
    );
    if (placeholder) {
      skipped = true;
      skipReason = `a generator's template, not JSON until its placeholders (${placeholder}) are filled in`;
    }
  }
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
  if (!skipped && result.document.parsed.tooLarge)
    notChecked = `over ${LARGE_DOCUMENT / 1048576} MiB, only its syntax and size were checked (none of its content)`;
  let diagnostics = skipped ? [] : result.diagnostics;
  const identities = (of: string) => (settings.identities === false ? [] : diagnosticIdentities(of, diagnostics));
  let fix: FileFix | undefined;
  let notFixed: string | undefined;
  if (settings.fix && !skipped && diagnostics.length) {
    // Only what is written back as it was read: text with bytes that are not UTF-8 would lose them.
    if (encodingProblem) notFixed = 'not UTF-8 text: written back, its invalid bytes would be lost';
    else if (result.document.parsed.tooLarge) notFixed = `over ${LARGE_DOCUMENT / 1048576} MiB, only its syntax and size were checked`;
    else {
      const before = { diagnostics, identities: identities(text) };
      const fixed = fixAllDocument(result.document, { ...validateOptions, kinds: settings.fix.kinds }, result);
      if (fixed.changed || fixed.rejected) {
        result = fixed.result;
        diagnostics = result.diagnostics;
        fix = {
          output: fixed.output,
          fixes: fixed.fixes,
          sourceHash: hashText(text),
          encoding,
          before,
          ...(fixed.rejected ? { rejected: { reason: fixed.rejected.reason, fixes: fixed.rejected.fixes } } : {}),
        };
      }
    }
  }
  return {
    file,
    kind: result.kind,
    diagnostics,
    skipped,
    skipReason,
    notChecked,
    internalErrors: result.internalErrors,
    ...(skipped || !uncheckedTotal(result.unchecked) ? {} : { unchecked: result.unchecked }),
    ...(skipped || !result.unresolvedAssignments ? {} : { unresolvedAssignments: result.unresolvedAssignments }),
    identities: identities(fix ? fix.output : text),
    ...(fix ? { fix } : {}),
    ...(notFixed ? { notFixed } : {}),
  };
}

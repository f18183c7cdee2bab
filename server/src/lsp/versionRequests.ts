// The language server's two custom requests for the version check. The server never runs git: a client
// hands over a document's earlier text (VS Code: the committed text, from its git extension), and asks
// for the change report the extension shows. Both are computed by the service (service/versions).
import { ResponseError, ErrorCodes } from 'vscode-languageserver';
import { compareTexts, type ChangeReport } from '../service';
import { LARGE_DOCUMENT } from '../service/json';

/** `{ textDocument: { uri }, text: string | null, label?: string }`: the earlier text of a document (null forgets it). */
export const PREVIOUS_TEXT_REQUEST = 'policySet/setPreviousText';
/** `{ textDocument: { uri } }` → ChangeReportAnswer: the changes since the earlier text. */
export const CHANGE_REPORT_REQUEST = 'policySet/changeReport';

export interface PreviousText {
  text: string;
  /** How messages name it ('HEAD'). */
  label: string;
}

export function previousTextParams(params: unknown): { uri: string; previous: PreviousText | undefined } {
  const p = (params ?? {}) as { textDocument?: { uri?: unknown }; text?: unknown; label?: unknown };
  const uri = p.textDocument?.uri;
  if (typeof uri !== 'string' || !uri) throw new ResponseError(ErrorCodes.InvalidParams, `${PREVIOUS_TEXT_REQUEST}: textDocument.uri is required`);
  if (p.text === null || p.text === undefined) return { uri, previous: undefined };
  if (typeof p.text !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, `${PREVIOUS_TEXT_REQUEST}: text is a string, or null to forget it`);
  if (p.text.length > LARGE_DOCUMENT) throw new ResponseError(ErrorCodes.InvalidParams, `${PREVIOUS_TEXT_REQUEST}: the text is larger than ${LARGE_DOCUMENT / 1024 / 1024} MB`);
  const label = typeof p.label === 'string' && p.label ? p.label.slice(0, 100) : 'the previous text';
  return { uri, previous: { text: p.text, label } };
}

export interface ChangeReportAnswer {
  /** false: no earlier text was given for this document. */
  compared: boolean;
  /** Why nothing could be compared (the earlier or the current text is no set, or not JSON). */
  problem?: string;
  label?: string;
  reports: Array<{
    oldVersion: string | null;
    newVersion: string | null;
    requiredBump: ChangeReport['requiredBump'];
    suggestedVersion: string | null;
    versionOk: boolean | null;
    versionProblem: string | null;
    /** The line of the version in the document (0-based), when it has one. */
    versionLine: number | null;
    changes: Array<{ kind: string; bump: string; message: string; path: string; side: 'old' | 'new'; range: { start: { line: number; character: number }; end: { line: number; character: number } } }>;
  }>;
}

/** The changes of a document since its earlier text; locations of removed things are where they were taken from. */
export function changeReport(uri: string, text: string, previous: (PreviousText & { referenceAdded?: 'minor' | 'major' }) | undefined): ChangeReportAnswer {
  if (!previous) return { compared: false, reports: [] };
  const result = compareTexts({ file: previous.label, text: previous.text }, { file: uri, text }, { referenceAdded: previous.referenceAdded });
  if (!result.ok) return { compared: true, label: previous.label, problem: result.problem, reports: [] };
  return {
    compared: true,
    label: previous.label,
    reports: result.reports.map((report) => ({
      oldVersion: report.old?.version ?? null,
      newVersion: report.new?.version ?? null,
      requiredBump: report.requiredBump,
      suggestedVersion: report.suggestedVersion ?? null,
      versionOk: report.versionOk,
      versionProblem: report.versionProblem ?? null,
      versionLine: report.versionLocation ? report.versionLocation.range.start.line : null,
      changes: report.changes.map((change) => ({
        kind: change.kind,
        bump: change.bump,
        message: change.message,
        path: change.location.pointer,
        side: change.side,
        range: (change.inNew ?? change.location).range,
      })),
    })),
  };
}

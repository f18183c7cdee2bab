// The language server's custom requests (server/README.md; names and shapes in protocol.ts): what the
// extension's status item shows, the quota figures and plans of its quota commands, and the two of the
// version check. The server never runs git: a client hands over a document's earlier text (VS Code: the
// committed text, from its git extension), and asks for the change report the extension shows. All are
// computed by the service (service/quota, service/versions).
import { ResponseError, ErrorCodes, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { compareTexts, RULES } from '../service';
import { LARGE_DOCUMENT } from '../service/json';
import { applyPlanAnswer, quotaFigures, regionsWithRoom, type ApplyPlanParams, type QuotaFiguresParams } from '../service/quota';
import {
  APPLY_PLAN_REQUEST,
  CHANGE_REPORT_REQUEST,
  DOCUMENT_DIAGNOSTICS_REQUEST,
  DOCUMENT_INFO_REQUEST,
  EVALUATE_REQUEST,
  FIXTURE_RESULTS_REQUEST,
  PREVIOUS_TEXT_REQUEST,
  QUOTA_FIGURES_REQUEST,
  REGIONS_WITH_ROOM_REQUEST,
  RULES_REQUEST,
  type ChangeReportAnswer,
  type DocumentDiagnosticsAnswer,
  type DocumentInfo,
  type DocumentInfoParams,
  type EvaluateParams,
  type FixtureResultsAnswer,
  type PreviousTextAnswer,
  type RegionsWithRoomParams,
  type RuleSummary,
} from './protocol';
import { paramsRunner, type Runner } from './runner';
import { evaluateRequest } from './evaluateRequest';
import type { DocumentChecks } from './checks';
import type { DiagnosticsSupport } from './diagnostics';
import type { PreviousText, Workspace } from './workspace';
import { FixtureLenses } from './fixtureLenses';

export interface CustomRequestsContext {
  connection: Connection;
  handle: Runner;
  checks: DocumentChecks;
  diagnostics: () => DiagnosticsSupport | undefined;
  workspace: Workspace;
  documents: TextDocuments<TextDocument>;
  fixtureLenses: FixtureLenses;
}

export function registerCustomRequests({
  connection,
  handle,
  checks,
  diagnostics,
  workspace,
  documents,
  fixtureLenses,
}: CustomRequestsContext): void {
  // The fixtures that name the set or definition, run: what its code lens's command shows.
  connection.onRequest(
    FIXTURE_RESULTS_REQUEST,
    handle(
      FIXTURE_RESULTS_REQUEST,
      async (d): Promise<FixtureResultsAnswer> => FixtureLenses.answer(await fixtureLenses.run(await fixtureLenses.fixturesNaming(d.uri))),
      { fixtures: [] },
      { model: false },
    ),
  );
  const documentInfo = handle(
    DOCUMENT_INFO_REQUEST,
    (d, p): DocumentInfo => {
      const last = checks.counts(d);
      return { kind: p.kind, problems: last.problems, errors: last.errors, warnings: last.warnings };
    },
    null,
  );
  // `{ textDocument: { uri } }` as in every LSP request, or `{ uri }`.
  connection.onRequest(DOCUMENT_INFO_REQUEST, (params: DocumentInfoParams, token) =>
    documentInfo({ textDocument: params.textDocument ?? { uri: params.uri ?? '' } }, token),
  );
  // The extension's language-model tools: a document's diagnostics, checked now, and the rules.
  const documentDiagnostics = handle(
    DOCUMENT_DIAGNOSTICS_REQUEST,
    (d, p): DocumentDiagnosticsAnswer => ({
      uri: d.uri,
      kind: p.kind,
      diagnostics: checks.diagnose(d).map(({ range, severity, code, message }) => ({
        range,
        severity,
        code,
        message: typeof message === 'string' ? message : message.value,
      })),
    }),
    null,
  );
  connection.onRequest(DOCUMENT_DIAGNOSTICS_REQUEST, (params: { textDocument: { uri: string } }, token) =>
    documentDiagnostics(params, token),
  );
  connection.onRequest(RULES_REQUEST, (): RuleSummary[] =>
    RULES.map((r) => ({ code: r.meta.code, name: r.meta.name, defaultSeverity: r.meta.defaultSeverity, description: r.meta.description })),
  );
  // The extension's quota commands ask here for their figures: one quota model, in the service.
  connection.onRequest(
    QUOTA_FIGURES_REQUEST,
    paramsRunner('quota figures', (params: QuotaFiguresParams) => quotaFigures(params ?? {}, workspace.quotaTable())),
  );
  // The version check: the client hands over a document's earlier text (the committed one), and asks for the change report.
  connection.onRequest(PREVIOUS_TEXT_REQUEST, (params: unknown): PreviousTextAnswer => {
    const { uri, previous } = previousTextParams(params);
    if (previous) workspace.previousTexts.set(uri, previous);
    else workspace.previousTexts.delete(uri);
    const document = documents.get(uri);
    if (document) diagnostics()?.recheck(document);
    return { uri, previous: !!previous };
  });
  const changeReportOf = handle(CHANGE_REPORT_REQUEST, (d) => changeReport(d.uri, d.getText(), workspace.previousOf(d.uri)), null);
  connection.onRequest(CHANGE_REPORT_REQUEST, (params: { textDocument: { uri: string } }, token) => changeReportOf(params, token));
  // Apply Deployment Plan: the plan's targets, then the reconciliation of what the extension read.
  connection.onRequest(
    APPLY_PLAN_REQUEST,
    paramsRunner('apply plan', (params: ApplyPlanParams) => applyPlanAnswer(params ?? { text: '' }, workspace.quotaTable())),
  );
  // The offline evaluator (docs/evaluate.md): every document comes in the params.
  connection.onRequest(
    EVALUATE_REQUEST,
    paramsRunner('evaluate', (params: EvaluateParams) => evaluateRequest(params)),
  );
  connection.onRequest(REGIONS_WITH_ROOM_REQUEST, (params: RegionsWithRoomParams) => {
    if (typeof params?.model !== 'string' || typeof params.tpm !== 'number' || !Array.isArray(params.reads))
      throw new ResponseError(ErrorCodes.InvalidParams, 'regions with room: give model, tpm and reads');
    return regionsWithRoom(params.model, params.sku ?? 'Standard', params.tpm, params.reads);
  });
}

export function previousTextParams(params: unknown): { uri: string; previous: PreviousText | undefined } {
  const p = (params ?? {}) as { textDocument?: { uri?: unknown }; text?: unknown; label?: unknown };
  const uri = p.textDocument?.uri;
  if (typeof uri !== 'string' || !uri)
    throw new ResponseError(ErrorCodes.InvalidParams, `${PREVIOUS_TEXT_REQUEST}: textDocument.uri is required`);
  if (p.text === null || p.text === undefined) return { uri, previous: undefined };
  if (typeof p.text !== 'string')
    throw new ResponseError(ErrorCodes.InvalidParams, `${PREVIOUS_TEXT_REQUEST}: text is a string, or null to forget it`);
  if (p.text.length > LARGE_DOCUMENT)
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      `${PREVIOUS_TEXT_REQUEST}: the text is larger than ${LARGE_DOCUMENT / 1024 / 1024} MB`,
    );
  const label = typeof p.label === 'string' && p.label ? p.label.slice(0, 100) : 'the previous text';
  return { uri, previous: { text: p.text, label } };
}

/** The changes of a document since its earlier text; locations of removed things are where they were taken from. */
export function changeReport(
  uri: string,
  text: string,
  previous: (PreviousText & { referenceAdded?: 'minor' | 'major'; referenceRemoved?: 'minor' | 'major' }) | undefined,
): ChangeReportAnswer {
  if (!previous) return { compared: false, reports: [] };
  const result = compareTexts(
    { file: previous.label, text: previous.text },
    { file: uri, text },
    { referenceAdded: previous.referenceAdded, referenceRemoved: previous.referenceRemoved },
  );
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

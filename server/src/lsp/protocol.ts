// The language server's own requests, notification and command (server/README.md, "Contract"): their
// names and the shapes of what they take and answer. The one definition for both ends: the extension
// imports this file too, as '#protocol' (package.json `imports`; the only server file the client may
// import, by lint). At run time it imports nothing: the quota requests' shapes, which the pure service
// defines, are re-exported as types only.

export type { QuotaFigures, QuotaFiguresParams } from '../service/quota/figures';
export type { ApplyPlanAnswer, ApplyPlanParams } from '../service/quota/apply';
export type { RegionRoom } from '../service/quota/where';

/** A position range as LSP has it. */
export interface ProtocolRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** Request: what the extension's status item shows. Params: `{ textDocument: { uri } }`, as every LSP request, or `{ uri }`. */
export const DOCUMENT_INFO_REQUEST = 'policySet/documentInfo';
export interface DocumentInfoParams {
  textDocument?: { uri: string };
  uri?: string;
}
export interface DocumentInfo {
  /** The document kind: policySetDefinition, policySetDefinitionVersion, armTemplate, policyDefinition, unknown, … */
  kind: string;
  /** Errors, warnings and information (hints are not counted). */
  problems: number;
  errors: number;
  warnings: number;
}

/** Request: the quota figures the extension's quota commands show (params and answer: server/src/service/quota/figures.ts). */
export const QUOTA_FIGURES_REQUEST = 'policySet/quotaFigures';
/** Request: the extension's Apply Deployment Plan (params and answer: server/src/service/quota/apply.ts, applyPlanAnswer). */
export const APPLY_PLAN_REQUEST = 'policySet/applyPlan';
/** Request: the extension's Find a Region with Quota (answer: server/src/service/quota/where.ts). */
export const REGIONS_WITH_ROOM_REQUEST = 'policySet/regionsWithRoom';
export interface RegionsWithRoomParams {
  model: string;
  sku?: string;
  tpm: number;
  /** The usage read per region (E7: shaped as service/quota/usage.ts's Usage), or why it could not be read. */
  reads: Array<{
    location: string;
    value?: Array<{ name?: { value?: string; localizedValue?: string }; currentValue?: number; limit?: number; unit?: string }>;
    error?: string;
  }>;
}

/**
 * Request, for the version check: a document's earlier text (VS Code: the committed text, from its git
 * extension; the server runs no git). `text: null` forgets it.
 */
export const PREVIOUS_TEXT_REQUEST = 'policySet/setPreviousText';
export interface PreviousTextParams {
  textDocument: { uri: string };
  text: string | null;
  /** How messages name it ('HEAD'). */
  label?: string;
}
export interface PreviousTextAnswer {
  uri: string;
  /** Whether an earlier text is held now. */
  previous: boolean;
}

/** Request `{ textDocument: { uri } }` → ChangeReportAnswer: the changes of a document since its earlier text. */
export const CHANGE_REPORT_REQUEST = 'policySet/changeReport';
export type Bump = 'major' | 'minor' | 'patch' | 'none';
export interface ChangeReportAnswer {
  /** false: no earlier text was given for this document. */
  compared: boolean;
  /** Why nothing could be compared (the earlier or the current text is no set, or not JSON). */
  problem?: string;
  label?: string;
  reports: Array<{
    oldVersion: string | null;
    newVersion: string | null;
    requiredBump: Bump;
    suggestedVersion: string | null;
    versionOk: boolean | null;
    versionProblem: string | null;
    /** The line of the version in the document (0-based), when it has one. */
    versionLine: number | null;
    changes: Array<{ kind: string; bump: Bump; message: string; path: string; side: 'old' | 'new'; range: ProtocolRange }>;
  }>;
}

/**
 * Notification, client to server, understood by the browser's language server only: the workspace's files
 * that it cannot read itself, sent by the extension (client/src/browser/workspaceFiles.ts).
 */
export const WORKSPACE_FILES_NOTIFICATION = 'policySet/workspaceFiles';
export interface WorkspaceFilesParams {
  /** true: these files are all there is (what was held before and is not among them is dropped). */
  complete: boolean;
  /** Files created or changed: index files (a JSON array of definitions), definitions, sets, `.policysetrc.json`, parts of split sets. */
  files: Array<{ uri: string; text: string }>;
  /** Files deleted (or no longer of interest). */
  removed?: string[];
}

/** Command, for clients without code action literals: applies a quick fix's edit (`arguments: [WorkspaceEdit]`). */
export const APPLY_EDIT_COMMAND = 'policySet.applyFix';

/**
 * Client command that a set's code lens runs (`arguments: [uri, position, locations]`, LSP shapes): the
 * extension shows the locations as references (`editor.action.showReferences`). The server does not run it.
 */
export const SHOW_REFERENCES_COMMAND = 'policySet.showReferences';

/**
 * Request `{ textDocument: { uri } }` → DocumentDiagnosticsAnswer: a document's diagnostics, checked now (the
 * extension's language-model tool `policyset_lint` asks for the files a model names; null: not a document
 * the server has).
 */
export const DOCUMENT_DIAGNOSTICS_REQUEST = 'policySet/documentDiagnostics';
export interface DocumentDiagnosticsAnswer {
  uri: string;
  /** The document kind, as DocumentInfo's. */
  kind: string;
  /** As the server publishes them: LSP diagnostics (0-based positions; severity 1 error ... 4 hint). */
  diagnostics: Array<{ range: ProtocolRange; severity?: number; code?: string | number; message: string }>;
}

/** Request (no params) → RuleSummary[]: the rules, as `policyset rules --format json` lists them. */
export const RULES_REQUEST = 'policySet/rules';
export interface RuleSummary {
  code: string;
  name: string;
  defaultSeverity: string;
  description: string;
}

/**
 * Request, no params → WorkspaceStats: how much the workspace check (workspace diagnostics) did. Tests and
 * benchmarks read it to know that a change re-checked only the files that depend on it.
 */
export const WORKSPACE_STATS_REQUEST = 'policySet/workspaceStats';
export interface WorkspaceStats {
  /** Whether the workspace is checked (pulled by the client, or pushed with policySet.validate.workspace). */
  enabled: boolean;
  /** Whether its files were found (the check starts at the first workspace/diagnostic, or with the setting). */
  loaded: boolean;
  /** Files of the workspace check (.json and .jsonc files the config does not ignore). */
  files: number;
  /** Files checked since the server started, every check counted. */
  checked: number;
  /** Runs that checked at least one file, and how many the last one checked. */
  batches: number;
  lastBatch: number;
  /** Files waiting to be checked. */
  pending: number;
}

/**
 * Notification, server to client, while the workspace is being checked (the extension's language status
 * item: "Checking 1,234 of 3,018 files"). A `$/` notification: a client that does not know it ignores it.
 */
export const WORKSPACE_PROGRESS_NOTIFICATION = '$/policySet/workspaceProgress';
export interface WorkspaceProgress {
  /** Files checked in this run, and how many it has to check. */
  checked: number;
  total: number;
  /** The run is over (all files checked, or the check was stopped). */
  done: boolean;
  /** Files of the workspace check. */
  files: number;
}

/**
 * Request: what a policy set or definition would do to resources, offline (server/src/service/evaluate,
 * docs/evaluate.md). The client sends every document; the answer is `policyset evaluate --format json`'s.
 */
export const EVALUATE_REQUEST = 'policySet/evaluate';
export interface EvaluateParams {
  /** The set or definition document. */
  target: unknown;
  /** One resource, an array, an ARM template or a what-if result. */
  resources: unknown;
  /** Member definitions (documents with their policyRule). */
  definitions?: unknown[];
  assignment?: unknown;
  exemptions?: unknown[];
  /** More resources auditIfNotExists/deployIfNotExists look among, beside `resources` themselves. */
  related?: unknown;
  /** `{ subscription, resourceGroup, apiVersion, now }` */
  context?: unknown;
  /** An alias catalogue: `az provider list --expand resourceTypes/aliases` output, or `{ alias: path }`. */
  aliases?: unknown;
}

/**
 * Request: the `policyset test` fixtures of the workspace whose `target` is this set or definition, run
 * (docs/evaluate.md, "In the editor"): what the code lens "evaluate N samples: k fail" sums up. Params:
 * `{ textDocument: { uri } }`.
 */
export const FIXTURE_RESULTS_REQUEST = 'policySet/fixtureResults';
export interface FixtureResultsAnswer {
  fixtures: Array<{
    uri: string;
    /** Why the fixture cannot run (a file it names cannot be read); then no cases. */
    error?: string;
    cases: Array<{
      name: string;
      passed: boolean;
      expectations: Array<{
        referenceId: string;
        expected: string;
        /** Absent: no member has this reference ID. */
        actual?: string;
        resource?: string;
        /** The member's result in one sentence. */
        explanation?: string;
        reason?: string;
        passed: boolean;
        /** The expectation in the fixture. */
        range: ProtocolRange;
      }>;
    }>;
  }>;
}

/** The command of the code lens on a set or definition with fixtures: the extension shows their results. Argument: `{ uri }`. */
export const EVALUATE_SAMPLES_COMMAND = 'policySet.evaluateSamples';

// The `policySet` settings the server reads (server/README.md, "Settings"): from workspace/configuration
// when the client offers it, else from didChangeConfiguration or the initialization options.
import type { Connection } from 'vscode-languageserver';
import type { SeveritySetting } from '../service';

export interface ServerSettings {
  severities: Record<string, SeveritySetting>;
  /**
   * `workspace`: check every policy document of the workspace folders (workspace diagnostics). Undefined:
   * as the client can (on when it pulls them with workspace/diagnostic, off when diagnostics are pushed).
   */
  validate: { run: 'onType' | 'onSave'; workspace?: boolean };
  definitions: { paths: string[] };
  /** The cloud whose definitions win; empty: inferred from the document's path. */
  cloud: string;
  /** Deployment plans: a capacity-unit file over the built-in table, and saved usage files. */
  quota: { capacityUnitsFile: string; usageFiles: string[] };
  /** The version check (version-not-bumped): what a reference added asks of the version. */
  versions?: { referenceAdded: 'minor' | 'major'; referenceRemoved: 'minor' | 'major' };
  /** Which inlay hints are shown (each on unless set to false). */
  inlayHints: { definitions: boolean; parameterValues: boolean; definitionVersions: boolean };
}

export const DEFAULT_SETTINGS: ServerSettings = {
  severities: {},
  validate: { run: 'onType' },
  definitions: { paths: [] },
  cloud: '',
  quota: { capacityUnitsFile: '', usageFiles: [] },
  inlayHints: { definitions: true, parameterValues: true, definitionVersions: true },
};

/** The settings of a `policySet` section; what is missing or of the wrong type takes its default. */
export function readSettings(raw: unknown): ServerSettings {
  const s = (raw ?? {}) as Partial<Record<keyof ServerSettings, unknown>>;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const run = isObject(s.validate) && s.validate['run'] === 'onSave' ? 'onSave' : 'onType';
  const workspace = isObject(s.validate) && typeof s.validate['workspace'] === 'boolean' ? s.validate['workspace'] : undefined;
  const paths =
    isObject(s.definitions) && Array.isArray(s.definitions['paths'])
      ? s.definitions['paths'].filter((p): p is string => typeof p === 'string' && p.length > 0)
      : [];
  return {
    severities: isObject(s.severities) ? (s.severities as ServerSettings['severities']) : {},
    validate: workspace === undefined ? { run } : { run, workspace },
    definitions: { paths },
    cloud: typeof s.cloud === 'string' ? s.cloud : '',
    quota: {
      capacityUnitsFile: isObject(s.quota) && typeof s.quota['capacityUnitsFile'] === 'string' ? s.quota['capacityUnitsFile'] : '',
      usageFiles:
        isObject(s.quota) && Array.isArray(s.quota['usageFiles'])
          ? s.quota['usageFiles'].filter((p): p is string => typeof p === 'string' && p.length > 0)
          : [],
    },
    versions: {
      referenceAdded: isObject(s.versions) && s.versions['referenceAdded'] === 'major' ? 'major' : 'minor',
      referenceRemoved: isObject(s.versions) && s.versions['referenceRemoved'] === 'minor' ? 'minor' : 'major',
    },
    // On by default, for every client: a client shows inlay hints only when its user turned them on.
    inlayHints: {
      definitions: !(isObject(s.inlayHints) && s.inlayHints['definitions'] === false),
      parameterValues: !(isObject(s.inlayHints) && s.inlayHints['parameterValues'] === false),
      definitionVersions: !(isObject(s.inlayHints) && s.inlayHints['definitionVersions'] === false),
    },
  };
}

/** The settings the initialization options carry (`{ policySet: {...} }` or the section itself), or undefined. */
export function initialSettings(options: unknown): ServerSettings | undefined {
  const given = options as Record<string, unknown> | undefined;
  return given ? readSettings(given['policySet'] ?? given) : undefined;
}

/** Asks the client for the section; undefined when it has none or the request failed (logged). */
export async function fetchSettings(connection: Connection): Promise<ServerSettings | undefined> {
  try {
    const [section] = (await connection.workspace.getConfiguration([{ section: 'policySet' }])) as unknown[];
    if (section !== null && section !== undefined) return readSettings(section);
  } catch (error) {
    connection.console.error(`reading the policySet settings failed: ${(error as Error).message}`);
  }
  return undefined;
}

/** The section a didChangeConfiguration carries (clients without workspace/configuration), or undefined. */
export function changedSettings(change: { settings?: unknown }): ServerSettings | undefined {
  const section = (change.settings as { policySet?: unknown } | undefined)?.policySet;
  return section ? readSettings(section) : undefined;
}

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefinitionCatalog, decodeText, parsePolicyDocument, type DefinitionInfo, type SetInfo } from '../../service';
import { indexCatalog } from './indexCatalogs';
import { resolveDefinitionSources, isPolicyDefinition, isPolicySet, parseDocumentText } from '../../node/definitions';
import { bytesHash, definedBy, type Defined } from './sharedInfos';
import { POLICY_FILE, readUserFile } from '../../node/files';
import type { DefinitionSettings, FileChange, KnownDefinitions } from '../serverHost';

export type { DefinitionSettings, FileChange };

/** Folders scanned for policy definition files are capped, so a huge workspace costs a bounded time. */
const MAX_WORKSPACE_FILES = 20000;
const DELETED = 3;

function toPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

/** What one file adds to the known definitions: only what the rules read of it, not its text or tree. */
interface FileEntry {
  mtimeMs: number;
  size: number;
  definition?: { info: DefinitionInfo; key: 'id' | 'name' };
  set?: SetInfo;
  /** It holds assignments or exemptions of sets: a rename of a set's parameter edits it too. */
  consumer?: boolean;
}

/** A file read before at the size and time it has now: nothing to read again. */
const unchanged = (known: { mtimeMs: number; size: number } | undefined, stat: { mtimeMs: number; size: number }) =>
  !!known && known.mtimeMs === stat.mtimeMs && known.size === stat.size;

/** Entries compared by what they add (a set file saved with the same name and groups changes nothing). */
const sameContribution = (a: FileEntry | undefined, b: FileEntry | undefined) => {
  const json = (e: FileEntry | undefined) =>
    JSON.stringify([e?.definition, e?.set], (_key, value: unknown) => (value instanceof Map ? [...value] : value));
  return json(a) === json(b);
};

/**
 * The policy definitions the server knows: the configured index files and folders, the workspace's
 * policy definition files, and the open documents that are policy definitions (their unsaved text wins).
 * A scan walks the folders and reads only the files it has not read at their current size and time; a
 * watched-file change reads only the files that changed. Each file keeps what the rules read of it.
 * A path that cannot be read is reported, not fatal.
 */
/** Keys only consumers of sets have: a file without any is not parsed for them. */
const CONSUMER_KEYS = [
  'policyAssignments',
  '"nodeName"',
  '"policyAssignmentId"',
  '"nonComplianceMessages"',
  '"policyDefinitionReferenceIds"',
];

export class WorkspaceDefinitions implements KnownDefinitions {
  private base = new DefinitionCatalog();
  private generation = 0;
  /** Every operation runs after the previous one, so a change never races a scan. */
  private queue: Promise<unknown> = Promise.resolve();
  private indexes = new Map<string, { mtimeMs: number; size: number; catalog: DefinitionCatalog }>();
  private files = new Map<string, FileEntry>();
  /** The folders scanned last (configured folders and workspace folders) and the configured index files. */
  private roots: string[] = [];
  private indexFiles: string[] = [];
  catalog = new DefinitionCatalog();

  constructor(private readonly log: (message: string) => void) {}

  consumerFiles(): string[] {
    return [...this.files].filter(([, entry]) => entry.consumer).map(([file]) => file);
  }

  /** Scans again. Resolves to false when a newer scan was asked for meanwhile (its result wins). */
  reload(
    settings: DefinitionSettings,
    workspaceFolders: string[],
    openDefinitions: Array<{ uri: string; text: string }>,
  ): Promise<boolean> {
    const generation = ++this.generation;
    return this.enqueue(async () => {
      if (generation !== this.generation) return false;
      await this.scan(settings, workspaceFolders);
      if (generation !== this.generation) return false;
      this.rebuild();
      this.refreshOpen(openDefinitions);
      this.log(`Known policy definitions: ${this.catalog.size}; policy sets: ${this.catalog.setCount}.`);
      return true;
    });
  }

  /**
   * Applies watched-file changes: reads the changed files alone (a deleted folder drops what was under
   * it; a new folder is scanned). Resolves to whether the known definitions changed.
   */
  applyChanges(changes: FileChange[], openDefinitions: Array<{ uri: string; text: string }>): Promise<boolean> {
    return this.enqueue(async () => {
      let changed = false;
      for (const change of changes) {
        const file = toPath(change.uri);
        if (!file) continue;
        if (this.indexFiles.includes(file)) {
          this.indexes.delete(file);
          await this.loadIndex(file);
          changed = true;
          continue;
        }
        if (!this.roots.some((root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep))) continue;
        if (change.type === DELETED) {
          const prefix = file + path.sep;
          for (const known of [...this.files.keys()]) {
            if (known !== file && !known.startsWith(prefix)) continue;
            changed ||= !!(this.files.get(known)?.definition || this.files.get(known)?.set);
            this.files.delete(known);
          }
          continue;
        }
        let stat;
        try {
          stat = await fs.stat(file);
        } catch {
          continue; // Gone again already: its deletion comes as an event of its own.
        }
        if (stat.isDirectory()) {
          changed = (await this.scanFolder(file)) || changed;
        } else if (stat.isFile() && POLICY_FILE.test(file) && !file.split(path.sep).includes('node_modules')) {
          const before = this.files.get(file);
          const after = await this.readFile(file, stat);
          changed ||= !sameContribution(before, after);
        }
      }
      if (changed) this.rebuild();
      // The open documents' text may have been saved: it is on disk now, and still overlaid.
      this.refreshOpen(openDefinitions);
      if (changed) this.log(`Known policy definitions: ${this.catalog.size}; policy sets: ${this.catalog.setCount}.`);
      return changed;
    });
  }

  /** Overlays the open documents that are policy definitions on what was read from disk. */
  refreshOpen(openDefinitions: Array<{ uri: string; text: string }>): void {
    const parsed: Array<{ source: string; value: unknown }> = [];
    for (const { uri, text } of openDefinitions) {
      try {
        const value = parseDocumentText(text);
        if (isPolicyDefinition(value) || isPolicySet(value)) parsed.push({ source: toPath(uri) ?? uri, value });
      } catch {
        // Not JSON now: the saved version (if any) stays known.
      }
    }
    const open = new Set(parsed.map((p) => p.source));
    const isOpen = (info: { source?: string }) => info.source !== undefined && open.has(info.source);
    const catalog = this.base.clone(isOpen, isOpen);
    for (const { source, value } of parsed) {
      if (isPolicyDefinition(value)) catalog.addDefinitionDocument(value, source);
      else catalog.addSetDocument(value, source);
    }
    this.catalog = catalog;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async scan(settings: DefinitionSettings, workspaceFolders: string[]): Promise<void> {
    const folders = workspaceFolders.map(toPath).filter((p): p is string => !!p);
    const configured = settings.paths.flatMap((p) => (path.isAbsolute(p) ? [p] : folders.map((folder) => path.join(folder, p))));
    const indexFiles: string[] = [];
    const definitionFiles: string[] = [];
    const roots: string[] = [];
    for (const target of [...configured, ...folders]) {
      try {
        const sources = await resolveDefinitionSources([target]);
        indexFiles.push(...sources.indexFiles.filter((f) => configured.includes(f)));
        definitionFiles.push(...sources.definitionFiles);
        if (!sources.indexFiles.includes(target)) roots.push(target);
      } catch (error) {
        if (configured.includes(target)) this.log(`policySet.definitions.paths: ${(error as Error).message}`);
      }
      if (definitionFiles.length > MAX_WORKSPACE_FILES) {
        this.log(`More than ${MAX_WORKSPACE_FILES} JSON files in the workspace: only the first are read for policy definitions.`);
        definitionFiles.length = MAX_WORKSPACE_FILES;
        break;
      }
    }
    this.indexFiles = [...new Set(indexFiles)];
    this.roots = roots;
    for (const file of [...this.indexes.keys()]) if (!this.indexFiles.includes(file)) this.indexes.delete(file);
    for (const file of this.indexFiles) await this.loadIndex(file);
    const wanted = new Set(definitionFiles);
    for (const file of [...this.files.keys()]) if (!wanted.has(file)) this.files.delete(file);
    for (const file of wanted) {
      let stat;
      try {
        stat = await fs.stat(file);
      } catch {
        this.files.delete(file);
        continue;
      }
      const known = this.files.get(file);
      if (unchanged(known, stat)) continue;
      await this.readFile(file, stat);
    }
  }

  /** Reads the policy definition files of a folder that appeared (or was moved in); whether any was new. */
  private async scanFolder(folder: string): Promise<boolean> {
    let changed = false;
    try {
      const { definitionFiles } = await resolveDefinitionSources([folder]);
      for (const file of definitionFiles) {
        if (this.files.size >= MAX_WORKSPACE_FILES) break;
        const before = this.files.get(file);
        const after = await this.readFile(file, await fs.stat(file));
        changed ||= !sameContribution(before, after);
      }
    } catch {
      // Gone again: its deletion comes as an event of its own.
    }
    return changed;
  }

  private async readFile(file: string, stat: { mtimeMs: number; size: number }): Promise<FileEntry | undefined> {
    let text: string | undefined;
    let defined: Defined;
    try {
      const bytes = await readUserFile(file, 'definitions');
      // What the workspace check made of the same bytes, when it has (sharedInfos.ts); the text is decoded
      // and parsed only when not.
      defined = definedBy(file, bytesHash(bytes), () => parseDocumentText((text = decodeText(bytes).text)));
    } catch {
      // Unreadable, or not JSON: not a definition (linting reports it if asked).
      this.files.set(file, { mtimeMs: stat.mtimeMs, size: stat.size });
      return undefined;
    }
    const entry: FileEntry = { mtimeMs: stat.mtimeMs, size: stat.size };
    if ('definition' in defined) entry.definition = defined.definition;
    else if ('set' in defined) entry.set = defined.set;
    else if (
      text !== undefined &&
      CONSUMER_KEYS.some((key) => text!.includes(key)) &&
      parsePolicyDocument(text, { model: false }).consumers.length
    )
      entry.consumer = true;
    this.files.set(file, entry);
    return entry;
  }

  private async loadIndex(file: string): Promise<void> {
    try {
      const stat = await fs.stat(file);
      const known = this.indexes.get(file);
      if (unchanged(known, stat)) return;
      this.indexes.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, catalog: await indexCatalog(file) });
    } catch (error) {
      this.indexes.delete(file);
      this.log((error as Error).message);
    }
  }

  /** The catalogue of what is on disk: the index files, then the definition and set files. */
  private rebuild(): void {
    const base = new DefinitionCatalog();
    for (const file of this.indexFiles) {
      const index = this.indexes.get(file);
      if (index) base.addAll(index.catalog);
    }
    for (const entry of this.files.values()) {
      if (entry.definition) base.add(entry.definition.info, entry.definition.key);
      if (entry.set) base.addSet(entry.set);
    }
    this.base = base;
  }
}

import { DefinitionCatalog } from '../../service';
import { parseDocumentText } from '../../service/json/documentValue';
import { isPolicyDefinition, isPolicySet } from '../../service/model/documentKind';
import type { DefinitionInfo, SetInfo } from '../../service';
import type { KnownDefinitions } from '../serverHost';
import { splitPartOf } from '../../service/model/splitSet';
import { CONFIG_FILE_NAME } from '../../service/config';
import type { WorkspaceFilesParams } from '../protocol';

/** The summary of a file that adds nothing to the catalogue. */
const NOTHING = '';

/** Texts kept for readFile (the parts of split sets, `.policysetrc.json`): not the large index files. */
const MAX_KEPT_TEXT = 1024 * 1024;

/**
 * Whether the server may need a file's text again (host.readFile): a part of a split set (its siblings are
 * assembled from the texts) or a folder's `.policysetrc.json`. Every other file is kept as what the rules
 * need of it (its definitions, or its set's facts), never as text: a workspace of thousands of large
 * files would otherwise be held whole in the worker.
 */
function keepsText(uri: string): boolean {
  const name = uri.slice(uri.lastIndexOf('/') + 1);
  return name === CONFIG_FILE_NAME || splitPartOf(name) !== undefined;
}

interface HeldFile {
  /** The index file's definitions, or the definition or set the file holds. */
  index?: DefinitionCatalog;
  definition?: { info: DefinitionInfo; key: 'id' | 'name' };
  set?: SetInfo;
  text?: string;
  /** What the catalogue takes of the file, as text: compared to tell whether an update changed the known definitions. */
  summary: string;
}

/**
 * The known definitions of the browser's language server: what the client sent (WORKSPACE_FILES_NOTIFICATION),
 * with the open documents' unsaved text laid over it, as WorkspaceDefinitions does with the disk.
 */
export class ClientFiles implements KnownDefinitions {
  private readonly files = new Map<string, HeldFile>();
  private base = new DefinitionCatalog();
  catalog = new DefinitionCatalog();
  private open: Array<{ uri: string; text: string }> = [];

  constructor(private readonly log: (message: string) => void) {}

  /**
   * Takes what the client sent; returns whether the known definitions changed. The work is that of the
   * files sent (each read once, its summary compared with the one held); the catalogue is built again only
   * when one of them changed what it holds.
   */
  receive(params: WorkspaceFilesParams): boolean {
    let changed = false;
    // A complete list replaces what is held: what is not in it any more was removed.
    const previous = params.complete ? new Map(this.files) : this.files;
    if (params.complete) this.files.clear();
    for (const uri of params.removed ?? []) {
      const held = this.files.get(uri);
      if (held && this.files.delete(uri) && held.summary !== NOTHING) changed = true;
    }
    for (const { uri, text } of params.files ?? []) {
      if (typeof uri !== 'string' || typeof text !== 'string') continue;
      const before = previous.get(uri);
      const held = this.read(uri, text);
      this.files.set(uri, held);
      if ((before?.summary ?? NOTHING) !== held.summary) changed = true;
    }
    if (params.complete) for (const [uri, held] of previous) if (!this.files.has(uri) && held.summary !== NOTHING) changed = true;
    if (changed) {
      this.rebuild();
      this.refreshOpen(this.open);
    }
    if (changed || params.complete)
      this.log(
        `Known policy definitions: ${this.catalog.size}; policy sets: ${this.catalog.setCount} (from ${this.files.size} workspace files sent by the extension).`,
      );
    return changed;
  }

  /** How many of the files held keep their text (tests: only split-set parts and config files do). */
  keptTexts(): number {
    let n = 0;
    for (const held of this.files.values()) if (held.text !== undefined) n++;
    return n;
  }

  /** The text of a small file the client sent (undefined for index files and files not sent). */
  text(uri: string): string | undefined {
    return this.files.get(uri)?.text;
  }

  reload(_settings: unknown, _folders: string[], openDefinitions: Array<{ uri: string; text: string }>): Promise<boolean> {
    // The client reads the workspace (and the configured paths) and sends them: nothing to read here.
    this.refreshOpen(openDefinitions);
    return Promise.resolve(true);
  }

  applyChanges(_changes: unknown[], openDefinitions: Array<{ uri: string; text: string }>): Promise<boolean> {
    // The client's own watcher sends the changed files (receive); the server cannot read them.
    this.refreshOpen(openDefinitions);
    return Promise.resolve(false);
  }

  refreshOpen(openDefinitions: Array<{ uri: string; text: string }>): void {
    this.open = openDefinitions;
    const parsed: Array<{ uri: string; value: unknown }> = [];
    for (const { uri, text } of openDefinitions) {
      try {
        const value = parseDocumentText(text);
        if (isPolicyDefinition(value) || isPolicySet(value)) parsed.push({ uri, value });
      } catch {
        // Not JSON now: the version the client sent (if any) stays known.
      }
    }
    const open = new Set(parsed.map((p) => p.uri));
    const isOpen = (info: { source?: string }) => info.source !== undefined && open.has(info.source);
    const catalog = this.base.clone(isOpen, isOpen);
    for (const { uri, value } of parsed) {
      if (isPolicyDefinition(value)) catalog.addDefinitionDocument(value, uri);
      else catalog.addSetDocument(value, uri);
    }
    this.catalog = catalog;
  }

  private read(uri: string, text: string): HeldFile {
    const kept = keepsText(uri) && text.length <= MAX_KEPT_TEXT ? text : undefined;
    let value: unknown;
    try {
      value = parseDocumentText(text);
    } catch {
      return { text: kept, summary: NOTHING }; // Not JSON (yet): not a definition.
    }
    if (
      Array.isArray(value) ||
      (typeof value === 'object' && value !== null && Array.isArray((value as { definitions?: unknown }).definitions))
    ) {
      const index = new DefinitionCatalog();
      index.addIndex(value, uri);
      return { index, text: kept, summary: `index:${index.fingerprint()}` };
    }
    const held: HeldFile = { text: kept, summary: NOTHING };
    if (isPolicyDefinition(value)) held.definition = DefinitionCatalog.definitionOf(value, uri);
    else if (isPolicySet(value)) held.set = DefinitionCatalog.setOf(value, uri);
    if (held.definition || held.set)
      held.summary = JSON.stringify([held.definition, held.set], (_key, v: unknown) => (v instanceof Map ? [...v] : v));
    return held;
  }

  private rebuild(): void {
    const base = new DefinitionCatalog();
    // Index files first, then the definition and set files (as on the desktop).
    for (const held of this.files.values()) if (held.index) base.addAll(held.index);
    for (const held of this.files.values()) {
      if (held.definition) base.add(held.definition.info, held.definition.key);
      if (held.set) base.addSet(held.set);
    }
    this.base = base;
  }
}

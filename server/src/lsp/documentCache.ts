import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parsePolicyDocument, withModel, type PolicyDocument } from '../service';

/**
 * What the server keeps per document version beyond the text, for the documents in use: a bounded cache,
 * least recently used first out. An open document that is not being worked on costs its text and its
 * last diagnostics' summary; its parse (tree, set models, the JSON service's view) is rebuilt when it is
 * asked for again. Bounded by entries and by the text they were made from (a parse holds about 6 bytes per
 * byte of text: see docs/performance.md); the most recently used entry always stays.
 */
export class DocumentCache<T> {
  private readonly entries = new Map<string, { version: number; value: T; size: number }>();
  private textLength = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxTextLength: number,
  ) {}

  /** The value for this version of the document, which becomes the most recently used; undefined when not kept. */
  get(uri: string, version: number): T | undefined {
    const entry = this.entries.get(uri);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(uri);
    this.entries.set(uri, entry);
    return entry.value;
  }

  /** Keeps the value (made from `size` characters of text), dropping the least recently used beyond the bounds. */
  set(uri: string, version: number, value: T, size: number): void {
    this.delete(uri);
    this.entries.set(uri, { version, value, size });
    this.textLength += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= 1 || (this.entries.size <= this.maxEntries && this.textLength <= this.maxTextLength)) break;
      this.entries.delete(oldest);
      this.textLength -= entry.size;
    }
  }

  delete(uri: string): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    this.entries.delete(uri);
    this.textLength -= entry.size;
  }

  get size(): number {
    return this.entries.size;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }
}

/**
 * Parses kept: the documents being edited and the last few used. A parse holds about 6 bytes of heap per
 * byte of text, so 2M characters of text keep at most about 13 MB (three of the largest corpus sets), and
 * an editor with hundreds of documents open holds little more than their text.
 */
const PARSE_CACHE_ENTRIES = 8;
const PARSE_CACHE_TEXT = 2_000_000;

/** One parse per document version, shared by validation and every feature, for the documents in use. */
export class DocumentParses {
  private readonly cache = new DocumentCache<{ document: PolicyDocument; model: boolean }>(PARSE_CACHE_ENTRIES, PARSE_CACHE_TEXT);

  /**
   * The document's parse, once per version. Completion asks for it without the set models (it builds the
   * one it needs, if any): right after an edit that is most of the cost. Everything else gets them, added
   * to the same parse. `keep: false`: bulk work (a document only opened), not kept.
   */
  parsed(document: TextDocument, model = true, keep = true): PolicyDocument {
    const cached = this.cache.get(document.uri, document.version);
    if (cached) {
      if (model && !cached.model) {
        cached.document = withModel(cached.document);
        cached.model = true;
      }
      return cached.document;
    }
    const text = document.getText();
    const policyDocument = parsePolicyDocument(text, { model });
    if (keep) this.cache.set(document.uri, document.version, { document: policyDocument, model }, text.length);
    return policyDocument;
  }

  delete(uri: string): void {
    this.cache.delete(uri);
  }
}

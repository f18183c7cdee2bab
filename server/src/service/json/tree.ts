import type { Node, NodeType } from 'jsonc-parser';

export type FastTreeResult = { root: Node; duplicateKeys: Node[] } | { tooDeep: { offset: number } };

/** Key nodes that repeat an earlier key of the same object (in document order). */
export function findDuplicateKeys(root: Node): Node[] {
  const found: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (!node.children) continue;
    if (node.type === 'object' && node.children.length > 1) {
      const seen = new Set<unknown>();
      for (const prop of node.children) {
        const key = prop.children?.[0];
        if (!key) continue;
        if (seen.has(key.value)) found.push(key);
        else seen.add(key.value);
      }
    }
    for (const child of node.children) if (child.children) stack.push(child);
  }
  return found.sort((a, b) => a.offset - b.offset);
}

// ---- The structure of a text JSON.parse accepted, as records in a typed array -------------------
//
// One record per node, in document order (a node before its descendants), RECORD numbers each:
// [kind | ESCAPED, start offset, end offset, index of the record after the node's subtree, index of the
// parent's record (-1 at the root)].
// A property's record is followed by its key's and then its value's. Nodes are objects only once a
// caller reaches them (see TapeNode): validation reads a fraction of a large document's nodes, and
// building all of them up front was most of the cost of parsing (allocation, then garbage collection).

const RECORD = 5;
const OBJECT = 0;
const ARRAY = 1;
const PROPERTY = 2;
const STRING = 3;
const NUMBER = 4;
const TRUE = 5;
const FALSE = 6;
const NULL = 7;
const KIND = 7;
/** A string whose text holds a backslash: its value is decoded with JSON.parse. */
const ESCAPED = 8;
const TYPES: NodeType[] = ['object', 'array', 'property', 'string', 'number', 'boolean', 'boolean', 'null'];

const QUOTE = 34;
const BACKSLASH = 92;

/** Scratch space for the scan, reused from document to document; each tree keeps an exact-size copy. */
let scratch = new Int32Array(RECORD * 16);

interface Tape {
  text: string;
  records: Int32Array;
  /**
   * The nodes made so far, in the order they were made, and for each record where its node is in that
   * list (plus one; 0: not made). One table per tree instead of an array of children in every node (most
   * nodes get one child made, and an array per node cost more than the node itself); the record's slot is
   * a typed array, which the garbage collector does not scan, and whose making does not throw V8's
   * optimized code away for trees of more than some 16,000 records, as a holey array of that length did.
   */
  nodes: TapeNode[];
  slots: Int32Array;
}

interface KeyTable {
  records: number[];
  keys: string[];
  /** Where each key last occurs (the last occurrence wins, as in JSON.parse). */
  last: Map<string, number>;
  lowerKeys?: string[];
}

/** Not yet computed (a value can be undefined, so undefined cannot mark it). */
const UNSET: unique symbol = Symbol('unset');
const TOO_MANY: unique symbol = Symbol('too many');
/** Objects up to this many properties are searched in the text; larger ones get a table of their keys. */
const SMALL_OBJECT = 8;
/** Objects with more keys than this are not compared key against key (mayHaveCaseVariantKeys, repeatsAKey). */
const MANY_KEYS = 64;
/** One object's keys as gatherKeys reads them, reused. */
const keyStarts = new Int32Array(MANY_KEYS + 1);
const keyLengths = new Int32Array(MANY_KEYS + 1);
const keyRecords = new Int32Array(MANY_KEYS + 1);

/**
 * A jsonc-parser `Node` backed by its record: children and values are made on first read, and then kept.
 * Every node has the same shape (fast property access) and few fields: its type, offset and length are
 * read from the record, and the nodes a validation makes live until it ends, so every young-generation
 * collection copies them. The getters keep Node's interface.
 */
export class TapeNode implements Node {
  /** All the children, once `children` was read. */
  private list: Node[] | undefined = undefined;
  /** Made on first use: an object's table of keys (for lookups in large objects), a scalar's value. */
  private cache: unknown = UNSET;
  constructor(
    private readonly tape: Tape,
    private readonly index: number,
  ) {}

  /** Made on first read: a property's value is often wanted without the property (or its key). */
  get parent(): Node | undefined {
    const record = this.tape.records[this.index * RECORD + 4];
    return record < 0 ? undefined : nodeAt(this.tape, record);
  }

  get type(): NodeType {
    return TYPES[this.tape.records[this.index * RECORD] & KIND];
  }

  get offset(): number {
    return this.tape.records[this.index * RECORD + 1];
  }

  get length(): number {
    const at = this.index * RECORD;
    const records = this.tape.records;
    return records[at + 2] - records[at + 1];
  }

  get children(): Node[] | undefined {
    if (this.list) return this.list;
    const records = this.tape.records;
    const kind = records[this.index * RECORD] & KIND;
    if (kind !== OBJECT && kind !== ARRAY && kind !== PROPERTY) return undefined;
    const after = records[this.index * RECORD + 3];
    const list: Node[] = [];
    for (let i = this.index + 1; i < after; i = records[i * RECORD + 3]) list.push(this.childAt(i));
    this.list = list;
    return list;
  }

  /** Each string item of an array, with its index among all the items, read in the text: no node is made. */
  forEachStringItem(callback: (value: string, index: number) => void): void {
    const { text, records } = this.tape;
    if ((records[this.index * RECORD] & KIND) !== ARRAY) return;
    const after = records[this.index * RECORD + 3];
    let index = 0;
    for (let i = this.index + 1; i < after; i = records[i * RECORD + 3], index++) {
      const at = i * RECORD;
      if ((records[at] & KIND) !== STRING) continue;
      const start = records[at + 1];
      const end = records[at + 2];
      callback(records[at] & ESCAPED ? (JSON.parse(text.slice(start, end)) as string) : text.slice(start + 1, end - 1), index);
    }
  }

  /** An array's items that are not strings, made without making the strings (or keeping a list of all). */
  nonStringItems(): Node[] {
    const records = this.tape.records;
    const found: Node[] = [];
    // An object's children (its properties, once made) are not items.
    if ((records[this.index * RECORD] & KIND) !== ARRAY) return found;
    if (this.list) return this.list.filter((item) => item.type !== 'string');
    const after = records[this.index * RECORD + 3];
    for (let i = this.index + 1; i < after; i = records[i * RECORD + 3])
      if ((records[i * RECORD] & KIND) !== STRING) found.push(this.childAt(i));
    return found;
  }

  /** Small objects: keys compared in the text, nothing allocated; TOO_MANY for objects worth a table. */
  private scanForKey(key: string, ignoreCase: boolean): Node | undefined | null | typeof TOO_MANY {
    const { text, records } = this.tape;
    const after = records[this.index * RECORD + 3];
    const lower = ignoreCase ? key.toLowerCase() : key;
    let found = -1;
    let n = 0;
    for (let i = this.index + 1; i < after; i = records[i * RECORD + 3], n++) {
      if (n >= SMALL_OBJECT) return TOO_MANY;
      const at = (i + 1) * RECORD;
      const start = records[at + 1];
      const end = records[at + 2];
      let matches: boolean;
      if (records[at] & ESCAPED) {
        const name = JSON.parse(text.slice(start, end)) as string;
        matches = ignoreCase ? name.length === key.length && name.toLowerCase() === lower : name === key;
      } else if (end - start - 2 !== key.length) {
        matches = false;
      } else {
        matches = !ignoreCase
          ? text.startsWith(key, start + 1)
          : isAscii(text, start + 1, end - 1)
            ? equalsIgnoreCase(text, start + 1, lower)
            : text.slice(start + 1, end - 1).toLowerCase() === lower;
      }
      if (matches) {
        found = i;
      }
    }
    if (found < 0) return null;
    const valueRecord = records[(found + 1) * RECORD + 3];
    return valueRecord < records[found * RECORD + 3] ? this.childAt(valueRecord) : undefined;
  }

  /** The record number and key of each child, in order, and where each key last occurs (no nodes are made). */
  private lookupTable(): KeyTable {
    if (this.cache !== UNSET) return this.cache as KeyTable;
    const { text, records } = this.tape;
    const after = records[this.index * RECORD + 3];
    const children: number[] = [];
    const keys: string[] = [];
    const last = new Map<string, number>();
    for (let i = this.index + 1; i < after; i = records[i * RECORD + 3]) {
      const at = (i + 1) * RECORD;
      const start = records[at + 1];
      const end = records[at + 2];
      const key = records[at] & ESCAPED ? (JSON.parse(text.slice(start, end)) as string) : text.slice(start + 1, end - 1);
      last.set(key, children.length);
      children.push(i);
      keys.push(key);
    }
    const table: KeyTable = { records: children, keys, last };
    this.cache = table;
    return table;
  }

  private childAt(record: number): TapeNode {
    return nodeAt(this.tape, record);
  }

  /**
   * The value node of this object's last property whose key is `key` (exactly, or else ignoring case when
   * asked), making only that property's nodes. `null` when there is none.
   */
  propertyValue(key: string, ignoreCase: boolean): Node | undefined | null {
    if (this.type !== 'object') return null;
    if (this.cache === UNSET) {
      const found = this.scanForKey(key, ignoreCase);
      if (found !== TOO_MANY) return found;
    }
    const table = this.lookupTable();
    const names = table.keys;
    let n = table.last.get(key) ?? -1;
    if (n < 0 && ignoreCase) {
      const lowered = (table.lowerKeys ??= names.map((name) => name.toLowerCase()));
      const lower = key.toLowerCase();
      n = names.length - 1;
      while (n >= 0 && !(lowered[n] === lower && names[n].length === key.length)) n--;
    }
    if (n < 0) return null;
    const records = this.tape.records;
    const record = table.records[n];
    const valueRecord = records[(record + 1) * RECORD + 3];
    return valueRecord < records[record * RECORD + 3] ? this.childAt(valueRecord) : undefined;
  }

  /**
   * The value nodes of several properties in one pass over the keys, matched case-insensitively:
   * `lowerNames` are lowercased names, and the answer holds, for each, the value of the last property
   * that matches it. Only the values' nodes are made (their properties and keys when a caller asks for them).
   */
  propertyValuesIgnoreCase(lowerNames: readonly string[]): Array<Node | undefined> {
    const found = new Array<Node | undefined>(lowerNames.length).fill(undefined);
    if (this.type !== 'object') return found;
    const { text, records } = this.tape;
    const after = records[this.index * RECORD + 3];
    for (let i = this.index + 1; i < after; i = records[i * RECORD + 3]) {
      const at = (i + 1) * RECORD;
      const start = records[at + 1];
      const end = records[at + 2];
      // ASCII keys without escapes (nearly all) are compared in the text; others as toLowerCase has them.
      // Without escapes, only a key of a wanted name's length can match (the names are ASCII, and no
      // character lowercases to ASCII of another length), so most keys are passed over on their length.
      const escaped = (records[at] & ESCAPED) !== 0;
      const length = end - start - 2;
      let lowered: string | undefined;
      let ascii: boolean | undefined;
      for (let slot = 0; slot < lowerNames.length; slot++) {
        const wanted = lowerNames[slot];
        if (!escaped && wanted.length !== length) continue;
        if (escaped) lowered ??= (JSON.parse(text.slice(start, end)) as string).toLowerCase();
        else if ((ascii ??= isAscii(text, start + 1, end - 1)) === false) lowered ??= text.slice(start + 1, end - 1).toLowerCase();
        if (lowered !== undefined ? lowered !== wanted : !equalsIgnoreCase(text, start + 1, wanted)) continue;
        const valueRecord = records[at + 3];
        found[slot] = valueRecord < records[i * RECORD + 3] ? this.childAt(valueRecord) : undefined;
        break;
      }
    }
    return found;
  }

  /**
   * Whether two keys of this object may be one name in two casings (`effect` and `Effect`), read in the
   * text with no node made: false for nearly every object, which then needs no closer look. Keys that are
   * escaped or not ASCII, and objects of many keys, are a maybe.
   */
  mayHaveCaseVariantKeys(): boolean {
    const records = this.tape.records;
    if ((records[this.index * RECORD] & KIND) !== OBJECT) return false;
    const text = this.tape.text;
    const n = gatherKeys(records, this.index);
    if (n > MANY_KEYS) return true;
    for (let a = 0; a < n; a++) {
      const length = keyLengths[a];
      if (length < 0 || !isAscii(text, keyStarts[a], keyStarts[a] + length)) return true;
      for (let b = 0; b < a; b++) if (keyLengths[b] === length && caseVariants(text, keyStarts[a], keyStarts[b], length)) return true;
    }
    return false;
  }

  /**
   * The string value nodes in this subtree whose content starts with `first` (keys are not values), in
   * document order. Only they are made (the nodes above them when a caller asks for them).
   */
  stringValuesStartingWith(first: string): Node[] {
    const { text, records } = this.tape;
    const found: Node[] = [];
    const after = records[this.index * RECORD + 3];
    const code = first.charCodeAt(0);
    for (let i = this.index; i < after; i++) {
      const at = i * RECORD;
      // A key is the record right after its property's.
      if ((records[at] & KIND) !== STRING || (i > 0 && (records[at - RECORD] & KIND) === PROPERTY)) continue;
      const start = records[at + 1];
      const starts =
        records[at] & ESCAPED
          ? (JSON.parse(text.slice(start, records[at + 2])) as string).charCodeAt(0) === code
          : text.charCodeAt(start + 1) === code;
      if (starts) found.push(this.childAt(i));
    }
    return found;
  }

  get value(): unknown {
    const records = this.tape.records;
    const at = this.index * RECORD;
    const flags = records[at];
    // Containers and properties have no value (an object may keep its key table in the cache).
    if ((flags & KIND) <= PROPERTY) return undefined;
    if (this.cache !== UNSET) return this.cache;
    const start = records[at + 1];
    const end = records[at + 2];
    let value: unknown;
    switch (flags & KIND) {
      case STRING: {
        const text = this.tape.text;
        value = flags & ESCAPED ? JSON.parse(text.slice(start, end)) : text.slice(start + 1, end - 1);
        break;
      }
      case NUMBER:
        value = Number(this.tape.text.slice(start, end));
        break;
      case TRUE:
        value = true;
        break;
      case FALSE:
        value = false;
        break;
      case NULL:
        value = null;
        break;
      default:
        value = undefined;
    }
    this.cache = value;
    return value;
  }

  get colonOffset(): number | undefined {
    if (this.type !== 'property') return undefined;
    // The key is the next record; in strict JSON the first colon after it is the property's.
    return this.tape.text.indexOf(':', this.tape.records[(this.index + 1) * RECORD + 2]);
  }
}

/** The node of a record: made once, then kept in the tree's table. */
function nodeAt(tape: Tape, record: number): TapeNode {
  const slot = tape.slots[record];
  if (slot) return tape.nodes[slot - 1];
  const node = new TapeNode(tape, record);
  tape.slots[record] = tape.nodes.push(node);
  return node;
}

function isAscii(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** Whether two ASCII ranges of a text are the same letters in different casings (not the same text). */
function caseVariants(text: string, a: number, b: number, length: number): boolean {
  let differ = false;
  for (let k = 0; k < length; k++) {
    const x = text.charCodeAt(a + k);
    const y = text.charCodeAt(b + k);
    if (x === y) continue;
    if ((x | 32) !== (y | 32) || (x | 32) < 97 || (x | 32) > 122) return false;
    differ = true;
  }
  return differ;
}

/** Whether the ASCII text at `start` is `lower` (lowercase ASCII) in any casing. */
function equalsIgnoreCase(text: string, start: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    let c = text.charCodeAt(start + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Whether an object (its record, complete) has two keys of one name. Compared in the text: lengths first,
 * then characters; escaped keys decoded; objects of many keys through a set.
 */
function repeatsAKey(text: string, records: Int32Array, object: number): boolean {
  const n = gatherKeys(records, object);
  if (n < 2) return false;
  if (n > MANY_KEYS) {
    const seen = new Set<string>();
    const after = records[object * RECORD + 3];
    for (let i = object + 1; i < after; i = records[i * RECORD + 3]) {
      const key = keyName(text, records, i);
      if (seen.has(key)) return true;
      seen.add(key);
    }
    return false;
  }
  for (let a = 1; a < n; a++) {
    const length = keyLengths[a];
    for (let b = 0; b < a; b++) {
      if (length < 0 || keyLengths[b] < 0) {
        if (keyName(text, records, keyRecords[a]) === keyName(text, records, keyRecords[b])) return true;
      } else if (keyLengths[b] === length && sameText(text, keyStarts[a], keyStarts[b], length)) {
        return true;
      }
    }
  }
  return false;
}

/**
 * An object's keys into keyStarts, keyLengths (quotes included; -1 for an escaped key) and keyRecords (the
 * properties' records), for comparing them pair by pair in a tight loop. Returns how many: at most
 * MANY_KEYS + 1, which means more than MANY_KEYS.
 */
function gatherKeys(records: Int32Array, object: number): number {
  const after = records[object * RECORD + 3];
  let n = 0;
  for (let i = object + 1; i < after && n <= MANY_KEYS; i = records[i * RECORD + 3], n++) {
    const at = (i + 1) * RECORD;
    keyStarts[n] = records[at + 1];
    keyLengths[n] = records[at] & ESCAPED ? -1 : records[at + 2] - records[at + 1];
    keyRecords[n] = i;
  }
  return n;
}

function sameText(text: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** The name of a property's key, decoded. */
function keyName(text: string, records: Int32Array, property: number): string {
  const at = (property + 1) * RECORD;
  const raw = text.slice(records[at + 1], records[at + 2]);
  return records[at] & ESCAPED ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

/**
 * The jsonc-parser tree of a text that JSON.parse has already accepted, in one iterative
 * pass. Because the text is known to be strict JSON, nothing is validated here: strings are skipped with
 * indexOf. Broken documents never come here; they go to jsonc-parser's tolerant parseTree, which
 * recovers and reports every error.
 */
export function buildTreeOfValidJson(text: string, maxDepth: number): FastTreeResult {
  // The loop runs once per character of whitespace and structure: records are written by putRecord, the
  // open records kept in an Int32Array, and room for two records made once per token (with an `add`
  // closure doing all of it, the scan over the corpus took 36 ms instead of 25).
  let records = scratch;
  let count = 0;
  /** The records of the open containers and properties, innermost last (a property inside each container). */
  const open = new Int32Array(2 * maxDepth + 2);
  let openCount = 0;
  /** The innermost open record, or -1, and its kind. */
  let top = -1;
  let topKind = -1;
  let pos = 0;
  const end = text.length;
  let expectKey = false;
  let depth = 0;
  let keys = 0;
  /** The next backslash at or after the current string, or -1: found once, not per string. */
  let backslashAt = text.indexOf('\\');

  while (pos < end) {
    const code = text.charCodeAt(pos);
    // Outside strings, strict JSON has no character at or below a space but whitespace.
    if (code <= 32) {
      pos++;
      continue;
    }
    // Room for two records (a property and its key) before anything is written.
    if ((count + 2) * RECORD > records.length) {
      const larger = new Int32Array(records.length * 2);
      larger.set(records);
      records = scratch = larger;
    }
    const at = count * RECORD;
    if (code === QUOTE) {
      // Find the closing quote: one preceded by an even number of backslashes.
      const start = pos;
      let close = text.indexOf('"', pos + 1);
      let escaped = false;
      while (text.charCodeAt(close - 1) === BACKSLASH) {
        let backslashes = 1;
        while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
        escaped = true;
        if (backslashes % 2 === 0) break;
        close = text.indexOf('"', close + 1);
      }
      pos = close + 1;
      if (!escaped && backslashAt >= 0 && backslashAt < close) {
        if (backslashAt < start) backslashAt = text.indexOf('\\', start);
        escaped = backslashAt >= 0 && backslashAt < close;
      }
      if (expectKey) {
        // The property (its end is set when its value is complete), then its key.
        keys++;
        putRecord(records, at, PROPERTY, start, 0, count + 1, top);
        top = count++;
        topKind = PROPERTY;
        open[openCount++] = top;
        putRecord(records, at + RECORD, escaped ? STRING | ESCAPED : STRING, start, pos, count + 1, top);
        count++;
        expectKey = false;
        continue;
      }
      putRecord(records, at, escaped ? STRING | ESCAPED : STRING, start, pos, count + 1, top);
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > maxDepth) return { tooDeep: { offset: pos } };
      topKind = code === 123 ? OBJECT : ARRAY;
      putRecord(records, at, topKind, pos, 0, count + 1, top);
      top = count++;
      open[openCount++] = top;
      expectKey = code === 123;
      pos++;
      continue;
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      const closed = open[--openCount];
      depth--;
      pos++;
      records[closed * RECORD + 2] = pos;
      records[closed * RECORD + 3] = count;
      expectKey = false;
      top = openCount ? open[openCount - 1] : -1;
      completeProperty();
      continue;
    } else if (code === 44 /* , */) {
      expectKey = topKind === OBJECT;
      pos++;
      continue;
    } else if (code === 58 /* : */) {
      pos++;
      continue;
    } else {
      const start = pos;
      let kind: number;
      if (code === 116 /* t */) {
        pos += 4;
        kind = TRUE;
      } else if (code === 102 /* f */) {
        pos += 5;
        kind = FALSE;
      } else if (code === 110 /* n */) {
        pos += 4;
        kind = NULL;
      } else {
        pos++;
        for (
          let c = text.charCodeAt(pos);
          (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
          c = text.charCodeAt(++pos)
        );
        kind = NUMBER;
      }
      putRecord(records, at, kind, start, pos, count + 1, top);
    }
    count++;
    completeProperty();
  }

  function completeProperty(): void {
    if (top >= 0 && (records[top * RECORD] & KIND) === PROPERTY) {
      records[top * RECORD + 2] = pos;
      records[top * RECORD + 3] = count;
      openCount--;
      top = openCount ? open[openCount - 1] : -1;
    }
    topKind = top >= 0 ? records[top * RECORD] & KIND : -1;
  }

  const tape: Tape = { text, records: records.slice(0, count * RECORD), nodes: [], slots: new Int32Array(count) };
  const root = nodeAt(tape, 0);
  // Duplicate keys are rare: their nodes are looked for only when some object repeats a key. A pass of
  // its own, after the scan: in the scan's loop the check slowed every character.
  let repeated = false;
  if (keys > 1)
    for (let i = 0; i < count && !repeated; i++) if ((records[i * RECORD] & KIND) === OBJECT) repeated = repeatsAKey(text, records, i);
  return { root, duplicateKeys: repeated ? findDuplicateKeys(root) : [] };
}

/** Writes a record (a container's or property's end and subtree are set again when it closes). */
function putRecord(records: Int32Array, at: number, kind: number, start: number, end: number, after: number, parent: number): void {
  records[at] = kind;
  records[at + 1] = start;
  records[at + 2] = end;
  records[at + 3] = after;
  records[at + 4] = parent;
}

/**
 * Every branch of the scan taken when this module loads, on small texts: the first real
 * documents then reach optimized code whose type feedback is complete. Without it, each kind of token
 * first met in a large document (an escape, an exponent, a number at the very end) threw the optimized
 * code away in the middle of that document, and a CLI run over the corpus spent some 50 ms more in this
 * function while it was compiled again (five times).
 */
function primeScan(): void {
  const rich = '{ "a\\"b": [true, false, null, -1.5e+3, 2E-2, 0, "x\\\\", "\\u00e9", {}, []],\r\n\t"a\\"b": {"c": {"d": 1}, "e": "f"} }';
  // Repeated: V8 collects type feedback for a function only after its first few calls.
  for (let round = 0; round < 12; round++) for (const text of [rich, '-1.5e+3', '"s"', '[]']) buildTreeOfValidJson(text, 64);
}
primeScan();

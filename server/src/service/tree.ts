import type { Node, NodeType } from 'jsonc-parser';

/** A jsonc-parser `Node`, built with one constructor so that every node has the same shape (fast property access). */
class TreeNode implements Node {
  children: Node[] | undefined = undefined;
  colonOffset: number | undefined = undefined;
  constructor(
    public type: NodeType,
    public offset: number,
    public length: number,
    public value: unknown,
    public parent: Node | undefined,
  ) {}
}

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

const QUOTE = 34;
const SMALL_OBJECT = 16;
const BACKSLASH = 92;


/**
 * Builds the jsonc-parser tree of a text that JSON.parse has already accepted, in one iterative pass.
 * Because the text is known to be strict JSON, nothing is validated here: strings are skipped with
 * indexOf and decoded only when they hold escapes. Broken documents never come here; they go to
 * jsonc-parser's tolerant parseTree, which recovers and reports every error.
 */
export function buildTreeOfValidJson(text: string, maxDepth: number): FastTreeResult {
  const stack: TreeNode[] = [];
  let top: TreeNode | undefined;
  let root: TreeNode | undefined;
  let pos = 0;
  const end = text.length;
  let expectKey = false;
  let depth = 0;
  const duplicateKeys: Node[] = [];

  while (pos < end) {
    const code = text.charCodeAt(pos);
    if (code === 32 || code === 10 || code === 13 || code === 9) {
      pos++;
      continue;
    }
    let value: TreeNode | undefined;
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
      let content = text.slice(start + 1, close);
      if (escaped || content.indexOf('\\') >= 0) content = JSON.parse(text.slice(start, pos)) as string;
      if (expectKey) {
        const property = new TreeNode('property', start, 0, undefined, top);
        const key = new TreeNode('string', start, pos - start, content, property);
        property.children = [key];
        const siblings = top!.children!;
        // Small objects compare keys directly; larger ones are checked with a set when they close.
        if (siblings.length < SMALL_OBJECT) {
          for (let i = 0; i < siblings.length; i++) {
            if (siblings[i].children![0].value === content) {
              duplicateKeys.push(key);
              break;
            }
          }
        }
        siblings.push(property);
        stack.push(property);
        top = property;
        expectKey = false;
        continue;
      }
      value = new TreeNode('string', start, pos - start, content, top);
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > maxDepth) return { tooDeep: { offset: pos } };
      const node = new TreeNode(code === 123 ? 'object' : 'array', pos, 0, undefined, top);
      node.children = [];
      if (top) top.children!.push(node);
      else root = node;
      stack.push(node);
      top = node;
      expectKey = code === 123;
      pos++;
      continue;
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      const closed = stack.pop()!;
      depth--;
      pos++;
      closed.length = pos - closed.offset;
      if (code === 125 && closed.children!.length > SMALL_OBJECT) findLateDuplicates(closed, duplicateKeys);
      top = stack[stack.length - 1];
      expectKey = false;
      if (top && top.type === 'property') {
        top.length = pos - top.offset;
        stack.pop();
        top = stack[stack.length - 1];
      }
      continue;
    } else if (code === 44 /* , */) {
      expectKey = top!.type === 'object';
      pos++;
      continue;
    } else if (code === 58 /* : */) {
      top!.colonOffset = pos;
      pos++;
      continue;
    } else {
      const start = pos;
      if (code === 116 /* t */) {
        pos += 4;
        value = new TreeNode('boolean', start, 4, true, top);
      } else if (code === 102 /* f */) {
        pos += 5;
        value = new TreeNode('boolean', start, 5, false, top);
      } else if (code === 110 /* n */) {
        pos += 4;
        value = new TreeNode('null', start, 4, null, top);
      } else {
        pos++;
        for (let c = text.charCodeAt(pos); (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45; c = text.charCodeAt(++pos));
        value = new TreeNode('number', start, pos - start, Number(text.slice(start, pos)), top);
      }
    }
    // A scalar value: attach it, and close the property it completes.
    if (!top) {
      root = value;
      continue;
    }
    top.children!.push(value);
    if (top.type === 'property') {
      top.length = pos - top.offset;
      stack.pop();
      top = stack[stack.length - 1];
    }
  }
  return { root: root!, duplicateKeys: duplicateKeys.sort((a, b) => a.offset - b.offset) };
}

/** Duplicates in a large object, past the part the builder compared directly. */
function findLateDuplicates(object: TreeNode, found: Node[]) {
  const seen = new Set<unknown>();
  const children = object.children!;
  for (let i = 0; i < children.length; i++) {
    const key = children[i].children![0];
    if (i >= SMALL_OBJECT && seen.has(key.value)) found.push(key);
    seen.add(key.value);
  }
}

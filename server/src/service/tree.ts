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

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/**
 * Builds the jsonc-parser tree of a text that JSON.parse has already accepted, in one iterative pass.
 * Because the text is known to be strict JSON, nothing is validated here: strings are skipped with
 * indexOf and decoded only when they hold escapes. Broken documents never come here; they go to
 * jsonc-parser's tolerant parseTree, which recovers and reports every error.
 */
export function buildTreeOfValidJson(text: string, maxDepth: number): FastTreeResult {
  const stack: TreeNode[] = [];
  let root: TreeNode | undefined;
  let pos = 0;
  const end = text.length;
  let expectKey = false;
  let depth = 0;
  const duplicateKeys: Node[] = [];

  const attach = (node: TreeNode) => {
    const top = stack[stack.length - 1];
    if (!top) root = node;
    else top.children!.push(node);
  };
  const complete = (valueEnd: number) => {
    const top = stack[stack.length - 1];
    if (top && top.type === 'property') {
      top.length = valueEnd - top.offset;
      stack.pop();
    }
  };
  const readString = (): [number, string] => {
    const start = pos;
    let close = text.indexOf('"', pos + 1);
    let escaped = false;
    for (;;) {
      // A quote preceded by an odd number of backslashes is part of the string.
      let backslashes = 0;
      for (let i = close - 1; text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
      if (backslashes) escaped = true;
      if (backslashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    pos = close + 1;
    const raw = text.slice(start + 1, close);
    if (!escaped && raw.indexOf('\\') >= 0) escaped = true;
    return [start, escaped ? (JSON.parse(text.slice(start, close + 1)) as string) : raw];
  };

  while (pos < end) {
    const code = text.charCodeAt(pos);
    if (isSpace(code)) {
      pos++;
      continue;
    }
    const top = stack[stack.length - 1];
    switch (code) {
      case 123 /* { */:
      case 91 /* [ */: {
        if (++depth > maxDepth) return { tooDeep: { offset: pos } };
        const node = new TreeNode(code === 123 ? 'object' : 'array', pos, 0, undefined, top);
        node.children = [];
        attach(node);
        stack.push(node);
        expectKey = code === 123;
        pos++;
        break;
      }
      case 125 /* } */:
      case 93 /* ] */: {
        stack.pop();
        depth--;
        if (code === 125 && top.children!.length > SMALL_OBJECT) {
          const seen = new Set<unknown>();
          top.children!.forEach((prop, i) => {
            const key = prop.children![0];
            if (i >= SMALL_OBJECT && seen.has(key.value)) duplicateKeys.push(key);
            seen.add(key.value);
          });
        }
        top.length = pos + 1 - top.offset;
        pos++;
        complete(pos);
        expectKey = false;
        break;
      }
      case 44 /* , */:
        expectKey = top.type === 'object';
        pos++;
        break;
      case 58 /* : */:
        top.colonOffset = pos;
        pos++;
        break;
      case QUOTE: {
        const [start, value] = readString();
        if (expectKey) {
          const siblings = top.children!;
          const property = new TreeNode('property', start, 0, undefined, top);
          const key = new TreeNode('string', start, pos - start, value, property);
          property.children = [key];
          // Small objects compare keys directly; larger ones are checked with a set when they close.
          if (siblings.length < SMALL_OBJECT) {
            for (const sibling of siblings) {
              if (sibling.children![0].value === value) {
                duplicateKeys.push(key);
                break;
              }
            }
          }
          siblings.push(property);
          stack.push(property);
          expectKey = false;
        } else {
          attach(new TreeNode('string', start, pos - start, value, top));
          complete(pos);
        }
        break;
      }
      default: {
        const start = pos;
        if (code === 116 /* t */ || code === 110 /* n */) pos += 4;
        else if (code === 102 /* f */) pos += 5;
        else {
          pos++;
          for (let c = text.charCodeAt(pos); (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45; c = text.charCodeAt(++pos));
        }
        const node =
          code === 116 || code === 102
            ? new TreeNode('boolean', start, pos - start, code === 116, top)
            : code === 110
              ? new TreeNode('null', start, 4, null, top)
              : new TreeNode('number', start, pos - start, Number(text.slice(start, pos)), top);
        attach(node);
        complete(pos);
      }
    }
  }
  return { root: root!, duplicateKeys: duplicateKeys.sort((a, b) => a.offset - b.offset) };
}

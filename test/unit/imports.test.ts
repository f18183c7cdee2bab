import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../support/corpus';

/**
 * Every module specifier a source file names, whatever the kind: `import` and `export ... from` (with
 * `type` or without: a type import is a dependency of the design even when tsc erases it), `import x =
 * require()`, `require()` and `import()` calls anywhere (a lazy require is still a dependency), and
 * `typeof import('...')` types.
 */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The source file a relative specifier names (`./x` as x.ts or x/index.ts, `./x.js` as x.ts); undefined for packages and data. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [target + '.ts', path.join(target, 'index.ts')].find((candidate) => fs.existsSync(candidate));
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** The import graph of the TypeScript files under the given folders: file -> the files it names. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(sourceFiles)) {
    graph.set(file, [...new Set(specifiersOf(file).flatMap((s) => resolve(file, s) ?? []))]);
  }
  return graph;
}

/**
 * The cycles of a graph, one per strongly connected component of more than one file (or a file that
 * names itself), each shown as one closed path through it: `a -> b -> a`. Tarjan's algorithm, iterative.
 */
function cyclesOf(graph: Map<string, string[]>, root: string): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const next = edges[frame.next++];
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push({ node: next, next: 0 });
        } else if (onStack.has(next)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(next)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component);
      }
    }
  }
  return components.map((component) => {
    // One closed path: breadth-first from the component's first file (in name order) back to itself, inside the component.
    const members = new Set(component);
    const first = [...component].sort()[0];
    const previous = new Map<string, string>();
    const queue = [first];
    let last: string | undefined;
    while (queue.length && !last) {
      const node = queue.shift()!;
      for (const next of graph.get(node) ?? []) {
        if (!members.has(next)) continue;
        if (next === first) {
          last = node;
          break;
        }
        if (!previous.has(next)) {
          previous.set(next, node);
          queue.push(next);
        }
      }
    }
    const trail = [first];
    for (let node = last!; node !== first; node = previous.get(node)!) trail.splice(1, 0, node);
    trail.push(first);
    const name = (f: string) => path.relative(root, f).split(path.sep).join('/');
    const others = component
      .filter((f) => !trail.includes(f))
      .map(name)
      .sort();
    return trail.map(name).join(' -> ') + (others.length ? ` (the same knot holds ${others.join(', ')})` : '');
  });
}

/** A throwaway source tree: file name -> text. */
function fixture(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function cyclesIn(files: Record<string, string>): string[] {
  const dir = fixture(files);
  try {
    return cyclesOf(importGraph([dir]), dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('server/src and client/src have no import cycle, type imports and lazy requires counted', () => {
  const dirs = ['server/src', 'client/src'].map((d) => path.join(REPO_ROOT, d));
  const graph = importGraph(dirs);
  assert.ok(graph.size > 100, `the graph has ${graph.size} files: the walk found the sources`);
  assert.ok(graph.get(path.join(REPO_ROOT, 'server/src/service/validate.ts'))?.length, 'validate.ts names its imports');
  assert.deepEqual(cyclesOf(graph, REPO_ROOT), []);
});

test('a cycle through an import type is a cycle', () => {
  assert.deepEqual(
    cyclesIn({
      'a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'b.ts': "import { a } from './a';\nexport type B = typeof a;\n",
    }),
    ['a.ts -> b.ts -> a.ts'],
  );
  assert.deepEqual(cyclesIn({ 'a.ts': "export type { B } from './dir';\n", 'dir/index.ts': "import '../a';\nexport type B = 1;\n" }), [
    'a.ts -> dir/index.ts -> a.ts',
  ]);
});

test('a cycle through a lazy require, an import() or a typeof import() is a cycle', () => {
  const b = "import { a } from './a';\nexport const b = a;\n";
  assert.deepEqual(cyclesIn({ 'a.ts': "export function a() {\n  return require('./b') as typeof import('./b');\n}\n", 'b.ts': b }), [
    'a.ts -> b.ts -> a.ts',
  ]);
  assert.deepEqual(cyclesIn({ 'a.ts': "export const a = () => import('./b.js');\n", 'b.ts': b }), ['a.ts -> b.ts -> a.ts']);
  assert.deepEqual(cyclesIn({ 'a.ts': "export let a: typeof import('./b') | undefined;\n", 'b.ts': b }), ['a.ts -> b.ts -> a.ts']);
});

test('a knot of several files is one cycle, a chain without a way back none, and comments or strings name nothing', () => {
  const knot = cyclesIn({
    'a.ts': "import './b';\n",
    'b.ts': "import './c';\nimport './a';\n",
    'c.ts': "import './a';\n",
    'd.ts': "import './a';\n// import './d'\nexport const s = \"require('./d')\";\n",
  });
  assert.deepEqual(knot, ['a.ts -> b.ts -> a.ts (the same knot holds c.ts)']);
  assert.deepEqual(cyclesIn({ 'a.ts': "import './b';\n", 'b.ts': "import 'node:fs';\nimport 'jsonc-parser';\n" }), []);
  assert.deepEqual(cyclesIn({ 'a.ts': "export * from './a';\n" }), ['a.ts -> a.ts']);
});

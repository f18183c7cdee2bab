#!/usr/bin/env node
'use strict';
// Usage: node scripts/heap-summary.js <file.heapsnapshot> [min-percent]
// What a V8 heap snapshot holds: self size by constructor, and the dominator tree (what keeps what alive)
// down to the objects that retain at least min-percent (default 2) of the heap, each with the edge that
// holds it. Used to find where the language server's memory goes (docs/performance.md).
const fs = require('node:fs');

const [file, minArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/heap-summary.js <file.heapsnapshot> [min-percent]');
  process.exit(2);
}
const snapshot = JSON.parse(fs.readFileSync(file, 'utf8'));
const meta = snapshot.snapshot.meta;
const nodeFields = meta.node_fields.length;
const edgeFields = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const { nodes, edges, strings } = snapshot;
const count = nodes.length / nodeFields;
const TYPE = meta.node_fields.indexOf('type');
const NAME = meta.node_fields.indexOf('name');
const SIZE = meta.node_fields.indexOf('self_size');
const EDGES = meta.node_fields.indexOf('edge_count');
const E_TYPE = meta.edge_fields.indexOf('type');
const E_NAME = meta.edge_fields.indexOf('name_or_index');
const E_TO = meta.edge_fields.indexOf('to_node');

const firstEdge = new Uint32Array(count + 1);
for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i] + nodes[i * nodeFields + EDGES] * edgeFields;
const isWeak = (e) => edgeTypes[edges[e + E_TYPE]] === 'weak';
const label = (n) => {
  const type = nodeTypes[nodes[n * nodeFields + TYPE]];
  const name = strings[nodes[n * nodeFields + NAME]];
  if (type === 'object' || type === 'closure' || type === 'native') return `${type === 'object' ? '' : `(${type}) `}${name}`;
  return `(${type})`;
};
const edgeName = (e) => {
  const type = edgeTypes[edges[e + E_TYPE]];
  const value = edges[e + E_NAME];
  return type === 'element' || type === 'hidden' ? `[${value}]` : strings[value];
};

// Self size by constructor.
const byLabel = new Map();
let total = 0;
for (let n = 0; n < count; n++) {
  const size = nodes[n * nodeFields + SIZE];
  total += size;
  const key = label(n);
  const entry = byLabel.get(key) ?? { size: 0, count: 0 };
  entry.size += size;
  entry.count++;
  byLabel.set(key, entry);
}
const mb = (b) => `${(b / 1048576).toFixed(1)} MiB`;
console.log(`${file}: ${count} objects, ${mb(total)}`);
console.log('\nSelf size by constructor (top 25):');
for (const [key, { size, count: c }] of [...byLabel].sort((a, b) => b[1].size - a[1].size).slice(0, 25)) {
  console.log(`  ${mb(size).padStart(10)}  ${String(c).padStart(8)}  ${key}`);
}

// Dominators (Cooper, Harvey, Kennedy) over strong edges from node 0.
const order = new Int32Array(count).fill(-1); // postorder number
const post = new Uint32Array(count);
let visited = 0;
{
  const stack = [0];
  const cursor = new Uint32Array(count);
  const seen = new Uint8Array(count);
  seen[0] = 1;
  for (let i = 0; i < count; i++) cursor[i] = firstEdge[i];
  while (stack.length) {
    const n = stack[stack.length - 1];
    if (cursor[n] < firstEdge[n + 1]) {
      const e = cursor[n];
      cursor[n] += edgeFields;
      if (isWeak(e)) continue;
      const to = edges[e + E_TO] / nodeFields;
      if (!seen[to]) {
        seen[to] = 1;
        stack.push(to);
      }
    } else {
      stack.pop();
      order[n] = visited;
      post[visited++] = n;
    }
  }
}
const predStart = new Uint32Array(count + 1);
for (let n = 0; n < count; n++) {
  if (order[n] < 0) continue;
  for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += edgeFields) if (!isWeak(e)) predStart[edges[e + E_TO] / nodeFields + 1]++;
}
for (let i = 0; i < count; i++) predStart[i + 1] += predStart[i];
const preds = new Uint32Array(predStart[count]);
const fill = predStart.slice(0, count);
for (let n = 0; n < count; n++) {
  if (order[n] < 0) continue;
  for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += edgeFields) if (!isWeak(e)) preds[fill[edges[e + E_TO] / nodeFields]++] = n;
}
const idom = new Int32Array(count).fill(-1);
idom[0] = 0;
for (let changed = true; changed;) {
  changed = false;
  for (let i = visited - 2; i >= 0; i--) {
    const n = post[i];
    let dom = -1;
    for (let p = predStart[n]; p < predStart[n + 1]; p++) {
      let a = preds[p];
      if (idom[a] < 0) continue;
      if (dom < 0) {
        dom = a;
        continue;
      }
      let b = dom;
      while (a !== b) {
        while (order[a] < order[b]) a = idom[a];
        while (order[b] < order[a]) b = idom[b];
      }
      dom = a;
    }
    if (dom >= 0 && idom[n] !== dom) {
      idom[n] = dom;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (let i = 0; i < visited; i++) {
  const n = post[i];
  retained[n] += nodes[n * nodeFields + SIZE];
  if (n !== 0) retained[idom[n]] += retained[n];
}
const children = new Map();
for (let i = 0; i < visited; i++) {
  const n = post[i];
  if (n === 0) continue;
  const list = children.get(idom[n]) ?? [];
  list.push(n);
  children.set(idom[n], list);
}
const via = (parent, child) => {
  for (let e = firstEdge[parent]; e < firstEdge[parent + 1]; e += edgeFields)
    if (edges[e + E_TO] / nodeFields === child) return edgeName(e);
  for (let p = predStart[child]; p < predStart[child + 1]; p++) {
    const from = preds[p];
    for (let e = firstEdge[from]; e < firstEdge[from + 1]; e += edgeFields)
      if (edges[e + E_TO] / nodeFields === child) return `${label(from)}.${edgeName(e)}`;
  }
  return '?';
};
const min = (Number(minArg ?? 2) / 100) * retained[0];
console.log(`\nWhat keeps the heap (dominator tree, objects retaining ≥ ${mb(min)}; retained size, edge from the dominator, object):`);
const print = (n, depth) => {
  const kids = (children.get(n) ?? []).filter((c) => retained[c] >= min).sort((a, b) => retained[b] - retained[a]);
  for (const c of kids.slice(0, 12)) {
    console.log(`  ${mb(retained[c]).padStart(10)}  ${'  '.repeat(depth)}${via(n, c)} → ${label(c)}`);
    if (depth < 14) print(c, depth + 1);
  }
};
print(0, 0);

// Runs the web build's language server (dist/browser/server.js, a script for a browser's Web Worker) in
// Node over stdio, so that the LSP tests' client can ask it what it asks the desktop server (parity.test.ts).
// The worker's global `self` is played by the process: what the server posts goes to stdout as LSP frames,
// what arrives on stdin is delivered as `message` events. The script is the very file a browser loads.
import * as path from 'node:path';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { REPO_ROOT } from '../../support/corpus';

const reader = new StreamMessageReader(process.stdin);
const writer = new StreamMessageWriter(process.stdout);
// stdout carries the protocol: anything the bundle prints goes to stderr.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

const worker = {
  onmessage: undefined as ((event: { data: unknown }) => void) | undefined,
  addEventListener: () => undefined,
  postMessage: (message: unknown) => void writer.write(message as never),
  // Where a browser would have loaded the script from (the rule pages' links are made from it).
  location: { href: 'http://localhost/static/devextensions/dist/browser/server.js' },
};
(globalThis as { self?: unknown }).self = worker;
reader.listen((message) => worker.onmessage?.({ data: message }));
process.stdin.on('end', () => process.exit(0));

// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(REPO_ROOT, 'dist/browser/server.js'));

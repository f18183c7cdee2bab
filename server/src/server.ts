#!/usr/bin/env node
// The language server's entry: over stdio (`--stdio`, any LSP editor) or node IPC (VS Code).
import * as path from 'node:path';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './lsp/startServer';
import { serverCommandLine } from './lsp/node/serverArgs';
import { nodeHost } from './lsp/node/nodeHost';

// Two folders up from this file, compiled (server/out/server.js) and bundled (server/out/server.bundle.js, dist/server/server.js).
const packageRoot = path.resolve(__dirname, '../..');
const answer = serverCommandLine(process.argv.slice(2), packageRoot);
if (answer) {
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  process.exitCode = answer.exit;
} else {
  startServer(createConnection(ProposedFeatures.all), nodeHost(packageRoot));
}

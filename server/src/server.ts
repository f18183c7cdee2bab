#!/usr/bin/env node
// The language server's entry: over stdio (`--stdio`, any LSP editor) or node IPC (VS Code).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './startServer';
import { serverCommandLine } from './serverArgs';
import { nodeHost } from './nodeHost';

const answer = serverCommandLine(process.argv.slice(2));
if (answer) {
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  process.exitCode = answer.exit;
} else {
  startServer(createConnection(ProposedFeatures.all), nodeHost());
}

#!/usr/bin/env node
// The language server's entry: over stdio (`--stdio`, any LSP editor) or node IPC (VS Code).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './startServer';

startServer(createConnection(ProposedFeatures.all));

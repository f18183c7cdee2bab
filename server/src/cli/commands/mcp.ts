// `policyset mcp`: the Model Context Protocol server over standard input and output (../mcp/server.ts), with
// the read-only tools of ../mcp/tools.ts, for agents that edit policy files to check their own edits.
import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import { InputError, UsageError } from '../../node/files';
import { lineReader, McpServer, RPC } from '../mcp/server';
import { mcpTools } from '../mcp/tools';
import { cliVersion } from '../version';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset mcp [--folder <folder>]

Runs a Model Context Protocol server on standard input and output (JSON-RPC, one message per line),
for AI agents and editors: an MCP client starts it and calls its tools. The tools only read:
  lint      the diagnostics of policyset lint --format json, for files, folders, patterns or text
  diff      what changed between two versions of a set and what it asks of the version (policyset diff)
  rules     the rules: code, name, default severity, what each checks
  explain   one rule's page
Paths are relative to the working folder and must stay inside it (a path outside, or a link out of
it, is refused); the nearest .policysetrc.json applies as for policyset lint. Nothing is written,
deployed or deleted, and no service is called.

Options:
      --folder <folder>            The working folder (default: the current folder)
  -h, --help                       Show this help

Examples:
  policyset mcp
  policyset mcp --folder policies/
An MCP client's configuration (VS Code's .vscode/mcp.json):
  { "servers": { "policyset": { "type": "stdio", "command": "npx", "args": ["policyset", "mcp"] } } }

Exit status: 0 the client closed standard input, 2 usage problems (a folder that cannot be used).
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'the client closed standard input', 2: 'usage problems (a folder that cannot be used)' };

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { folder: { type: 'string' } } });
  if (positionals.length)
    throw new UsageError(`mcp takes no arguments ('${positionals[0]}'): an MCP client sends its requests on standard input`);
  if (values.folder !== undefined) {
    try {
      if (!fs.statSync(values.folder).isDirectory()) throw new InputError(`--folder ${values.folder}: not a folder`);
      process.chdir(values.folder);
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError(
        `--folder ${values.folder}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (error as Error).message}`,
      );
    }
  }
  const root = process.cwd();
  const log = (line: string) => process.stderr.write(`policyset mcp: ${line}\n`);
  if (process.stdin.isTTY) log('waiting for an MCP client on standard input (JSON-RPC, one message per line); Ctrl+D ends');
  const send = (message: object) => process.stdout.write(JSON.stringify(message) + '\n');
  const server = new McpServer({ name: 'policyset', title: 'Policy Set Tools', version: cliVersion() }, mcpTools(root), send, log);
  const lines = lineReader(
    (line) => server.receive(line),
    () =>
      send({ jsonrpc: '2.0', id: null, error: { code: RPC.invalidRequest, message: 'Invalid Request: a message over 64 MB, skipped' } }),
  );
  await new Promise<void>((resolve, reject) => {
    process.stdin.on('data', (chunk: Buffer) => lines.push(chunk));
    process.stdin.on('end', () => {
      lines.end();
      resolve();
    });
    process.stdin.on('error', reject);
  });
  await server.idle();
  return 0;
}

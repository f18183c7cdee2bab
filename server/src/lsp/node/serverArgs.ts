import * as fs from 'node:fs';
import * as path from 'node:path';

export const SERVER_USAGE = `Usage: policyset-language-server --stdio
       policyset-language-server --node-ipc | --socket=<port> | --pipe=<name>

The policy set language server (LSP). Editors start it; it speaks the protocol over the transport given:
  --stdio            standard input and output (Neovim, Emacs eglot, Helix, any LSP client)
  --node-ipc         Node IPC (VS Code starts it this way)
  --socket=<port>    a TCP socket on this port
  --pipe=<name>      a named pipe
  -h, --help         Show this help
  -v, --version      Show the version
`;

const TRANSPORT = /^--(stdio|node-ipc|socket=.+|pipe=.+)$/;

/**
 * What the command line asks for before any connection is made: help, the version, or a transport.
 * Without a transport the LSP library would throw a stack trace; this answers with usage instead.
 */
export function serverCommandLine(argv: string[], root: string): { exit: number; stdout?: string; stderr?: string } | undefined {
  if (argv.includes('-h') || argv.includes('--help')) return { exit: 0, stdout: SERVER_USAGE };
  if (argv.includes('-v') || argv.includes('--version')) return { exit: 0, stdout: `${version(root)}\n` };
  if (argv.some((a) => TRANSPORT.test(a))) return undefined;
  return {
    exit: 2,
    stderr: `policyset-language-server: no transport given: pass --stdio (or --node-ipc, --socket=<port>, --pipe=<name>)\n\n${SERVER_USAGE}`,
  };
}

/** `root`: the package's root (the entry resolves it: the compiled and the bundled server sit at different depths). */
function version(root: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

// The extension's tools for language models (Copilot's agent mode and other chat participants): lint and
// rules, answered by the language server (custom requests policySet/documentDiagnostics and policySet/rules),
// so an agent that edits a policy file can check its edit with the diagnostics the editor shows. And the
// MCP server `policyset mcp` offered to VS Code, which starts it itself (lint, diff, rules, explain).
//
// The manifest keeps `engines.vscode` at ^1.91: `vscode.lm.registerTool` is in the API from 1.95 and
// `vscode.lm.registerMcpServerDefinitionProvider` from 1.101, so each is registered only when this VS Code has
// it (the declarations below are the parts of those APIs used here; @types/vscode stays at 1.91).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DOCUMENT_DIAGNOSTICS_REQUEST, RULES_REQUEST, type DocumentDiagnosticsAnswer, type RuleSummary } from '#protocol';

/** What the tools ask of the language client. */
export interface ToolsClient {
  sendRequest<R>(method: string, params?: unknown): Promise<R>;
}

interface LanguageModelTextPart {
  value: string;
}
interface LanguageModelToolApi {
  registerTool?(
    name: string,
    tool: { invoke(options: { input: unknown }, token: vscode.CancellationToken): Promise<unknown> },
  ): vscode.Disposable;
  registerMcpServerDefinitionProvider?(id: string, provider: { provideMcpServerDefinitions(): unknown[] }): vscode.Disposable;
}
interface ToolClasses {
  LanguageModelToolResult?: new (parts: LanguageModelTextPart[]) => unknown;
  LanguageModelTextPart?: new (value: string) => LanguageModelTextPart;
  McpStdioServerDefinition?: new (
    label: string,
    command: string,
    args?: string[],
    env?: Record<string, string>,
    version?: string,
  ) => { cwd?: vscode.Uri };
}

/** At most this many files per lint call: a folder of thousands is the CLI's work (`policyset lint`). */
const MAX_FILES = 200;
const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** The files a path names: itself, or the .json and .jsonc files under a folder (node_modules left out). */
async function filesOf(given: string): Promise<vscode.Uri[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.length) throw new Error('no folder is open: the lint tool reads files of the workspace');
  const uri = path.isAbsolute(given) ? vscode.Uri.file(given) : vscode.Uri.joinPath(folders[0].uri, given);
  // Only files of the workspace: a model names no file elsewhere.
  if (!vscode.workspace.getWorkspaceFolder(uri))
    throw new Error(`${given} is outside the workspace folders: the lint tool reads only files of the workspace`);
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory)
    return vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*.{json,jsonc}'), '**/node_modules/**', MAX_FILES + 1);
  return [uri];
}

/** The lint tool: each file opened (so the language server has it) and its diagnostics asked for. */
export async function lintForModel(client: ToolsClient, input: unknown): Promise<string> {
  const paths = (input as { paths?: unknown } | undefined)?.paths;
  if (!Array.isArray(paths) || !paths.length || paths.some((p) => typeof p !== 'string'))
    return 'policyset_lint needs paths: an array of files or folders of the workspace';
  const uris: vscode.Uri[] = [];
  for (const given of paths as string[]) {
    try {
      uris.push(...(await filesOf(given)));
    } catch (error) {
      return `${given}: ${(error as Error).message}`;
    }
  }
  const files = [];
  const skipped = [];
  for (const uri of uris.slice(0, MAX_FILES)) {
    const document = await vscode.workspace.openTextDocument(uri);
    const answer = await client.sendRequest<DocumentDiagnosticsAnswer | null>(DOCUMENT_DIAGNOSTICS_REQUEST, {
      textDocument: { uri: document.uri.toString() },
    });
    const file = vscode.workspace.asRelativePath(uri, false);
    if (!answer || answer.kind === 'unknown') {
      skipped.push(file);
      continue;
    }
    files.push({
      file,
      kind: answer.kind,
      diagnostics: answer.diagnostics.map((d) => ({
        code: d.code,
        severity: SEVERITY[d.severity ?? 1],
        message: d.message,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
      })),
    });
  }
  const notes = uris.length > MAX_FILES ? [`only the first ${MAX_FILES} files were checked: run policyset lint for a whole tree`] : [];
  return JSON.stringify({ files, skipped, ...(notes.length ? { notes } : {}) }, null, 2);
}

export async function rulesForModel(client: ToolsClient): Promise<string> {
  return JSON.stringify(await client.sendRequest<RuleSummary[]>(RULES_REQUEST), null, 2);
}

/** `policyset mcp`: bundled alone in a packaged extension (scripts/bundle.js), the CLI in a checkout. */
function mcpCommand(context: vscode.ExtensionContext): string[] {
  const bundled = context.asAbsolutePath('dist/server/cli/mcp.js');
  return fs.existsSync(bundled) ? [bundled] : [context.asAbsolutePath('bin/policyset.js'), 'mcp'];
}

/**
 * Registers the tools when this VS Code has the APIs (see the top of this file); says in the log what it
 * registered or why not.
 */
export function registerLanguageModelTools(context: vscode.ExtensionContext, client: ToolsClient, log: vscode.LogOutputChannel): void {
  const lm = (vscode as unknown as { lm?: LanguageModelToolApi }).lm;
  const classes = vscode as unknown as ToolClasses;
  const { LanguageModelToolResult: Result, LanguageModelTextPart: TextPart } = classes;
  if (lm?.registerTool && Result && TextPart) {
    const answer = (text: string) => new Result([new TextPart(text)]);
    context.subscriptions.push(
      lm.registerTool('policyset_lint', { invoke: async (options) => answer(await lintForModel(client, options.input)) }),
      lm.registerTool('policyset_rules', { invoke: async () => answer(await rulesForModel(client)) }),
    );
    log.info('language-model tools registered: policyset_lint, policyset_rules');
  } else log.info(`language-model tools not registered: VS Code ${vscode.version} has no vscode.lm.registerTool (1.95 and later have it)`);

  const Definition = classes.McpStdioServerDefinition;
  if (lm?.registerMcpServerDefinitionProvider && Definition) {
    context.subscriptions.push(
      lm.registerMcpServerDefinitionProvider('policyset.mcp', {
        // VS Code's own runtime runs the CLI as Node (ELECTRON_RUN_AS_NODE), in the first workspace folder.
        provideMcpServerDefinitions: () => {
          const folder = vscode.workspace.workspaceFolders?.[0];
          if (!folder || folder.uri.scheme !== 'file') return [];
          const definition = new Definition(
            'Policy Set',
            process.execPath,
            mcpCommand(context),
            { ELECTRON_RUN_AS_NODE: '1' },
            String(context.extension.packageJSON.version),
          );
          definition.cwd = folder.uri;
          return [definition];
        },
      }),
    );
    log.info('MCP server definition registered: policyset mcp');
  }
}

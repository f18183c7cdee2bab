import * as vscode from 'vscode';

export function workspaceFile(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the e2e suite needs a workspace folder (the fixtures)');
  return vscode.Uri.joinPath(folder.uri, relative);
}

/** Polls until `check` returns a value; never a fixed sleep. */
export async function poll<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The open document for a URI (the object changes when its language is switched). */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString() && !d.isClosed);
}

export async function open(relative: string): Promise<vscode.Uri> {
  const uri = workspaceFile(relative);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  return uri;
}

export function codeOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

export function waitForDiagnostic(uri: vscode.Uri, code: string, timeoutMs = 15_000): Promise<vscode.Diagnostic> {
  return poll(`diagnostic ${code} on ${uri.path}`, () => vscode.languages.getDiagnostics(uri).find((d) => codeOf(d) === code), timeoutMs);
}

/** The position just after the first occurrence of `needle` in the document. */
export function positionAfter(document: vscode.TextDocument, needle: string): vscode.Position {
  const offset = document.getText().indexOf(needle);
  if (offset < 0) throw new Error(`'${needle}' is not in ${document.uri.path}`);
  return document.positionAt(offset + needle.length);
}

import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, TextEdit } from 'vscode-languageserver-types';

/** Applies LSP text edits to a text, as an editor does (all ranges refer to the original text). */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///edit.json', 'json', 1, text), edits);
}

/** The edits a code action makes to one document (its `edit.changes`; `documentChanges` are not used by the service). */
export function editsOf(action: CodeAction, uri: string): TextEdit[] {
  const changes = action.edit?.changes;
  if (!changes) throw new Error(`code action '${action.title}' has no edit.changes`);
  const others = Object.keys(changes).filter((u) => u !== uri);
  if (others.length) throw new Error(`code action '${action.title}' edits other documents: ${others.join(', ')}`);
  return changes[uri] ?? [];
}

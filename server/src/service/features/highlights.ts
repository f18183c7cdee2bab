import { DocumentHighlightKind, type DocumentHighlight } from 'vscode-languageserver-types';
import type { PolicyDocument } from '../validate';
import { occurrences, targetAt } from './locate';

/**
 * Document highlight: every place in the document that names the parameter, group or reference ID under the
 * cursor, found as references and rename find them (names match case-insensitively). A declaration is a
 * Write, a use a Read. Elsewhere: none (the editor then highlights the word by itself).
 */
export function getDocumentHighlights(document: PolicyDocument, offset: number): DocumentHighlight[] {
  const target = targetAt(document, offset);
  if (!target || (target.type !== 'group' && target.type !== 'parameter' && target.type !== 'referenceId')) return [];
  return occurrences(document.parsed.text, target).map((o) => ({
    range: document.lines.rangeOf(o.start, o.end),
    kind: o.declaration ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}

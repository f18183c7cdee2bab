// What a well-formed answer to each LSP request is, for the fuzz test: the result type of the request (the
// guards of vscode-languageserver-types where it has them), and every range of the asked document inside that
// document and ordered. Returns the problems found, [] for a good answer.
import {
  CodeLens,
  CodeAction,
  Command,
  CompletionItem,
  Diagnostic,
  DocumentHighlight,
  DocumentLink,
  DocumentSymbol,
  FoldingRange,
  Hover,
  InlayHint,
  Location,
  LocationLink,
  Range,
  SelectionRange,
  SymbolInformation,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-types';

/**
 * Errors a correct server may answer instead of a result: a request refused with a reason (InvalidRequest,
 * RequestFailed), cancelled, or overtaken by an edit (ContentModified). An internal error (-32603) is a
 * handler that threw; method-not-found or invalid-params a server that does not do what it advertised.
 */
export const ALLOWED_ERRORS = new Set([-32600, -32800, -32801, -32803]);

/** The length of each line of a text, its line end left out, with the lines as LSP counts them (\r\n, \r and \n end a line). */
export function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((line) => line.length);
}

type Check = (value: unknown, where: string) => void;

/** Problems with `result` as the answer to `method` asked with `params` about the document `uri`, whose line lengths are given. */
export function answerProblems(method: string, params: Record<string, unknown>, result: unknown, uri: string, lines: number[]): string[] {
  const problems: string[] = [];
  const fail = (where: string, what: string, value: unknown) => {
    if (problems.length < 5) problems.push(`${where}: ${what}: ${JSON.stringify(value)?.slice(0, 300)}`);
  };
  /** A range of the asked document: ordered, and both ends inside the text. */
  const inDocument = (range: unknown, where: string) => {
    if (!Range.is(range)) return fail(where, 'not a range', range);
    const { start, end } = range;
    if (start.line > end.line || (start.line === end.line && start.character > end.character)) fail(where, 'starts after it ends', range);
    for (const [name, p] of [
      ['start', start],
      ['end', end],
    ] as const) {
      if (p.line >= lines.length || p.character > lines[p.line])
        fail(
          where,
          `${name} outside the document (${lines.length} lines${p.line < lines.length ? `, line ${p.line} has ${lines[p.line]} characters` : ''})`,
          range,
        );
    }
  };
  /** A range of any document: at least ordered. */
  const ordered = (range: unknown, where: string) => {
    if (!Range.is(range)) return fail(where, 'not a range', range);
    const { start, end } = range;
    if (start.line > end.line || (start.line === end.line && start.character > end.character)) fail(where, 'starts after it ends', range);
  };
  const rangeOf = (target: string) => (target === uri ? inDocument : ordered);
  const list =
    (check: Check): Check =>
    (value, where) => {
      if (!Array.isArray(value)) return fail(where, 'not an array', value);
      value.forEach((item, i) => check(item, `${where}[${i}]`));
    };
  const nullOr =
    (check: Check): Check =>
    (value, where) => {
      if (value !== null) check(value, where);
    };
  const textEdit =
    (target: string): Check =>
    (value, where) => {
      if (!TextEdit.is(value)) return fail(where, 'not a TextEdit', value);
      rangeOf(target)(value.range, `${where}.range`);
    };
  const location: Check = (value, where) => {
    if (!Location.is(value)) return fail(where, 'not a Location', value);
    rangeOf(value.uri)(value.range, `${where}.range`);
  };
  const locationLink: Check = (value, where) => {
    if (!LocationLink.is(value)) return fail(where, 'not a LocationLink', value);
    rangeOf(value.targetUri)(value.targetRange, `${where}.targetRange`);
    rangeOf(value.targetUri)(value.targetSelectionRange, `${where}.targetSelectionRange`);
    if (value.originSelectionRange) inDocument(value.originSelectionRange, `${where}.originSelectionRange`);
  };
  const workspaceEdit: Check = (value, where) => {
    if (!WorkspaceEdit.is(value)) return fail(where, 'not a WorkspaceEdit', value);
    for (const [target, edits] of Object.entries(value.changes ?? {})) list(textEdit(target))(edits, `${where}.changes[${target}]`);
    for (const [i, change] of (value.documentChanges ?? []).entries()) {
      if (TextDocumentEdit.is(change)) list(textEdit(change.textDocument.uri))(change.edits, `${where}.documentChanges[${i}].edits`);
    }
  };
  const diagnostic: Check = (value, where) => {
    if (!Diagnostic.is(value)) return fail(where, 'not a Diagnostic', value);
    inDocument(value.range, `${where}.range`);
  };
  const completionItem: Check = (value, where) => {
    const item = value as CompletionItem;
    if (typeof item !== 'object' || item === null || typeof item.label !== 'string') return fail(where, 'not a CompletionItem', value);
    if (item.textEdit) {
      if ('range' in item.textEdit) inDocument(item.textEdit.range, `${where}.textEdit.range`);
      else {
        inDocument(item.textEdit.insert, `${where}.textEdit.insert`);
        inDocument(item.textEdit.replace, `${where}.textEdit.replace`);
      }
    }
    if (item.additionalTextEdits !== undefined) list(textEdit(uri))(item.additionalTextEdits, `${where}.additionalTextEdits`);
  };
  const documentSymbol: Check = (value, where) => {
    if (DocumentSymbol.is(value)) {
      inDocument(value.range, `${where}.range`);
      inDocument(value.selectionRange, `${where}.selectionRange`);
      if (value.children !== undefined) list(documentSymbol)(value.children, `${where}.children`);
    } else if (typeof (value as SymbolInformation)?.name === 'string' && typeof (value as SymbolInformation).kind === 'number')
      location((value as SymbolInformation).location, `${where}.location`);
    else fail(where, 'neither a DocumentSymbol nor a SymbolInformation', value);
  };
  const selectionRange: Check = (value, where) => {
    if (!SelectionRange.is(value)) return fail(where, 'not a SelectionRange', value);
    inDocument(value.range, `${where}.range`);
    if (value.parent) selectionRange(value.parent, `${where}.parent`);
  };

  const checks: Record<string, Check> = {
    'textDocument/completion': nullOr((value, where) => {
      if (Array.isArray(value)) return list(completionItem)(value, where);
      const completionList = value as { isIncomplete?: unknown; items?: unknown };
      if (typeof completionList !== 'object' || typeof completionList.isIncomplete !== 'boolean')
        return fail(where, 'neither CompletionItem[] nor a CompletionList', value);
      list(completionItem)(completionList.items, `${where}.items`);
    }),
    'textDocument/hover': nullOr((value, where) => {
      if (!Hover.is(value)) return fail(where, 'not a Hover', value);
      if (value.range) inDocument(value.range, `${where}.range`);
    }),
    'textDocument/definition': nullOr((value, where) => {
      if (Array.isArray(value)) list((item, w) => (LocationLink.is(item) ? locationLink(item, w) : location(item, w)))(value, where);
      else location(value, where);
    }),
    'textDocument/references': nullOr(list(location)),
    'textDocument/documentHighlight': nullOr(
      list((value, where) => {
        const highlight = value as DocumentHighlight;
        if (typeof highlight !== 'object' || highlight === null || (highlight.kind !== undefined && typeof highlight.kind !== 'number'))
          return fail(where, 'not a DocumentHighlight', value);
        inDocument(highlight.range, `${where}.range`);
      }),
    ),
    'textDocument/documentSymbol': nullOr(list(documentSymbol)),
    'textDocument/inlayHint': nullOr(
      list((value, where) => {
        if (!InlayHint.is(value)) return fail(where, 'not an InlayHint', value);
        inDocument({ start: value.position, end: value.position }, `${where}.position`);
      }),
    ),
    'textDocument/codeLens': nullOr(
      list((value, where) => {
        if (!CodeLens.is(value)) return fail(where, 'not a CodeLens', value);
        inDocument(value.range, `${where}.range`);
        if (value.command && !Command.is(value.command)) fail(where, 'a command that is not a Command', value);
      }),
    ),
    'textDocument/documentLink': nullOr(
      list((value, where) => {
        if (!DocumentLink.is(value)) return fail(where, 'not a DocumentLink', value);
        inDocument(value.range, `${where}.range`);
        if (value.target !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(value.target)) fail(where, 'a target that is not a URI', value);
      }),
    ),
    'workspace/symbol': nullOr(
      list((value, where) => {
        const symbol = value as SymbolInformation;
        if (typeof symbol?.name !== 'string' || typeof symbol.kind !== 'number') return fail(where, 'not a SymbolInformation', value);
        location(symbol.location, `${where}.location`);
      }),
    ),
    'textDocument/codeAction': nullOr(
      list((value, where) => {
        if (CodeAction.is(value)) {
          if (value.edit) workspaceEdit(value.edit, `${where}.edit`);
          if (value.diagnostics)
            list(ordered)(
              value.diagnostics.map((d) => d.range),
              `${where}.diagnostics`,
            );
        } else if (!Command.is(value)) fail(where, 'neither a CodeAction nor a Command', value);
      }),
    ),
    'textDocument/formatting': nullOr(list(textEdit(uri))),
    'textDocument/rangeFormatting': nullOr(list(textEdit(uri))),
    'textDocument/rename': nullOr(workspaceEdit),
    'textDocument/foldingRange': nullOr(
      list((value, where) => {
        if (!FoldingRange.is(value)) return fail(where, 'not a FoldingRange', value);
        if (value.startLine > value.endLine || value.endLine >= lines.length)
          fail(where, `lines not ordered or outside the document (${lines.length} lines)`, value);
      }),
    ),
    'textDocument/selectionRange': nullOr((value, where) => {
      list(selectionRange)(value, where);
      const positions = params.positions as unknown[] | undefined;
      if (Array.isArray(value) && positions && value.length !== positions.length)
        fail(where, `${value.length} selection ranges for ${positions.length} positions`, value);
    }),
    'textDocument/diagnostic': (value, where) => {
      const report = value as { kind?: unknown; items?: unknown; resultId?: unknown };
      if (typeof report !== 'object' || report === null) return fail(where, 'not a document diagnostic report', value);
      if (report.kind === 'full') list(diagnostic)(report.items, `${where}.items`);
      else if (report.kind !== 'unchanged' || typeof report.resultId !== 'string')
        fail(where, 'neither a full nor an unchanged report', value);
    },
  };
  const check = checks[method];
  if (!check) return [`no check for the answer to ${method}`];
  check(result, 'result');
  return problems;
}

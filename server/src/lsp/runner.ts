// The safe handler wrapper: a request answers, whatever happens while it is computed. A cancelled request
// answers RequestCancelled, an answer computed on a version of the document that changed meanwhile answers
// ContentModified (the client asks again), and a failure answers InternalError (logged) instead of taking
// the server down. As json-language-features' server/src/utils/runner.ts.
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { PolicyDocument } from '../service';

export const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');

/** What a document request needs around its work. */
export interface RunnerContext {
  documents: TextDocuments<TextDocument>;
  /** The document's parse (see parses in documentCache.ts); `model: false`: without the set models. */
  parsed(document: TextDocument, model?: boolean): PolicyDocument;
  /** Called as each request starts (the idle collection waits for quiet). */
  started(): void;
  logError(message: string): void;
}

export type DocumentWork<P, R> = (document: TextDocument, policyDocument: PolicyDocument, params: P) => R | Promise<R>;
export type DocumentHandler<P, R> = (params: P, token: CancellationToken) => Promise<R>;
export type Runner = <P extends { textDocument: { uri: string } }, R>(
  name: string,
  work: DocumentWork<P, R>,
  empty: R,
  options?: { model?: boolean },
) => DocumentHandler<P, R>;

/**
 * A runner of requests on the current version of their document: `empty` answers a document the server
 * does not have; `model: false` leaves the set models out of the parse (completion builds the one it needs).
 */
export function documentRunner(context: RunnerContext): Runner {
  return <P extends { textDocument: { uri: string } }, R>(
      name: string,
      work: DocumentWork<P, R>,
      empty: R,
      options: { model?: boolean } = {},
    ) =>
    async (params: P, token: CancellationToken): Promise<R> => {
      if (token.isCancellationRequested) throw cancelled();
      context.started();
      const document = context.documents.get(params.textDocument.uri);
      if (!document) return empty;
      const version = document.version;
      let result: R;
      try {
        result = await work(document, context.parsed(document, options.model), params);
      } catch (error) {
        if (error instanceof ResponseError) throw error;
        context.logError(`${name} failed on ${document.uri}: ${(error as Error).stack ?? error}`);
        throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${(error as Error).message}`);
      }
      if (token.isCancellationRequested) throw cancelled();
      if (context.documents.get(document.uri)?.version !== version)
        throw new ResponseError(LSPErrorCodes.ContentModified, 'the document changed');
      return result;
    };
}

/** A request about no document: a failure answers InvalidParams with `label: <why>` (the params were not usable). */
export function paramsRunner<P, R>(label: string, work: (params: P) => R): (params: P) => R {
  return (params) => {
    try {
      return work(params);
    } catch (error) {
      throw new ResponseError(ErrorCodes.InvalidParams, `${label}: ${(error as Error).message}`);
    }
  };
}

import type * as http from 'node:http';

/** What a route of the local service gets for one request (after faults and the token check). */
export interface RouteContext {
  method: string;
  url: URL;
  body: string;
  req: http.IncomingMessage;
  /** Answers (JSON unless headers say otherwise); returns true, so a route can `return send(...)`. */
  send: (status: number, text: string, headers?: http.OutgoingHttpHeaders) => true;
  /** Records what the service did with the request (a status or a note), for the request log. */
  done: (outcome: string) => void;
}

/**
 * One interface of the local service: answers the requests it owns and returns true, or returns false
 * for requests that are not its own. The local service asks each route in turn (one per interface).
 */
export type Route = (context: RouteContext) => boolean;

/** The ErrorResponse shape of the resource manager interfaces (A, B, D). */
export function errorBody(code: string, message: string, target?: string): string {
  return JSON.stringify({ error: { code, message, ...(target ? { target } : {}), details: [], additionalInfo: [] } });
}

/** The ErrorResponse shape of the workspace-items interface (C: E4, E5): errorCode, message, requestId in the body. */
export function itemsErrorBody(
  errorCode: string,
  message: string,
  requestId: string,
  relatedResource?: { resourceId: string; resourceType: string },
): string {
  return JSON.stringify({ errorCode, message, requestId, ...(relatedResource ? { relatedResource } : {}), moreDetails: [] });
}

/** The items interface's paths: its error bodies have their own shape. */
export const isItemsPath = (pathname: string): boolean => pathname.startsWith('/v1/');

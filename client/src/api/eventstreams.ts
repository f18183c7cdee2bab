import { HttpClient, type CallOptions, type HttpClientOptions, type HttpResponse } from './http';
import { InvalidRequestError, ServiceError } from './errors';
import type { ServiceSettings } from './settings';

/** Workspace and item IDs are UUIDs (spec E4, E5). */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The delegated scopes of the spec ("Authentication"): either one of a pair is enough. The first of each
 * pair (the narrower, eventstream-only one) is what the extension asks its authentication provider for.
 */
export const EVENTSTREAM_SCOPES = {
  read: ['Eventstream.Read.All', 'Item.Read.All', 'Eventstream.ReadWrite.All', 'Item.ReadWrite.All'],
  write: ['Eventstream.ReadWrite.All', 'Item.ReadWrite.All'],
} as const;

/** C: an eventstream item. */
export interface Eventstream {
  id?: string;
  workspaceId?: string;
  folderId?: string;
  displayName?: string;
  description?: string;
  type?: string;
  sensitivityLabel?: { id?: string };
  tags?: Array<{ id?: string; displayName?: string }>;
  [key: string]: unknown;
}

export interface DeleteResult {
  status: number;
  /** The service accepted the DELETE but its answer's body could not be read (an excerpt): deleted all the same. */
  unreadableBody?: string;
  /**
   * True when a DELETE retried after a 429 (or 503: not processed) was answered ItemNotFound: the item was
   * deleted meanwhile. Not a failure. (After a refused connection, ItemNotFound stays an error: that
   * attempt never reached the service.)
   */
  alreadyDeleted: boolean;
  requestId?: string;
}

export function checkItemId(value: string, what: 'workspace' | 'eventstream'): string | undefined {
  return UUID_PATTERN.test(value)
    ? undefined
    : `'${value}' is not a${what === 'eventstream' ? 'n' : ''} ${what} ID: use a UUID like 00000000-0000-0000-0000-000000000000`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** E4 and E5 over one HttpClient, on the workspace-items address. */
export class EventstreamClient {
  readonly http: HttpClient;
  constructor(
    readonly settings: ServiceSettings,
    options: Omit<HttpClientOptions, 'baseUrl'>,
  ) {
    if (!settings.itemsBaseUrl) throw new InvalidRequestError('No workspace-items address (items base URL) is set');
    this.http = new HttpClient({ ...options, baseUrl: settings.itemsBaseUrl });
  }

  /** The path of an eventstream below the items address; both IDs checked first. */
  eventstreamPath(workspaceId: string, eventstreamId: string): string {
    const problem = checkItemId(workspaceId, 'workspace') ?? checkItemId(eventstreamId, 'eventstream');
    if (problem) throw new InvalidRequestError(problem);
    return `/v1/workspaces/${workspaceId}/eventstreams/${eventstreamId}`;
  }

  /** The address of an eventstream, exactly as a DELETE is sent (for the confirmation). */
  eventstreamUrl(workspaceId: string, eventstreamId: string): string {
    return this.http.urlOf({ path: this.eventstreamPath(workspaceId, eventstreamId), apiVersion: '' });
  }

  /** E4: the eventstream. */
  async get(workspaceId: string, eventstreamId: string, options: CallOptions = {}): Promise<HttpResponse<Eventstream>> {
    const path = this.eventstreamPath(workspaceId, eventstreamId);
    try {
      const response = await this.http.send<Eventstream>({ method: 'GET', path, apiVersion: '', area: 'eventstream' }, options);
      if (!isObject(response.body)) {
        throw new ServiceError(
          `The service answered ${response.status} to GET ${path} with a body that is not an item`,
          response.status,
          'InvalidResponse',
          '',
          'unexpected',
          undefined,
          [],
          response.requestId,
        );
      }
      return response;
    } catch (error) {
      throw explain(error, workspaceId, eventstreamId, 'read');
    }
  }

  /**
   * E5: deletes the eventstream. Sent again only after answers that mean "not processed" (429, 503) or a
   * refused connection; never after a dropped connection, a timeout or a 500 (see http.ts). When a retry
   * is answered ItemNotFound, the item was deleted meanwhile: `alreadyDeleted`, not a failure.
   */
  async delete(workspaceId: string, eventstreamId: string, options: CallOptions = {}): Promise<DeleteResult> {
    const path = this.eventstreamPath(workspaceId, eventstreamId);
    try {
      const response = await this.http.send<unknown>({ method: 'DELETE', path, apiVersion: '', area: 'eventstream' }, options);
      return {
        status: response.status,
        alreadyDeleted: false,
        requestId: response.requestId,
        ...(response.unreadableBody !== undefined ? { unreadableBody: response.unreadableBody } : {}),
      };
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'ItemNotFound' && error.earlierStatuses.some((s) => s === 429 || s === 503)) {
        return { status: error.status, alreadyDeleted: true, requestId: error.requestId };
      }
      throw explain(error, workspaceId, eventstreamId, 'write');
    }
  }
}

/** ItemNotFound in the user's terms; 401/403 with the scope that is needed. Everything else as it is. */
function explain(error: unknown, workspaceId: string, eventstreamId: string, access: 'read' | 'write'): unknown {
  if (!(error instanceof ServiceError)) return error;
  const id = error.requestId ? ` (request id ${error.requestId})` : '';
  let message: string | undefined;
  if (error.code === 'ItemNotFound')
    message = `No eventstream ${eventstreamId} in workspace ${workspaceId}: ${error.code} (${error.status})${id}`;
  else if (error.status === 401 || error.status === 403) {
    const scopes =
      access === 'read' ? 'Eventstream.Read.All or Item.Read.All (or a ReadWrite one)' : 'Eventstream.ReadWrite.All or Item.ReadWrite.All';
    message = `${error.message}; ${access === 'read' ? 'reading' : 'deleting'} an eventstream needs a token with the delegated scope ${scopes}`;
  }
  if (!message) return error;
  return Object.assign(
    new ServiceError(
      message,
      error.status,
      error.code,
      error.serviceMessage,
      error.shape,
      error.target,
      error.details,
      error.requestId,
      error.retryAfterSeconds,
      error.excerpt,
    ),
    { earlierStatuses: error.earlierStatuses },
  );
}

/**
 * The scope to ask an authentication provider for: the spec's narrower delegated scope (Eventstream.*),
 * on the items address's origin, as identity providers name a resource's scopes (`<resource>/<scope>`).
 */
export function eventstreamScopes(itemsBaseUrl: string, access: 'read' | 'write'): string[] {
  return [`${new URL(itemsBaseUrl).origin}/${access === 'read' ? EVENTSTREAM_SCOPES.read[0] : EVENTSTREAM_SCOPES.write[0]}`];
}

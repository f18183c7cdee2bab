import { randomUUID } from 'node:crypto';
import { itemsErrorBody, type Route } from './routes';

// E4 (get an eventstream) and E5 (delete an eventstream) of the local service, over an in-memory store of
// eventstreams in two workspaces. Unknown items answer ItemNotFound in the items ErrorResponse shape.

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The two workspaces of the seed, and their eventstreams (IDs the tests and docs/service.md use). */
export const LOCAL_WORKSPACES = {
  sales: 'a1b2c3d4-0001-4a5b-8c6d-000000000001',
  telemetry: 'a1b2c3d4-0002-4a5b-8c6d-000000000002',
} as const;
export const LOCAL_EVENTSTREAMS = {
  orders: '5e7d1c2b-1111-4e2f-9a3b-0000000000a1',
  clicks: '5e7d1c2b-2222-4e2f-9a3b-0000000000a2',
  deviceEvents: '5e7d1c2b-3333-4e2f-9a3b-0000000000b1',
} as const;

export type StoredItem = Record<string, unknown> & { id: string; workspaceId: string };

export class EventstreamStore {
  readonly items = new Map<string, StoredItem>();

  constructor() {
    const folder = '3f9a2b71-5c4d-4e8f-a1b2-c3d4e5f60718';
    this.put({
      id: LOCAL_EVENTSTREAMS.orders,
      workspaceId: LOCAL_WORKSPACES.sales,
      folderId: folder,
      displayName: 'Orders stream',
      description: 'Order events from the web shop, routed to the sales lakehouse.',
      type: 'Eventstream',
      sensitivityLabel: { id: '9b1c7e0a-4d2f-4c3b-8e5a-6f7d8c9b0a12' },
      tags: [{ id: 'c0ffee00-1234-4abc-8def-001122334455', displayName: 'production' }],
    });
    this.put({
      id: LOCAL_EVENTSTREAMS.clicks,
      workspaceId: LOCAL_WORKSPACES.sales,
      displayName: 'Clickstream',
      description: 'Page views and clicks.',
      type: 'Eventstream',
    });
    this.put({
      id: LOCAL_EVENTSTREAMS.deviceEvents,
      workspaceId: LOCAL_WORKSPACES.telemetry,
      displayName: 'Device events',
      description: 'Telemetry from field devices.',
      type: 'Eventstream',
    });
  }

  private key(workspaceId: string, id: string): string {
    return `${workspaceId.toLowerCase()}/${id.toLowerCase()}`;
  }

  put(item: StoredItem): void {
    this.items.set(this.key(item.workspaceId, item.id), structuredClone(item));
  }

  get(workspaceId: string, id: string): StoredItem | undefined {
    const item = this.items.get(this.key(workspaceId, id));
    return item ? structuredClone(item) : undefined;
  }

  delete(workspaceId: string, id: string): boolean {
    return this.items.delete(this.key(workspaceId, id));
  }
}

export function eventstreamRoute({ store }: { store: EventstreamStore }): Route {
  const path = /^\/v1\/workspaces\/([^/]+)\/eventstreams\/([^/]+)$/;
  return ({ method, url, send, done }) => {
    const match = path.exec(url.pathname);
    if (!match) return false;
    const requestId = randomUUID();
    const [workspaceId, id] = [decodeURIComponent(match[1]), decodeURIComponent(match[2])];
    if (!UUID.test(workspaceId) || !UUID.test(id)) {
      done('400 id');
      return send(
        400,
        itemsErrorBody('InvalidParameter', `The workspace ID '${workspaceId}' or item ID '${id}' is not a UUID.`, requestId),
        { 'x-ms-request-id': requestId },
      );
    }
    const notFound = () => {
      done('404 ItemNotFound');
      return send(
        404,
        itemsErrorBody('ItemNotFound', 'The requested item was not found.', requestId, { resourceId: id, resourceType: 'Eventstream' }),
        { 'x-ms-request-id': requestId },
      );
    };
    if (method === 'GET') {
      const item = store.get(workspaceId, id);
      if (!item) return notFound();
      done('200');
      return send(200, JSON.stringify(item), { 'x-ms-request-id': requestId });
    }
    if (method === 'DELETE') {
      if (!store.delete(workspaceId, id)) return notFound();
      done('200');
      return send(200, '', { 'x-ms-request-id': requestId });
    }
    done('405');
    return send(405, itemsErrorBody('MethodNotAllowed', `${method} is not supported on an eventstream here.`, requestId));
  };
}

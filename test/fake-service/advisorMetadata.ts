import { errorBody, type Route } from './routes';

// E3 (list recommendation metadata) of the local service: the three entities the real service lists
// (recommendation type, category, impact), one per page, so that a listing follows two nextLinks.

export const METADATA_API_VERSION = '2025-01-01';

const CATEGORIES: Array<[string, string]> = [
  ['HighAvailability', 'Reliability'],
  ['Security', 'Security'],
  ['Performance', 'Performance'],
  ['Cost', 'Cost'],
  ['OperationalExcellence', 'Operational excellence'],
];

const TYPES: Array<[string, string]> = [
  ['3e35f804-52cb-4ebf-84d5-d15b3ab85dfd', 'Use availability zones for better resiliency and availability'],
  ['48eda464-1485-4dcf-a674-d0905df5054a', 'Enable soft delete to protect your blob data'],
  ['94aea435-ef39-493f-a547-8408092c22a7', 'Right-size or shut down underutilized virtual machines'],
  ['7e4c3a5a-6f2d-4d8b-9c1e-2b8f0a6d3c41', 'Enable diagnostic settings on resources'],
  ['c2b1f6a4-8d93-4e2b-a5f7-1d0e9c3b7a58', 'Upgrade to the latest TLS version'],
  ['5f0a9e27-3b6c-4d18-8e4f-a2c7b1d9e063', 'Buy reserved instances to save over pay-as-you-go costs'],
];

/** The entities, in the order the service lists them; `namespace` as in the paths. */
export function metadataEntities(namespace: string): Array<Record<string, unknown>> {
  const entity = (name: string, displayName: string, values: Array<[string, string]>, dependsOn: string[] | null) => ({
    id: `providers/${namespace}.Advisor/metadata/${name}`,
    type: `${namespace}.Advisor/metadata`,
    name,
    properties: {
      displayName,
      dependsOn,
      applicableScenarios: ['Alerts'],
      supportedValues: values.map(([id, display]) => ({ id, displayName: display })),
    },
  });
  return [
    entity('recommendationType', 'Recommendation Type', TYPES, ['recommendationCategory', 'recommendationImpact']),
    entity('recommendationCategory', 'Category', CATEGORIES, null),
    entity(
      'recommendationImpact',
      'Impact',
      [
        ['High', 'High'],
        ['Medium', 'Medium'],
        ['Low', 'Low'],
      ],
      null,
    ),
  ];
}

/** Entities per page. */
export const METADATA_PAGE_SIZE = 1;

/**
 * `$filter` on the entity name: `name eq '<entity>'`, several joined by `or`. The real service's forms on
 * recommendation properties (`recommendationCategory eq 'Cost'`) are not served here: a 400 says so.
 */
function parseFilter(filter: string): Set<string> | string {
  const names = new Set<string>();
  for (const clause of filter.split(/\s+or\s+/i)) {
    const match = /^\s*name\s+eq\s+'([^']*)'\s*$/i.exec(clause);
    if (!match) return `The $filter '${filter}' is not supported by the local service: use name eq '<entity>' (joined by or).`;
    names.add(match[1].toLowerCase());
  }
  return names;
}

export function advisorMetadataRoute({ namespace }: { namespace: string }): Route {
  const path = new RegExp(`^/providers/${namespace}\\.Advisor/metadata/?$`, 'i');
  const entities = metadataEntities(namespace);
  return ({ method, url, req, send, done }) => {
    if (!path.test(url.pathname)) return false;
    if (method !== 'GET') {
      done('405');
      return send(405, errorBody('MethodNotAllowed', `The metadata list is read-only: ${method} is not allowed.`));
    }
    const apiVersion = url.searchParams.get('api-version');
    if (apiVersion !== METADATA_API_VERSION) {
      done('400 api-version');
      return send(
        400,
        JSON.stringify({
          error: {
            code: apiVersion ? 'InvalidApiVersionParameter' : 'MissingApiVersionParameter',
            message: `The api-version '${apiVersion ?? ''}' is not supported; use '${METADATA_API_VERSION}'.`,
          },
        }),
      );
    }
    let selected = entities;
    const filter = url.searchParams.get('$filter');
    if (filter !== null && filter.trim()) {
      const names = parseFilter(filter);
      if (typeof names === 'string') {
        done('400 filter');
        return send(400, JSON.stringify({ error: { code: 'InvalidFilter', message: names } }));
      }
      selected = entities.filter((e) => names.has(String(e.name).toLowerCase()));
    }
    const skip = Number(url.searchParams.get('$skiptoken') ?? '0');
    if (!Number.isInteger(skip) || skip < 0) {
      done('400 skiptoken');
      return send(400, JSON.stringify({ error: { code: 'InvalidSkipToken', message: 'The $skiptoken is not valid.' } }));
    }
    const page = selected.slice(skip, skip + METADATA_PAGE_SIZE);
    const body: { value: unknown[]; nextLink?: string } = { value: page };
    if (skip + METADATA_PAGE_SIZE < selected.length) {
      const next = new URL(`http://${req.headers.host ?? '127.0.0.1'}${url.pathname}`);
      next.searchParams.set('api-version', METADATA_API_VERSION);
      if (filter) next.searchParams.set('$filter', filter);
      next.searchParams.set('$skiptoken', String(skip + METADATA_PAGE_SIZE));
      body.nextLink = next.toString();
    }
    done('200');
    return send(200, JSON.stringify(body));
  };
}

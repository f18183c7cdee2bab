import { capacityClassOf, rateLimits, MAX_RESOURCES_PER_REGION } from '#service';
import { errorBody, type Route } from './routes';

// E6 (create or update a model deployment), the GET of one deployment, and E7 (quota usage in a region) of
// the local service, over an in-memory subscription: accounts with their regions, quota limits per
// (region, format, deployment type, model) in units of 1,000 TPM, and the deployments that draw on them.
// Usage is computed from the deployments; a PUT over the free quota is answered 400 InsufficientQuota,
// as the real service answers it. Shape it with POST /_local/quota (see QuotaSeed).

export const DEPLOYMENT_API_VERSION = '2023-05-01';
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export interface QuotaSeed {
  /** Model-service resources and their regions. A PUT under an account that is not listed creates it in `defaultLocation`. */
  accounts?: Array<{ subscriptionId: string; resourceGroup: string; name: string; location: string }>;
  /** Quota limits in units of 1,000 TPM (as E7 reports them). */
  limits?: Array<{ subscriptionId?: string; location: string; model: string; sku?: string; format?: string; limit: number }>;
  /** Deployments that exist already. */
  deployments?: Array<{
    subscriptionId: string;
    resourceGroup: string;
    account: string;
    name: string;
    model: string;
    version?: string;
    format?: string;
    sku?: string;
    capacity: number;
  }>;
  /** Limit of a (region, model, type) that no entry names (default 100, i.e. 100,000 TPM). */
  defaultLimit?: number;
  defaultLocation?: string;
  /** Entries per usages page (default 5): small, so that clients must follow nextLink. */
  pageSize?: number;
}

interface Account {
  subscriptionId: string;
  resourceGroup: string;
  name: string;
  location: string;
}

interface Deployment {
  account: Account;
  name: string;
  sku: { name: string; capacity: number };
  model: { format: string; name: string; version?: string };
}

export class QuotaStore {
  readonly accounts = new Map<string, Account>();
  readonly limits = new Map<string, number>();
  readonly deployments = new Map<string, Deployment>();
  defaultLimit = 100;
  defaultLocation = 'eastus';
  pageSize = 5;

  constructor(seed?: QuotaSeed) {
    if (seed) this.apply(seed);
  }

  reset(): void {
    this.accounts.clear();
    this.limits.clear();
    this.deployments.clear();
  }

  apply(seed: QuotaSeed): void {
    if (seed.defaultLimit !== undefined) this.defaultLimit = seed.defaultLimit;
    if (seed.defaultLocation !== undefined) this.defaultLocation = seed.defaultLocation;
    if (seed.pageSize !== undefined) this.pageSize = Math.max(1, seed.pageSize);
    for (const a of seed.accounts ?? [])
      this.accounts.set(accountKey(a.subscriptionId, a.resourceGroup, a.name), { ...a, location: a.location.toLowerCase() });
    for (const l of seed.limits ?? [])
      this.limits.set(limitKey(l.subscriptionId ?? '*', l.location, l.format ?? 'OpenAI', l.sku ?? 'Standard', l.model), l.limit);
    for (const d of seed.deployments ?? []) {
      const account = this.account(d.subscriptionId, d.resourceGroup, d.account);
      this.deployments.set(deploymentKey(account, d.name), {
        account,
        name: d.name,
        sku: { name: d.sku ?? 'Standard', capacity: d.capacity },
        model: { format: d.format ?? 'OpenAI', name: d.model, ...(d.version ? { version: d.version } : {}) },
      });
    }
  }

  /** The account, created in the default region when it is not known. */
  account(subscriptionId: string, resourceGroup: string, name: string): Account {
    const key = accountKey(subscriptionId, resourceGroup, name);
    let account = this.accounts.get(key);
    if (!account) this.accounts.set(key, (account = { subscriptionId, resourceGroup, name, location: this.defaultLocation }));
    return account;
  }

  limitOf(subscriptionId: string, location: string, format: string, sku: string, model: string): number {
    return (
      this.limits.get(limitKey(subscriptionId, location, format, sku, model)) ??
      this.limits.get(limitKey('*', location, format, sku, model)) ??
      this.defaultLimit
    );
  }

  /** Units used in a region by a (format, type, model), leaving out one deployment (the one being resized). */
  used(subscriptionId: string, location: string, format: string, sku: string, model: string, except?: string): number {
    let sum = 0;
    for (const [key, d] of this.deployments) {
      if (
        key === except ||
        d.account.subscriptionId.toLowerCase() !== subscriptionId.toLowerCase() ||
        d.account.location !== location.toLowerCase()
      )
        continue;
      if (limitKey('', '', d.model.format, d.sku.name, d.model.name) === limitKey('', '', format, sku, model)) sum += d.sku.capacity;
    }
    return sum;
  }

  /** E7's entries for a region: every limit named for it, every (format, type, model) deployed in it, and AccountCount. */
  usages(subscriptionId: string, location: string): unknown[] {
    const loc = location.toLowerCase();
    const names = new Map<string, { format: string; sku: string; model: string }>();
    for (const key of this.limits.keys()) {
      const [sub, l, format, sku, model] = key.split('|');
      if ((sub === '*' || sub === subscriptionId.toLowerCase()) && l === loc)
        names.set(limitKey('', '', format, sku, model), {
          format: this.casing.get(format) ?? format,
          sku: this.casing.get(sku) ?? sku,
          model,
        });
    }
    for (const d of this.deployments.values()) {
      if (d.account.subscriptionId.toLowerCase() === subscriptionId.toLowerCase() && d.account.location === loc)
        names.set(limitKey('', '', d.model.format, d.sku.name, d.model.name), {
          format: d.model.format,
          sku: d.sku.name,
          model: d.model.name,
        });
    }
    const entries: unknown[] = [...names.values()].map(({ format, sku, model }) => ({
      name: { value: `${format}.${sku}.${model}`, localizedValue: `Tokens Per Minute (thousands) - ${model}` },
      currentValue: this.used(subscriptionId, loc, format, sku, model),
      limit: this.limitOf(subscriptionId, loc, format, sku, model),
      unit: 'Count',
    }));
    const accounts = [...this.accounts.values()].filter(
      (a) => a.subscriptionId.toLowerCase() === subscriptionId.toLowerCase() && a.location === loc,
    ).length;
    entries.push({
      name: { value: 'AccountCount', localizedValue: 'Cognitive Services total account limit' },
      currentValue: accounts,
      limit: MAX_RESOURCES_PER_REGION,
      unit: 'Count',
    });
    return entries;
  }

  /** The usual spellings, for usage names built from limit keys (which are lowercased). */
  private readonly casing = new Map<string, string>([
    ['openai', 'OpenAI'],
    ['standard', 'Standard'],
    ['globalstandard', 'GlobalStandard'],
    ['datazonestandard', 'DataZoneStandard'],
  ]);
}

const accountKey = (sub: string, rg: string, name: string) => `${sub}|${rg}|${name}`.toLowerCase();
const limitKey = (sub: string, location: string, format: string, sku: string, model: string) =>
  `${sub}|${location}|${format}|${sku}|${model}`.toLowerCase();
const deploymentKey = (account: Account, name: string) =>
  `${accountKey(account.subscriptionId, account.resourceGroup, account.name)}|${name.toLowerCase()}`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function modelDeploymentRoute(options: { namespace: string; store: QuotaStore }): Route {
  const { namespace, store } = options;
  const provider = `${namespace}.CognitiveServices`.replace(/[.]/g, '\\.');
  const deploymentPath = new RegExp(
    `^/subscriptions/([^/]+)/resourceGroups/([^/]+)/providers/${provider}/accounts/([^/]+)/deployments/([^/]+)$`,
    'i',
  );
  const usagesPath = new RegExp(`^/subscriptions/([^/]+)/providers/${provider}/locations/([^/]+)/usages$`, 'i');

  return ({ method, url, body, req, send, done }) => {
    const deployment = deploymentPath.exec(url.pathname);
    const usages = deployment ? null : usagesPath.exec(url.pathname);
    if (!deployment && !usages) return false;
    const apiVersion = url.searchParams.get('api-version');
    if (apiVersion !== DEPLOYMENT_API_VERSION) {
      done('400 api-version');
      return send(
        400,
        errorBody(
          apiVersion ? 'InvalidApiVersionParameter' : 'MissingApiVersionParameter',
          `The api-version '${apiVersion ?? ''}' is not supported; use '${DEPLOYMENT_API_VERSION}'.`,
          'api-version',
        ),
      );
    }
    const [sub] = (deployment ?? usages)!.slice(1).map(decodeURIComponent);
    if (!GUID.test(sub)) {
      done('400 subscription');
      return send(400, errorBody('InvalidSubscriptionId', `The provided subscription identifier '${sub}' is malformed or invalid.`));
    }

    if (usages) {
      if (method !== 'GET') return methodNotAllowed(method, send, done);
      const location = decodeURIComponent(usages[2]);
      const all = store.usages(sub, location);
      const skip = Number(url.searchParams.get('$skipToken') ?? '0');
      const start = Number.isInteger(skip) && skip >= 0 ? skip : 0;
      const page = all.slice(start, start + store.pageSize);
      const host = req.headers.host ?? '127.0.0.1';
      const nextLink =
        start + store.pageSize < all.length
          ? `http://${host}${url.pathname}?api-version=${DEPLOYMENT_API_VERSION}&$skipToken=${start + store.pageSize}`
          : undefined;
      done(`200 usages ${page.length}${nextLink ? ' (more)' : ''}`);
      return send(200, JSON.stringify({ value: page, ...(nextLink ? { nextLink } : {}) }));
    }

    const [, rg, accountName, name] = deployment!.slice(1).map(decodeURIComponent);
    // A GET under an account that does not exist says so, as the real service does (a PUT creates it here).
    if (method === 'GET' && !store.accounts.has(accountKey(sub, rg, accountName))) {
      done('404 account');
      return send(
        404,
        errorBody(
          'ParentResourceNotFound',
          `Can not perform requested operation on nested resource. Parent resource '${accountName}' not found.`,
        ),
      );
    }
    const account = store.account(sub, rg, accountName);
    const key = deploymentKey(account, name);
    const id = `/subscriptions/${sub}/resourceGroups/${rg}/providers/${namespace}.CognitiveServices/accounts/${accountName}/deployments/${name}`;
    const existing = store.deployments.get(key);

    if (method === 'GET') {
      if (!existing) {
        done('404');
        return send(404, errorBody('DeploymentNotFound', `Deployment '${name}' not found.`));
      }
      done('200');
      return send(200, JSON.stringify(resource(namespace, id, existing)));
    }
    if (method !== 'PUT') return methodNotAllowed(method, send, done);

    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      done('400 body');
      return send(400, errorBody('InvalidRequestContent', 'The request content is not valid JSON.'));
    }
    const sku = isObject(json) && isObject(json.sku) ? json.sku : undefined;
    const model = isObject(json) && isObject(json.properties) && isObject(json.properties.model) ? json.properties.model : undefined;
    if (!sku || typeof sku.name !== 'string' || !Number.isInteger(sku.capacity) || (sku.capacity as number) < 1) {
      done('400 sku');
      return send(400, errorBody('InvalidResourceProperties', 'The sku needs a name and a positive integer capacity.', 'sku'));
    }
    if (
      !model ||
      typeof model.name !== 'string' ||
      typeof model.format !== 'string' ||
      (model.version !== undefined && typeof model.version !== 'string')
    ) {
      done('400 model');
      return send(
        400,
        errorBody(
          'InvalidResourceProperties',
          'properties.model needs a format and a name (strings), and a string version when it has one.',
          'properties.model',
        ),
      );
    }
    const capacity = sku.capacity as number;
    const used = store.used(sub, account.location, model.format, sku.name, model.name, key);
    const limit = store.limitOf(sub, account.location, model.format, sku.name, model.name);
    if (used + capacity > limit) {
      const quota = `Tokens Per Minute (thousands) - ${model.name}`;
      done('400 InsufficientQuota');
      return send(
        400,
        errorBody(
          'InsufficientQuota',
          `This operation needs ${capacity} new capacity in quota ${quota}, more than the ${Math.max(0, limit - used)} available. The quota usage is ${used} and the quota limit is ${limit} for quota ${quota}.`,
        ),
      );
    }
    const stored: Deployment = {
      account,
      name,
      sku: { name: sku.name, capacity },
      model: { format: model.format, name: model.name, ...(model.version ? { version: model.version as string } : {}) },
    };
    store.deployments.set(key, stored);
    done(existing ? '200 updated' : '201 created');
    return send(existing ? 200 : 201, JSON.stringify(resource(namespace, id, stored, existing ? 'Succeeded' : 'Creating')));
  };
}

function resource(namespace: string, id: string, d: Deployment, provisioningState = 'Succeeded'): unknown {
  const unit = capacityClassOf(d.model.name);
  const limits = unit ? rateLimits(d.sku.capacity, unit) : undefined;
  return {
    id,
    name: d.name,
    type: `${namespace}.CognitiveServices/accounts/deployments`,
    sku: d.sku,
    properties: {
      model: d.model,
      provisioningState,
      ...(limits
        ? {
            rateLimits: [
              { key: 'request', renewalPeriod: 10, count: Math.floor(limits.rpm / 6) },
              { key: 'token', renewalPeriod: 60, count: limits.tpm },
            ],
          }
        : {}),
    },
  };
}

function methodNotAllowed(method: string, send: (status: number, text: string) => true, done: (outcome: string) => void): true {
  done('405');
  return send(405, errorBody('MethodNotAllowed', `${method} is not supported here.`));
}

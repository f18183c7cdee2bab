// The checks E6 and E7 make before anything is sent, and the verdicts they give on what came back, found
// untested by mutation testing (docs/mutation.md): names that are only a valid name when the whole of them
// matches (they become path segments), the deployment body, the model spec, what a failed PUT means (never
// sent twice when it may have been applied), the over-quota answer and the service's own rate limits.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  AuthenticationRequiredError,
  checkDeploymentBody,
  checkDeploymentTarget,
  checkLocation,
  describeRateLimits,
  InvalidRequestError,
  isInsufficientQuota,
  NetworkError,
  parseModelSpec,
  putOutcome,
  ServiceError,
  TimeoutError,
  type DeploymentBody,
} from '#api';

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const target = (more: Partial<{ subscriptionId: string; resourceGroupName: string; accountName: string; deploymentName: string }>) => ({
  subscriptionId: SUB,
  resourceGroupName: 'rg',
  accountName: 'acct',
  deploymentName: 'gpt',
  ...more,
});

describe('names are checked whole (they become path segments)', () => {
  test('an account name with anything before or after a valid name is refused', () => {
    assert.equal(checkDeploymentTarget(target({})), undefined);
    for (const accountName of ['acct/../other', 'x/acct', 'acct ', ' acct', '-acct', 'acct-']) {
      assert.match(checkDeploymentTarget(target({ accountName })) ?? '', /is not a model-service resource name/, accountName);
    }
  });

  test('a region with anything before or after a valid name is refused', () => {
    assert.equal(checkLocation('swedencentral'), undefined);
    for (const location of ['eastus/../westus', 'x/eastus', 'eastus ', 'EastUS', '1eastus']) {
      assert.equal(checkLocation(location), `'${location}' is not a region name in lowercase-joined form (like eastus or swedencentral)`, location);
    }
  });
});

describe('the deployment body before a PUT', () => {
  const good: DeploymentBody = { sku: { name: 'Standard', capacity: 10 }, properties: { model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' } } };
  const without = (change: (b: DeploymentBody) => void): DeploymentBody => {
    const body = structuredClone(good);
    change(body);
    return body;
  };

  test('a complete body passes; each missing or wrong part is named', () => {
    assert.equal(checkDeploymentBody(good), undefined);
    assert.equal(checkDeploymentBody(without((b) => delete b.properties.model.version)), undefined, 'the version may be left out');
    const cases: Array<[DeploymentBody, string]> = [
      [without((b) => delete (b as { sku?: unknown }).sku), 'the deployment needs a sku name (the deployment type, like Standard)'],
      [without((b) => (b.sku.name = '')), 'the deployment needs a sku name (the deployment type, like Standard)'],
      [without((b) => (b.sku.name = 5 as never)), 'the deployment needs a sku name (the deployment type, like Standard)'],
      [without((b) => (b.sku.capacity = 0)), 'sku.capacity must be a positive whole number (1 = 1,000 TPM), not 0'],
      [without((b) => (b.sku.capacity = 2.5)), 'sku.capacity must be a positive whole number (1 = 1,000 TPM), not 2.5'],
      [without((b) => (b.sku.capacity = 1_000_001)), 'sku.capacity must be at most 1,000,000 (1,000,000,000 TPM), not 1000001'],
      [without((b) => delete (b as { properties?: unknown }).properties), 'the deployment needs properties.model.name'],
      [without((b) => delete (b.properties as { model?: unknown }).model), 'the deployment needs properties.model.name'],
      [without((b) => (b.properties.model.name = '')), 'the deployment needs properties.model.name'],
      [without((b) => (b.properties.model.name = 4 as never)), 'the deployment needs properties.model.name'],
      [without((b) => (b.properties.model.format = '')), 'the deployment needs properties.model.format'],
      [without((b) => (b.properties.model.format = undefined as never)), 'the deployment needs properties.model.format'],
      [without((b) => (b.properties.model.version = '')), 'properties.model.version, when given, is a non-empty string'],
      [without((b) => (b.properties.model.version = 1 as never)), 'properties.model.version, when given, is a non-empty string'],
    ];
    for (const [body, message] of cases) assert.equal(checkDeploymentBody(body), message, JSON.stringify(body));
    assert.equal(checkDeploymentBody(without((b) => (b.sku.capacity = 1))), undefined, 'capacity 1 is allowed');
    assert.equal(checkDeploymentBody(without((b) => (b.sku.capacity = 1_000_000))), undefined, 'capacity 1,000,000 is allowed');
  });
});

describe('the model spec name[:version[:format]]', () => {
  test('one to three parts, none of them empty', () => {
    assert.deepEqual(parseModelSpec('gpt-4o'), { format: 'OpenAI', name: 'gpt-4o' });
    assert.deepEqual(parseModelSpec('gpt-4o:2024-08-06'), { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' });
    assert.deepEqual(parseModelSpec('m:1:Other'), { format: 'Other', name: 'm', version: '1' });
    for (const text of ['', ':1', 'a:1:F:x', 'a:', 'a:1:']) {
      assert.throws(() => parseModelSpec(text), (error: unknown) => error instanceof InvalidRequestError && error.message === `'${text}' is not a model: use <name>[:<version>[:<format>]], like gpt-4o:2024-08-06`, text);
    }
  });
});

describe('what a PUT that threw means', () => {
  const service = (status: number) => new ServiceError('x', status, 'Code', 'message', 'policy');
  test('refused only when the service certainly did not apply it; unknown whenever it may have', () => {
    const cases: Array<[unknown, 'refused' | 'unknown']> = [
      [service(400), 'refused'],
      [service(404), 'refused'],
      [service(499), 'refused'],
      [service(408), 'unknown'],
      [service(429), 'refused'],
      [service(503), 'refused'],
      [service(500), 'unknown'],
      [service(502), 'unknown'],
      [service(504), 'unknown'],
      [service(399), 'unknown'],
      [service(418), 'refused'],
      [service(200), 'unknown'],
      [service(299), 'unknown'],
      [service(300), 'unknown'],
      [service(199), 'unknown'],
      [new NetworkError('refused', 'ECONNREFUSED', false), 'refused'],
      [new NetworkError('dropped', 'ECONNRESET', true), 'unknown'],
      [new InvalidRequestError('bad name'), 'refused'],
      [new AuthenticationRequiredError('no token'), 'refused'],
      [new TimeoutError('late'), 'unknown'],
      [new Error('other'), 'unknown'],
    ];
    for (const [error, outcome] of cases) assert.equal(putOutcome(error), outcome, `${(error as Error).name} ${(error as ServiceError).status ?? ''}`);
  });
});

describe('answers about quota and limits', () => {
  test('only the code InsufficientQuota (any casing) of a service answer is the over-quota answer', () => {
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'InsufficientQuota', '', 'policy')), true);
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'insufficientquota', '', 'policy')), true);
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'NotInsufficientQuota', '', 'policy')), false);
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'InsufficientQuotaLater', '', 'policy')), false);
    assert.equal(isInsufficientQuota(Object.assign(new Error('x'), { code: 'InsufficientQuota' })), false);
  });

  test("the service's rate limits in one line; entries without a count are left out, unknown keys kept", () => {
    const line = describeRateLimits({
      properties: {
        rateLimits: [
          { key: 'request', renewalPeriod: 60, count: 600 },
          { key: 'token', renewalPeriod: 60, count: 100000 },
          { key: 'burst', count: 5 },
          { count: 7 },
          { key: 'token', renewalPeriod: 60 },
          null,
        ],
      },
    } as never);
    assert.equal(line, '600 requests per 60 s, 100,000 tokens per 60 s, 5 burst per ? s, 7 ? per ? s');
    assert.equal(describeRateLimits(undefined), undefined);
    assert.equal(describeRateLimits({} as never), undefined);
    assert.equal(describeRateLimits({ properties: { rateLimits: [] } } as never), undefined);
    assert.equal(describeRateLimits({ properties: { rateLimits: 'x' } } as never), undefined);
  });
});

// Documents the quota rules' tests share (test/rules/).

export const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

export const usage = (used: number, limit: number, model = 'gpt-4o') =>
  `{ "subscription": "${SUB}", "location": "eastus", "value": [{ "name": { "value": "OpenAI.Standard.${model}" }, "currentValue": ${used}, "limit": ${limit} }] }`;

export const body = (model: string, capacity: string) => `{
  "sku": { "name": "Standard", "capacity": ${capacity} },
  "properties": { "model": { "format": "OpenAI", "name": ${model}, "version": "1" } }
}`;

export const plan = (deployments: string[], extra = '') => `{
  "subscription": "${SUB}",
  "region": "eastus",${extra}
  "deployments": [
    ${deployments.join(',\n    ')}
  ]
}`;

export const d = (name: string, capacity: string, model = '"gpt-4o"', more = '') =>
  `{ "account": "ai-east", "name": "${name}", "model": ${model}, "sku": { "name": "Standard", "capacity": ${capacity} }${more} }`;

// The schema of .policysetrc.json (applied by the editor) and the CLI's check of the same file agree: the
// same keys, the same rules, and the same verdict on good and bad files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { REPO_ROOT } from '../support/corpus';
import { RULES } from '#service';
import { checkConfig, CONFIG_KEYS } from '#server/service/config';

const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'policysetrc.schema.json'), 'utf8')) as {
  properties: Record<string, { properties?: Record<string, unknown> }>;
};
const validate = new Ajv({ strict: false }).compile(schema);

test('the schema names the keys the CLI checks, and every rule by code and name (node scripts/build-config-schema.js)', () => {
  assert.deepEqual(Object.keys(schema.properties).sort(), [...CONFIG_KEYS].sort());
  assert.deepEqual(Object.keys(schema.properties.rules.properties ?? {}).sort(), RULES.flatMap((r) => [r.meta.code, r.meta.name]).sort());
});

test('the schema and checkConfig agree on good and bad files', () => {
  const good = [{}, { rules: { PS7003: 'off', 'undefined-group': 'warning' } }, { definitions: ['defs'], cloud: 'AzureChinaCloud', ignore: ['legacy/', '!legacy/keep.json'], strict: true, minSeverity: 'warning', maxWarnings: 0, capacityUnits: 'units.json', usage: ['u.json'], $schema: './schemas/policysetrc.schema.json' }];
  const bad = [{ rulez: {} }, { rules: { PS7003: 'of' } }, { rules: { PS9999: 'off' } }, { strict: 'yes' }, { cloud: 'Mars' }, { maxWarnings: -1 }, { maxWarnings: 1.5 }, { definitions: 'defs' }, { minSeverity: 'off' }, []];
  for (const config of good) {
    assert.ok(validate(config), `schema: ${JSON.stringify(config)} ${JSON.stringify(validate.errors)}`);
    assert.doesNotThrow(() => checkConfig(config), JSON.stringify(config));
  }
  for (const config of bad) {
    assert.equal(validate(config), false, `schema: ${JSON.stringify(config)}`);
    assert.throws(() => checkConfig(config), JSON.stringify(config));
  }
});

test('checkConfig keys rules by code, whether the file names them by code (any casing) or name', () => {
  assert.deepEqual(checkConfig({ rules: { ps7003: 'off', 'undefined-group': 'warning' } }).rules, { PS7003: 'off', PS5001: 'warning' });
});

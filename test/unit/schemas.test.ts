import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { loadSchemas, bundledSchema } from '#service';
import { REPO_ROOT } from '../support/corpus';

const schemaFiles = fs.readdirSync(path.join(REPO_ROOT, 'schemas')).filter((f) => f.endsWith('.schema.json'));

test('every schema in schemas/ compiles with ajv in strict mode', () => {
  assert.ok(schemaFiles.length >= 3);
  const ajv = new Ajv({ strict: true, allErrors: true });
  for (const file of schemaFiles) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', file), 'utf8')));
  for (const file of schemaFiles) {
    const id = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', file), 'utf8')) as { $id: string }).$id;
    assert.ok(ajv.getSchema(id), `${file} (${id}) compiles`);
  }
});

/** The config file's schema is for the editor only: the CLI checks the file in service/config.ts, and test/unit/config.test.ts keeps the two equal. */
const EDITOR_ONLY = ['policysetrc.schema.json'];

test("the service loads exactly the schemas in schemas/ (besides the config file's, for the editor)", () => {
  assert.ok(EDITOR_ONLY.every((f) => schemaFiles.includes(f)));
  assert.equal(Object.keys(loadSchemas()).length, schemaFiles.length - EDITOR_ONLY.length);
});

test('the bundled schemas are self-contained and compile in strict mode', () => {
  for (const kind of ['policySetDefinition', 'policySetDefinitionVersion'] as const) {
    const bundled = bundledSchema(kind);
    assert.ok(!JSON.stringify(bundled).includes('policySetTypes.schema.json#'), kind);
    new Ajv({ strict: true }).compile(bundled);
  }
});

test('the validators generated at build time match the schemas', () => {
  const load = createRequire(__filename);
  const generated = load(path.join(REPO_ROOT, 'server/out/service/schema/validators.generated.js')) as Record<
    string,
    (v: unknown) => boolean
  >;
  const { compileValidators } = load(path.join(REPO_ROOT, 'server/out/service/schema/schemas.js')) as {
    compileValidators: () => Record<string, (v: unknown) => boolean>;
  };
  const compiled = compileValidators();
  const samples: unknown[] = [
    { properties: { policyDefinitions: [] } },
    { properties: { policyDefinitions: [{}] } },
    { properties: { policyDefinitions: [{ policyDefinitionId: 1 }], policyType: 'Nope' } },
    { name: '1.0.0', properties: { policyDefinitions: [], versions: [] } },
    { properties: { parameters: { p: { type: 'string', allowedValues: null } }, policyDefinitions: [] } },
  ];
  for (const target of Object.keys(compiled)) {
    for (const sample of samples) assert.equal(generated[target](sample), compiled[target](sample), `${target} ${JSON.stringify(sample)}`);
  }
});

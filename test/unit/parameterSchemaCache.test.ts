// A long editor session compiles a new parameter schema at every edit of one: what is held stays bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileParameterSchema, firstSchemaError, schemasHeldByEngine } from '#server/service/schema/parameterSchema';

test('compiling 1,200 distinct parameter schemas leaves the engine holding none of them', () => {
  // The engine is made on first use, with its meta-schemas: count from there.
  compileParameterSchema({ type: 'string' });
  const before = schemasHeldByEngine();
  for (let i = 0; i < 1200; i++) {
    const compiled = compileParameterSchema({ type: 'object', properties: { [`p${i}`]: { type: 'string', maxLength: i + 1 } } });
    assert.equal(compiled.error, undefined);
    // The validator still works once the engine has let go of its schema.
    assert.equal(firstSchemaError(compiled, { [`p${i}`]: 'x' }), undefined);
    assert.ok(firstSchemaError(compiled, { [`p${i}`]: 'x'.repeat(i + 2) }));
  }
  // A schema that fails to compile is not kept either.
  compileParameterSchema({ $ref: 'other.json#/x' });
  assert.ok(schemasHeldByEngine() <= before + 2, `the engine holds ${schemasHeldByEngine()} schemas (before: ${before})`);
});

#!/usr/bin/env node
// Generates the schema validators as plain code at build time (ajv standalone), so that a process
// validates without compiling the schemas first. The service falls back to compiling at run time
// when the generated module is missing.
'use strict';
const fs = require('node:fs');
const Ajv2019 = require('ajv/dist/2019').default;
const path = require('node:path');
const Ajv = require('ajv').default;
const standaloneCode = require('ajv/dist/standalone').default;
const { loadSchemas, SCHEMA_IDS, AJV_OPTIONS, VALIDATOR_REFS } = require('../server/out/service/schema/schemas.js');
const { PARAMETER_SCHEMA_OPTIONS, META_SCHEMA_2019 } = require('../server/out/service/schema/parameterSchema.js');

const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
for (const schema of Object.values(loadSchemas())) ajv.addSchema(schema);
void SCHEMA_IDS;
write('validators.generated.js', standaloneCode(ajv, VALIDATOR_REFS));

// The JSON Schema 2019-09 meta-schema, which checks the `schema` of Object parameters: compiling it at
// run time costs a process some 35-70 ms.
const meta = new Ajv2019({ ...PARAMETER_SCHEMA_OPTIONS, code: { source: true } });
write('metaSchema2019.generated.js', standaloneCode(meta, { metaSchema2019: META_SCHEMA_2019 }));

function write(name, code) {
  const target = path.join(__dirname, '../server/out/service/schema', name);
  fs.writeFileSync(target, code);
  console.log(`wrote ${path.relative(process.cwd(), target)} (${Math.round(code.length / 1024)} KiB)`);
}

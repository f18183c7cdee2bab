#!/usr/bin/env node
// Generates the schema validators as plain code at build time (ajv standalone), so that a process
// validates without compiling the schemas first. The service falls back to compiling at run time
// when the generated module is missing.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Ajv = require('ajv').default;
const standaloneCode = require('ajv/dist/standalone').default;
const { loadSchemas, SCHEMA_IDS, AJV_OPTIONS, VALIDATOR_REFS } = require('../server/out/service/schema/schemas.js');

const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
for (const schema of Object.values(loadSchemas())) ajv.addSchema(schema);
const refs = Object.fromEntries(Object.entries(VALIDATOR_REFS).map(([name, ref]) => [name, ref]));
void SCHEMA_IDS;
const code = standaloneCode(ajv, refs);
const target = path.join(__dirname, '../server/out/service/schema/validators.generated.js');
fs.writeFileSync(target, code);
console.log(`wrote ${path.relative(process.cwd(), target)} (${Math.round(code.length / 1024)} KiB)`);

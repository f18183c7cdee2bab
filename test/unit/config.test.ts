// The schema of .policysetrc.json (applied by the editor) and the CLI's check of the same file agree: the
// same keys, the same rules, and the same verdict on good and bad files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv from 'ajv';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { REPO_ROOT } from '../support/corpus';
import { RULES } from '#service';
import { checkConfig, ConfigError, CONFIG_KEYS } from '#server/service/config';

const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'policysetrc.schema.json'), 'utf8')) as {
  properties: Record<string, { properties?: Record<string, unknown> }>;
};
const validate = new Ajv({ strict: false }).compile(schema);

test('the schema names the keys the CLI checks, and every rule by code and name (npm run generate)', () => {
  assert.deepEqual(Object.keys(schema.properties).sort(), [...CONFIG_KEYS].sort());
  assert.deepEqual(Object.keys(schema.properties.rules.properties ?? {}).sort(), RULES.flatMap((r) => [r.meta.code, r.meta.name]).sort());
});

test('the schema and checkConfig agree on good and bad files', () => {
  const good = [
    {},
    { rules: { PS7003: 'off', 'undefined-group': 'warning' } },
    {
      definitions: ['defs'],
      cloud: 'AzureChinaCloud',
      ignore: ['legacy/', '!legacy/keep.json'],
      strict: true,
      minSeverity: 'warning',
      maxWarnings: 0,
      capacityUnits: 'units.json',
      usage: ['u.json'],
      $schema: './schemas/policysetrc.schema.json',
    },
  ];
  const bad: unknown[] = [
    { rulez: {} },
    { toString: 1 },
    { constructor: {} },
    { rules: { toString: 'off' } },
    { rules: { PS7003: 'of' } },
    { rules: { PS9999: 'off' } },
    { strict: 'yes' },
    { cloud: 'Mars' },
    { maxWarnings: -1 },
    { maxWarnings: 1.5 },
    { definitions: 'defs' },
    { minSeverity: 'off' },
    [],
  ];
  for (const config of good) {
    assert.ok(validate(config), `schema: ${JSON.stringify(config)} ${JSON.stringify(validate.errors)}`);
    assert.doesNotThrow(() => checkConfig(config), JSON.stringify(config));
  }
  for (const config of bad) {
    assert.equal(validate(config), false, `schema: ${JSON.stringify(config)}`);
    // A ConfigError (key and message), never another failure.
    assert.throws(
      () => checkConfig(config),
      (e: unknown) => e instanceof ConfigError && e.message.length > 0,
      JSON.stringify(config),
    );
  }
});

test('checkConfig keys rules by code, whether the file names them by code (any casing) or name', () => {
  assert.deepEqual(checkConfig({ rules: { ps7003: 'off', 'undefined-group': 'warning' } }).rules, { PS7003: 'off', PS5001: 'warning' });
});

/**
 * The editor's side: package.json's jsonValidation gives .policysetrc.json this schema, and VS Code's JSON
 * language features (vscode-json-languageservice, the same library) then complete, hover and diagnose with it.
 */
test('the extension applies the schema to .policysetrc.json: diagnostics, completion and hover (vscode-json-languageservice)', async () => {
  const { getLanguageService } = await import('vscode-json-languageservice');
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { jsonValidation: Array<{ fileMatch: string[]; url: string }>; languages: Array<{ id: string; filenames?: string[] }> };
  };
  const entry = manifest.contributes.jsonValidation.find((v) => v.fileMatch.includes('.policysetrc.json'));
  assert.ok(entry, 'jsonValidation names .policysetrc.json');
  assert.ok(
    manifest.contributes.languages.some((l) => l.id === 'jsonc' && l.filenames?.includes('.policysetrc.json')),
    'opened as JSON with comments',
  );
  const schemaUri = pathToFileURL(path.join(REPO_ROOT, entry.url)).href;
  const service = getLanguageService({ schemaRequestService: async (uri) => fs.readFileSync(fileURLToPath(uri), 'utf8') });
  service.configure({
    validate: true,
    allowComments: true,
    schemas: [{ uri: schemaUri, fileMatch: entry.fileMatch.map((m) => `**/${m}`) }],
  });
  const check = async (text: string) => {
    const document = TextDocument.create('file:///work/project/.policysetrc.json', 'jsonc', 1, text);
    return { document, json: service.parseJSONDocument(document) };
  };

  const bad = await check('// team\n{ "rulez": {}, "rules": { "PS7003": "of" } }');
  const messages = (await service.doValidation(bad.document, bad.json, { comments: 'ignore', trailingCommas: 'ignore' })).map((d) =>
    typeof d.message === 'string' ? d.message : d.message.value,
  );
  assert.ok(
    messages.some((m) => /rulez/.test(m) && /not allowed/i.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /error, warning, info, hint, off|"error"/i.test(m)),
    messages.join('\n'),
  );
  const good = await check('// team\n{ "rules": { "PS7003": "off", }, }');
  assert.deepEqual(await service.doValidation(good.document, good.json, { comments: 'ignore', trailingCommas: 'ignore' }), []);

  const text = '{ "rules": { "" } }';
  const completing = await check(text);
  const completion = await service.doComplete(completing.document, completing.document.positionAt(text.indexOf('""') + 1), completing.json);
  const labels = completion?.items.map((i) => i.label.replace(/"/g, '')) ?? [];
  assert.ok(labels.includes('PS7003') && labels.includes('unused-parameter'), labels.slice(0, 10).join(', '));

  const hovered = await check('{ "rules": { "PS7003": "off" } }');
  const hover = await service.doHover(hovered.document, hovered.document.positionAt(15), hovered.json);
  // Hover text comes markdown-escaped (unused\-parameter).
  assert.match(
    JSON.stringify(hover?.contents).replace(/\\/g, ''),
    /PS7003 unused-parameter \(default: warning\)\. A set parameter that no reference uses/,
  );
});

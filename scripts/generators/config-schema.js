// schemas/policysetrc.schema.json, the schema of .policysetrc.json that the extension applies to the file
// (completion, hover, diagnostics), from the rules' registry. The keys' meaning is checked by
// server/src/service/config.ts.
'use strict';
const path = require('node:path');

exports.files = function files(root) {
  const { RULES } = require(path.join(root, 'server/out/service/rules/index.js'));
  const { CLOUDS } = require(path.join(root, 'server/out/service/config.js'));
  const severity = { enum: ['error', 'warning', 'info', 'hint', 'off'] };
  const rules = {};
  for (const rule of RULES) {
    const text = `${rule.meta.code} ${rule.meta.name} (default: ${rule.meta.defaultSeverity}). ${rule.meta.description}`;
    rules[rule.meta.code] = { ...severity, description: text };
    rules[rule.meta.name] = { ...severity, description: text };
  }
  const paths = (description) => ({ type: 'array', items: { type: 'string', minLength: 1 }, description });
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'policyset:/schemas/policysetrc.schema.json',
    title: 'policyset configuration (.policysetrc.json)',
    description:
      'Settings shared by the policyset CLI (found from the current folder upward) and the editor (in each workspace folder). Flags win over this file; in the editor this file wins over the extension settings. Paths are relative to this file. See docs/cli.md "Configuration".',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      rules: {
        type: 'object',
        description: 'Severity per rule, by code or name, as --rule <code|name>=<level>. The rules: policyset rules.',
        properties: rules,
        additionalProperties: false,
      },
      definitions: paths(
        'Known policy definitions and sets, as --definitions: index files, definition or set files, or folders. Added to those given with -d.',
      ),
      cloud: {
        enum: CLOUDS,
        description:
          "The cloud whose definitions win in an index, as --cloud (default: AzureUSGovernment under an 'Azure Government' folder, else AzureCloud).",
      },
      ignore: paths(
        "Glob patterns of files to leave out, relative to this file, as ESLint's ignores: a pattern without a slash matches at any depth, a folder's pattern covers what is in it, '!' takes a path back, the last match wins.",
      ),
      strict: { type: 'boolean', description: 'A file named on the command line that is not checked is an error, as --strict.' },
      minSeverity: {
        enum: ['error', 'warning', 'info', 'hint'],
        description: 'Report only this severity and above, as --min-severity (default: info).',
      },
      maxWarnings: { type: 'integer', minimum: 0, description: 'Exit 1 when there are more warnings than this, as --max-warnings.' },
      errorOnUnmatchedPattern: {
        type: 'boolean',
        description: 'false: exit 0 when the inputs hold no policy document, as --no-error-on-unmatched-pattern (default: true).',
      },
      docsBaseUrl: {
        type: 'string',
        pattern: '^https?://\\S+$',
        description: 'Base URL of the rule pages, for SARIF help links, as --docs-base-url.',
      },
      capacityUnits: {
        type: 'string',
        minLength: 1,
        description:
          'A capacity-unit file over the built-in table, as --capacity-units (quota and model commands, deployment plans in the editor).',
      },
      usage: paths(
        'Saved usage files (policyset quota usage --format json -o <file>) that deployment plans are checked against, as --usage of quota plan.',
      ),
      versions: {
        type: 'object',
        additionalProperties: false,
        description: 'The version check (policyset diff, lint --against, deploy --against, the editor).',
        properties: {
          referenceAdded: {
            enum: ['minor', 'major'],
            description:
              'What a reference added asks of the version, as --reference-added (default: minor; docs/versions.md says why it is a setting).',
          },
          referenceRemoved: {
            enum: ['minor', 'major'],
            description:
              'What a reference removed asks of the version, as --reference-removed (default: major; docs/versions.md says why it is a setting).',
          },
        },
      },
    },
  };
  return [
    { path: 'schemas/policysetrc.schema.json', text: JSON.stringify(schema, null, 2) + '\n', what: 'the schema of .policysetrc.json' },
  ];
};

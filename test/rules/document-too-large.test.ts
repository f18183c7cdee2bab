// PS9006 document-too-large: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase } from '../support/ruleTester';

const invalid: InvalidCase[] = [
  {
    name: 'a document over 8 MiB: checked for syntax and size only, the warning on its first character',
    text: `  |{|"name": "huge", "properties": { "description": "${'x'.repeat(8 * 1024 * 1024)}", "policyDefinitions": [] } }`,
    code: 'PS9006',
  },
];

run('document-too-large', { valid: [], invalid });

// Baseline for the whole-process comparison: vscode-json-languageservice parses and validates every
// JSON file under the given folders with the same schema, in one process, as our CLI does.
import * as fs from 'node:fs';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { bundledSchema } from '#service';
import { listJsonFiles } from '../support/corpus';

async function main() {
  const service = getLanguageService({});
  service.configure({ validate: true, schemas: [{ uri: 'policyset:/bundled/policySetDefinition.json', schema: bundledSchema('policySetDefinition') as never, fileMatch: ['*.json'] }] });
  const files = process.argv.slice(2).flatMap((dir) => listJsonFiles(dir));
  let diagnostics = 0;
  for (const file of files) {
    const document = TextDocument.create(`file://${file}`, 'json', 1, fs.readFileSync(file, 'utf8'));
    diagnostics += (await service.doValidation(document, service.parseJSONDocument(document))).length;
  }
  process.stdout.write(`${files.length} files, ${diagnostics} diagnostics\n`);
}

void main();

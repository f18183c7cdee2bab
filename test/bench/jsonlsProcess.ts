// Baseline for the whole-process comparison: vscode-json-languageservice parses and validates every
// JSON file under the given folders with the same schema, in one process, as our CLI does. The schema
// comes from a file the bench writes (`bundledSchema`, merged), so that this process loads nothing of
// ours: importing our service to get it would cost the baseline our start-up too.
import * as fs from 'node:fs';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { listJsonFiles } from '../support/corpus';

async function main() {
  const [schemaFile, ...dirs] = process.argv.slice(2);
  const service = getLanguageService({});
  const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as never;
  service.configure({ validate: true, schemas: [{ uri: 'policyset:/bundled/policySetDefinition.json', schema, fileMatch: ['*.json'] }] });
  const files = dirs.flatMap((dir) => listJsonFiles(dir));
  let diagnostics = 0;
  for (const file of files) {
    const document = TextDocument.create(`file://${file}`, 'json', 1, fs.readFileSync(file, 'utf8'));
    diagnostics += (await service.doValidation(document, service.parseJSONDocument(document))).length;
  }
  process.stdout.write(`${files.length} files, ${diagnostics} diagnostics\n`);
}

void main();

// The floor for the whole-process comparison: a process that only reads and JSON.parses every JSON
// file under the given folders. No validator can take less.
import * as fs from 'node:fs';
import { listJsonFiles } from '../support/corpus';

const files = process.argv.slice(2).flatMap((dir) => listJsonFiles(dir));
let keys = 0;
for (const file of files) keys += Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')) as object).length;
process.stdout.write(`${files.length} files, ${keys} top-level keys\n`);

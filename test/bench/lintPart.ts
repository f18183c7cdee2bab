// One process's share of linting the files under a folder, for the bench's cold-code and two-process
// figures: `lintPart.js <folder> <part> <parts> [passes]` lints every parts-th file (dealt by size, so
// that the shares are alike), `passes` times over, and prints the milliseconds of each pass.
import * as fs from 'node:fs';
import { lintBytes } from '#server/cli/lint/lintFile';
import { listJsonFiles } from '../support/corpus';

const [folder, part = '0', parts = '1', passes = '1'] = process.argv.slice(2);
const files = listJsonFiles(folder)
  .map((file) => ({ file, bytes: fs.readFileSync(file) }))
  .sort((a, b) => a.bytes.length - b.bytes.length)
  .filter((_, i) => i % Number(parts) === Number(part));
const times: number[] = [];
for (let pass = 0; pass < Number(passes); pass++) {
  const start = process.hrtime.bigint();
  for (const { file, bytes } of files) lintBytes(file, bytes, false, undefined, { severities: {}, minSeverity: 'warning' });
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
process.stdout.write(JSON.stringify(times) + '\n');

// Run by the rule coverage test in a process of its own: imports every rule test file with the harness in
// collect mode (their cases are not registered as tests), runs each invalid case through the harness's check,
// and writes the codes that passing cases produce, and the cases that fail, to the file named by argv[2].
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkInvalid, registry } from './rules-harness';

async function main(out: string) {
  registry.collectOnly = true;
  const files = fs.readdirSync(__dirname).filter((name) => /^rules-.+\.test\.js$/.test(name)).sort();
  for (const file of files) await import(path.join(__dirname, file));
  const produced: Record<string, number> = {};
  const failing: string[] = [];
  for (const { band, case: c } of registry.invalid) {
    try {
      checkInvalid(c);
      produced[c.code] = (produced[c.code] ?? 0) + 1;
    } catch (error) {
      failing.push(`${band} ${c.code} ${c.name}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  fs.writeFileSync(out, JSON.stringify({ files, cases: registry.invalid.length, produced, failing }));
}

void main(process.argv[2]);

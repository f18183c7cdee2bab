// Run by the rule coverage test in a process of its own: imports every rule test file (test/rules/) with the
// rule tester in collect mode (their cases are not registered as tests), runs each invalid case through the
// tester's check, and writes the codes that passing cases produce (by the rule file they are in), and the cases
// that fail, to the file named by argv[2].
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkInvalid, registry } from '../support/ruleTester';

async function main(out: string) {
  registry.collectOnly = true;
  const dir = path.join(__dirname, '..', 'rules');
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  for (const file of files) await import(path.join(dir, file));
  /** Passing cases by rule file, then by code. */
  const produced: Record<string, Record<string, number>> = {};
  const failing: string[] = [];
  for (const { rule, case: c } of registry.invalid) {
    try {
      checkInvalid(c);
      const ofRule = (produced[rule] ??= {});
      ofRule[c.code] = (ofRule[c.code] ?? 0) + 1;
    } catch (error) {
      failing.push(`${rule} ${c.code} ${c.name}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  fs.writeFileSync(out, JSON.stringify({ files, cases: registry.invalid.length, produced, failing }));
}

void main(process.argv[2]);

// `engines.node` is a promise: every package npm installs for this project must run on some Node the
// project admits, or `npm ci` warns EBADENGINE and the tool may break there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/corpus';

/** The lowest major the project admits, from engines.node (">=20" -> 20). */
function minimumMajor(range: string): number {
  const match = />=\s*(\d+)/.exec(range);
  assert.ok(match, `engines.node '${range}' has no lower bound`);
  return Number(match[1]);
}

/** Whether some version of this major satisfies a simple engines range (">=x.y.z", "^x", "x || y", ">=a <b"). */
function admitsMajor(range: string, major: number): boolean {
  return range
    .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
    .split('||')
    .some((alternative) => {
      const parts = alternative.trim().split(/\s+/).filter(Boolean);
      if (!parts.length || parts.includes('*')) return true;
      return parts.every((part) => {
        const m = /^(>=|>|<=|<|\^|~|=)?v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(part);
        if (!m) return true; // a form this check does not read is not held against the package
        const [, op = '=', majorText] = m;
        const required = Number(majorText);
        switch (op) {
          case '>=':
            return major >= required;
          case '>':
            return major >= required;
          case '<':
            return major < required || (major === required && (m[3] ?? '0') !== '0');
          case '<=':
            return major <= required;
          default:
            return major === required;
        }
      });
    });
}

test('every installed package admits the lowest Node major that engines.node admits', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const major = minimumMajor(pkg.engines.node);
  const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
  };
  const refused: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    const node = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if (where && node && !entry.optional && !admitsMajor(node, major))
      refused.push(`${where.replace(/^node_modules\//, '')} wants node ${node}`);
  }
  assert.deepEqual(refused, [], `packages that do not run on Node ${major} (engines.node ${pkg.engines.node})`);
});

test('the check reads the ranges it is given', () => {
  assert.equal(admitsMajor('>=22.15.0', 20), false);
  assert.equal(admitsMajor('>=18', 20), true);
  assert.equal(admitsMajor('^18.17.0 || >=20.5.0', 20), true);
  assert.equal(admitsMajor('^16 || ^18', 20), false);
});

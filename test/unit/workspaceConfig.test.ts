// The language server's .policysetrc.json per workspace folder (server/src/lsp/node/workspaceConfig.ts):
// a folder without the file has no config and says nothing; any other failure is said once, and the
// folder is checked as if the file were not there. Which is which comes from the error's reason
// (ConfigFileError.reason), not from its words.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkspaceConfigs } from '#server/lsp/node/workspaceConfig';
import { ConfigFileError, loadConfigFile } from '#server/node/config';

const made: string[] = [];
after(() => made.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

function folder(name: string, write?: (file: string) => void): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `policyset-wsconfig-${name}-`));
  made.push(root);
  write?.(path.join(root, '.policysetrc.json'));
  return root;
}

function load(root: string): { warnings: string[]; configs: WorkspaceConfigs } {
  const warnings: string[] = [];
  const configs = new WorkspaceConfigs((message) => warnings.push(message));
  configs.load([pathToFileURL(root).href]);
  return { warnings, configs };
}

describe('WorkspaceConfigs: which failures are said', () => {
  test('a folder without the file: no config, no warning', () => {
    const { warnings, configs } = load(folder('none'));
    assert.deepEqual(warnings, []);
    assert.equal(configs.all().length, 0);
  });

  test('a file that cannot be read (a folder by that name): said once, left out', () => {
    const { warnings, configs } = load(folder('dir', (file) => fs.mkdirSync(file)));
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /\.policysetrc\.json: cannot read it: .*; the editor checks as if the file were not there until it is fixed$/,
    );
    assert.equal(configs.all().length, 0);
  });

  test('a file that is not JSON: said once, with where', () => {
    const { warnings } = load(folder('json', (file) => fs.writeFileSync(file, '{ "rules": ')));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /not valid JSON at line 1/);
  });

  test("a good file is the folder's config", () => {
    const root = folder('good', (file) => fs.writeFileSync(file, '{ "rules": { "PS7003": "off" } }'));
    const { warnings, configs } = load(root);
    assert.deepEqual(warnings, []);
    assert.deepEqual(configs.forUri(pathToFileURL(path.join(root, 'set.json')).href)?.config.rules, { PS7003: 'off' });
  });
});

describe('loadConfigFile: the reason of a failure', () => {
  const reasonOf = (file: string) => {
    try {
      loadConfigFile(file);
    } catch (error) {
      assert.ok(error instanceof ConfigFileError, String(error));
      return { reason: error.reason, message: error.message };
    }
    assert.fail('no error');
  };

  test('missing, unreadable, invalid; the words stay as they were', () => {
    const missing = reasonOf(path.join(folder('m'), '.policysetrc.json'));
    assert.equal(missing.reason, 'missing');
    assert.match(missing.message, /\.policysetrc\.json: cannot read it: no such file$/);
    const directory = path.join(
      folder('u', (file) => fs.mkdirSync(file)),
      '.policysetrc.json',
    );
    assert.equal(reasonOf(directory).reason, 'unreadable');
    const badKey = path.join(
      folder('i', (file) => fs.writeFileSync(file, '{ "rulez": {} }')),
      '.policysetrc.json',
    );
    assert.deepEqual(reasonOf(badKey).reason, 'invalid');
  });
});

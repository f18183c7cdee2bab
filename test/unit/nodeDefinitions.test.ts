// The definitions the CLI is given (server/src/node/definitions.ts), in process: --definitions paths sorted
// into index files and the definition files of folders, the catalogue built from them (a broken file that
// looks like a definition is recorded as broken, under the names it would go by), and the small JSON files
// the tools read. Every expected message, name and list is written out by hand.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { definitionNotes, loadCatalog, readJsonFileSync, resolveDefinitionSources } from '#server/node/definitions';
import { InputError } from '#server/node/files';
import { configDefinitions } from '#server/lsp/node/workspaceFolders';
import { foldersBeyondPathMax } from '../support/longPaths';

const LINUX = process.platform === 'linux';

let root: string;
before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-node-definitions-'));
});
after(() => {
  // rm -rf: the PATH_MAX case leaves paths longer than fs.rmSync takes.
  if (process.platform !== 'win32') spawnSync('rm', ['-rf', root]);
  else fs.rmSync(root, { recursive: true, force: true });
});

function write(file: string, content: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

function inputError(message: string) {
  return (error: unknown) => {
    assert.ok(error instanceof InputError, `an InputError, not ${String(error)}`);
    assert.equal(error.message, message);
    return true;
  };
}

const definition = (name: string, extra = '') =>
  `{ "name": "${name}", "properties": { "displayName": "${name}", "policyRule": { "if": {}, "then": { "effect": "audit" } }${extra} } }`;
const set = (name: string) => `{ "name": "${name}", "properties": { "policyDefinitions": [] } }`;

describe('resolveDefinitionSources: files are indexes, folders are walked for definition files', () => {
  test('a file named is an index whatever its name; a folder gives its .json and .jsonc files, node_modules left out', async () => {
    const dir = path.join(root, 'sources');
    for (const name of ['a.json', 'B.JSONC', 'c.txt', 'd.json.bak', 'node_modules/x.json', 'sub/e.json', 'folder.json/f.jsonc'])
      write(path.join(dir, name), '{}');
    const index = write(path.join(root, 'index.txt'), '[]');
    const sources = await resolveDefinitionSources([index, dir]);
    assert.deepEqual(sources.indexFiles, [index]);
    // In the order of the walk (Node lists a folder sorted on POSIX); compared sorted, not to depend on it.
    assert.deepEqual(
      [...sources.definitionFiles].sort(),
      [
        path.join(dir, 'B.JSONC'),
        path.join(dir, 'a.json'),
        path.join(dir, 'folder.json', 'f.jsonc'),
        path.join(dir, 'sub', 'e.json'),
      ].sort(),
    );
  });

  test('folders are walked 64 deep: a file 64 folders down is found, one 65 down is not', async () => {
    const dir = path.join(root, 'deep');
    const at64 = path.join(dir, ...Array<string>(64).fill('d'));
    write(path.join(at64, 'at64.json'), '{}');
    write(path.join(at64, 'd', 'at65.json'), '{}');
    assert.deepEqual((await resolveDefinitionSources([dir])).definitionFiles, [path.join(at64, 'at64.json')]);
  });

  test("a repository's .git, .hg and .svn are left out; links are not followed and are said, with a folder too deep", async () => {
    const dir = path.join(root, 'repository');
    for (const name of ['.git/objects/info.json', '.hg/x.json', '.svn/y.json', '.github/z.json', 'policies/p.json'])
      write(path.join(dir, name), definition('p'));
    const outside = write(path.join(root, 'outside', 'linked.json'), definition('linked'));
    fs.symlinkSync(outside, path.join(dir, 'policies', 'link.json'));
    fs.symlinkSync(path.dirname(outside), path.join(dir, 'folder-link'));
    fs.symlinkSync(outside, path.join(dir, 'not-json.txt'));
    const sources = await resolveDefinitionSources([dir]);
    assert.deepEqual(sources.definitionFiles, [path.join(dir, '.github', 'z.json'), path.join(dir, 'policies', 'p.json')]);
    assert.deepEqual(sources.notWalked, { links: [path.join(dir, 'folder-link'), path.join(dir, 'policies', 'link.json')], tooDeep: [] });
    assert.deepEqual(definitionNotes(sources), [
      `--definitions: 2 symbolic links in the folders walked not followed ('${path.join(dir, 'folder-link')}', '${path.join(dir, 'policies', 'link.json')}'): name a linked file among the definitions to include it`,
    ]);
    const deep = await resolveDefinitionSources([path.join(root, 'deep')]);
    assert.deepEqual(definitionNotes(deep), [
      `--definitions: 1 folder nested more than 64 deep not walked ('${path.join(root, 'deep', ...Array<string>(65).fill('d'))}'): name it among the definitions to include its files`,
    ]);
    assert.deepEqual(definitionNotes(await resolveDefinitionSources([outside])), [], 'a file named: nothing walked, nothing said');
    assert.deepEqual(definitionNotes(undefined), []);
  });

  test("the editor: a folder in a config's definitions is walked the same way, what it passed over said in its log", async () => {
    const dir = path.join(root, 'repository');
    const said: string[] = [];
    const catalog = await configDefinitions([path.join(dir, 'policies')], (message) => said.push(message));
    assert.ok(catalog);
    assert.deepEqual(said, [
      `1 symbolic link in the folders walked not followed ('${path.join(dir, 'policies', 'link.json')}'): name a linked file among the definitions to include it`,
    ]);
    said.length = 0;
    assert.equal(await configDefinitions([path.join(root, 'missing')], (message) => said.push(message)), undefined);
    assert.deepEqual(said, [`--definitions: cannot read '${path.join(root, 'missing')}': no such file or directory`]);
  });

  test('a path that is not there ends the run, saying which option named it', async () => {
    const missing = path.join(root, 'missing');
    await assert.rejects(
      resolveDefinitionSources([missing]),
      inputError(`--definitions: cannot read '${missing}': no such file or directory`),
    );
  });

  test('a folder that cannot be listed while walking ends the run', { skip: !LINUX && 'needs Linux: PATH_MAX of 4096' }, async () => {
    // A chain of 200-character folder names, made relative to each: the first whose full path is over
    // 4096 bytes cannot be listed (ENAMETOOLONG), even by root.
    const dir = path.join(root, 'long');
    fs.mkdirSync(dir);
    const tooLong = foldersBeyondPathMax(dir);
    await assert.rejects(
      resolveDefinitionSources([dir]),
      inputError(`--definitions: cannot read '${tooLong}': ENAMETOOLONG: name too long, scandir '${tooLong}'`),
    );
  });
});

describe('loadCatalog', () => {
  let dir: string;
  before(() => {
    dir = path.join(root, 'catalog');
    fs.mkdirSync(dir);
  });

  test('index files: a JSON array, or an object with a definitions array', async () => {
    const array = write(
      path.join(dir, 'array.json'),
      '[{ "id": "/providers/Microsoft.Authorization/policyDefinitions/one", "name": "one" }]',
    );
    const object = write(
      path.join(dir, 'object.json'),
      '{ "definitions": [{ "name": "two", "id": "/subscriptions/x/providers/Microsoft.Authorization/policyDefinitions/two" }] }',
    );
    const catalog = await loadCatalog({ indexFiles: [array, object], definitionFiles: [] });
    assert.equal(catalog.size, 2);
    assert.equal(catalog.lookupName('one')[0].source, array);
    assert.equal(catalog.lookupName('TWO')[0].source, object);
  });

  test('an explicit file may be one definition, one set, or any document with properties and a name', async () => {
    const def = write(path.join(dir, 'def.json'), definition('explicit-def'));
    const setFile = write(path.join(dir, 'set.json'), set('explicit-set'));
    const bare = write(path.join(dir, 'bare.json'), '{ "name": "bare", "properties": {} }');
    const catalog = await loadCatalog({ indexFiles: [def, setFile, bare], definitionFiles: [] });
    assert.equal(catalog.size, 2);
    assert.equal(catalog.lookupName('explicit-def')[0].source, def);
    assert.equal(catalog.lookupName('bare')[0].source, bare);
    assert.equal(catalog.setCount, 1);
    assert.equal(catalog.lookupSet('explicit-set')?.source, setFile);
  });

  test('an explicit file that is none of those, or null, or not JSON, or not there ends the run', async () => {
    const other = write(path.join(dir, 'other.json'), '{ "foo": 1 }');
    await assert.rejects(
      loadCatalog({ indexFiles: [other], definitionFiles: [] }),
      inputError(`--definitions: '${other}' is neither a definitions index (a JSON array), a policy definition nor a policy set`),
    );
    const empty = write(path.join(dir, 'null.json'), 'null');
    await assert.rejects(
      loadCatalog({ indexFiles: [empty], definitionFiles: [] }),
      inputError(`--definitions: '${empty}' is neither a definitions index (a JSON array), a policy definition nor a policy set`),
    );
    const broken = write(path.join(dir, 'broken-index.json'), '{"a": }');
    await assert.rejects(
      loadCatalog({ indexFiles: [broken], definitionFiles: [] }),
      inputError(`--definitions: '${broken}' is not valid JSON: ValueExpected at line 1, column 7`),
    );
    const missing = path.join(dir, 'missing-index.json');
    await assert.rejects(
      loadCatalog({ indexFiles: [missing], definitionFiles: [] }),
      inputError(`--definitions: cannot read '${missing}': no such file or directory`),
    );
  });

  test('files found in folders count when they are definitions or sets; other JSON is passed over', async () => {
    const def = write(path.join(dir, 'walked', 'def.json'), definition('walked-def'));
    const setFile = write(path.join(dir, 'walked', 'set.json'), set('walked-set'));
    const other = write(path.join(dir, 'walked', 'other.json'), '{ "name": "not-a-definition", "properties": {} }');
    const catalog = await loadCatalog({ indexFiles: [], definitionFiles: [def, setFile, other] });
    assert.equal(catalog.size, 1);
    assert.equal(catalog.lookupName('walked-def')[0].source, def);
    assert.deepEqual(catalog.lookupName('not-a-definition'), []);
    assert.equal(catalog.setCount, 1);
  });

  test('a broken file that holds a policy rule is recorded as broken, under its first name and its file name', async () => {
    const broken = write(
      path.join(dir, 'walked', 'Broken-File.JSONC'),
      '{\n  "name": "broken-def",\n  "properties": { "policyRule": }\n}\n',
    );
    const plain = write(path.join(dir, 'walked', 'plain.json'), '{ "name": "plain", ');
    const unnamed = write(path.join(dir, 'walked', 'unnamed.json'), '{ "properties": { "policyRule": } }');
    // Spaces around the colon; '.json' also inside the file name (only the extension is dropped).
    const spaced = write(path.join(dir, 'walked', 'v1.json.old.json'), '{ "name" :  "spaced-def", "properties": { "policyRule": } }');
    const gone = path.join(dir, 'walked', 'gone.json');
    const catalog = await loadCatalog({ indexFiles: [], definitionFiles: [broken, plain, unnamed, spaced, gone] });
    const recorded = { source: broken, problem: 'ValueExpected at line 3, column 33' };
    assert.deepEqual(catalog.unreadable('broken-def'), recorded);
    assert.deepEqual(catalog.unreadable('broken-file'), recorded);
    assert.deepEqual(catalog.unreadable('unnamed'), { source: unnamed, problem: 'ValueExpected at line 1, column 33' });
    const spacedRecord = { source: spaced, problem: 'ValueExpected at line 1, column 57' };
    assert.deepEqual(catalog.unreadable('spaced-def'), spacedRecord);
    assert.deepEqual(catalog.unreadable('v1.json.old'), spacedRecord);
    assert.equal(catalog.unreadable('plain'), undefined, 'no policy rule: not taken for a definition');
    assert.equal(catalog.unreadableCount, 3);
    assert.equal(catalog.size, 0);
  });

  test('texts given with the files (the documents being linted) are added too, and recorded when broken', async () => {
    const catalog = await loadCatalog({ indexFiles: [], definitionFiles: [] }, [
      { file: '/lint/def.json', text: definition('linted-def') },
      { file: '/lint/set.json', text: set('linted-set') },
      { file: '/lint/broken.json', text: '{ "name": "linted-broken", "properties": { "policyRule": } }' },
    ]);
    assert.equal(catalog.lookupName('linted-def')[0].source, '/lint/def.json');
    assert.equal(catalog.setCount, 1);
    assert.deepEqual(catalog.unreadable('linted-broken'), { source: '/lint/broken.json', problem: 'ValueExpected at line 1, column 58' });
    assert.deepEqual(catalog.unreadable('broken'), { source: '/lint/broken.json', problem: 'ValueExpected at line 1, column 58' });
  });

  test('nothing given: an empty catalogue', async () => {
    const catalog = await loadCatalog({ indexFiles: [], definitionFiles: [] });
    assert.equal(catalog.size, 0);
    assert.equal(catalog.setCount, 0);
    assert.equal(catalog.unreadableCount, 0);
  });
});

describe('readJsonFileSync: a small JSON file, strict or with comments and trailing commas', () => {
  test('its value; what is wrong when it is not JSON; the reader’s refusals as they are', () => {
    const dir = path.join(root, 'json');
    const strict = write(path.join(dir, 'strict.json'), '{ "a": [1, 2] }');
    assert.deepEqual(readJsonFileSync(strict, 'usage'), { a: [1, 2] });
    const loose = write(path.join(dir, 'loose.jsonc'), '// units\n{ "a": 1, }\n');
    assert.deepEqual(readJsonFileSync(loose, 'capacityUnits'), { a: 1 });
    const broken = write(path.join(dir, 'broken.json'), '{"a": }');
    assert.throws(
      () => readJsonFileSync(broken, 'usage'),
      (error: unknown) =>
        error instanceof Error &&
        !(error instanceof InputError) &&
        error.message === `'${broken}' is not valid JSON: ValueExpected at line 1, column 7`,
    );
    const missing = path.join(dir, 'missing.json');
    assert.throws(
      () => readJsonFileSync(missing, 'usage'),
      (error: unknown) =>
        error instanceof InputError && error.fsCode === 'ENOENT' && error.message === `cannot read '${missing}': no such file or directory`,
    );
    const big = path.join(dir, 'big.json');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 4 * 1024 * 1024 + 1);
    assert.throws(
      () => readJsonFileSync(big, 'capacityUnits'),
      inputError(`'${big}' is too large to read (4 MiB; capacity-unit files are read up to 4 MiB)`),
    );
  });
});

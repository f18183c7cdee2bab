// policyset mcp: the Model Context Protocol server, spoken to as an MCP client does (JSON-RPC, one message per
// line on standard input and output). The oracle of every tool answer is the CLI itself: lint's diagnostics
// are those of `policyset lint --format json` on the same files, diff's those of `policyset diff -f json`,
// rules' those of `policyset rules --format json`.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI, runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A minimal MCP client over the server's standard input and output. */
class Client {
  readonly child: ChildProcessWithoutNullStreams;
  private nextId = 1;
  private buffer = '';
  private readonly waiting = new Map<number | string | null, (message: Json) => void>();
  /** Answers with id null (parse errors and the like), in order. */
  readonly orphans: Json[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(cwd: string, args: string[] = []) {
    this.child = spawn(process.execPath, [CLI, 'mcp', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      for (let newline = this.buffer.indexOf('\n'); newline !== -1; newline = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        // Every line of standard output must be a JSON-RPC message.
        const message = JSON.parse(line) as Json;
        assert.equal(message.jsonrpc, '2.0', line);
        const resolve = this.waiting.get(message.id);
        if (resolve) {
          this.waiting.delete(message.id);
          resolve(message);
        } else this.orphans.push(message);
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  send(line: string): void {
    this.child.stdin.write(line + '\n');
  }

  request(method: string, params?: unknown): Promise<Json> {
    const id = this.nextId++;
    const answer = new Promise<Json>((resolve, reject) => {
      this.waiting.set(id, resolve);
      setTimeout(() => reject(new Error(`no answer to ${method} in 60 s; stderr: ${this.stderr}`)), 60000).unref();
    });
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return answer;
  }

  notify(method: string, params?: unknown): void {
    this.send(JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }));
  }

  async initialize(protocolVersion = '2025-06-18'): Promise<Json> {
    const answer = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'mcp.test', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return answer;
  }

  async call(name: string, args: unknown): Promise<Json> {
    const answer = await this.request('tools/call', { name, arguments: args });
    assert.ok(answer.result, `tools/call ${name} answered ${JSON.stringify(answer)}`);
    return answer.result as Json;
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

/** What the CLI prints for `policyset <args>` in `cwd` (the oracle), parsed. */
async function cliJson(args: string[], cwd = REPO_ROOT): Promise<Json> {
  const run = await runCli(args, { cwd });
  assert.ok(run.code === 0 || run.code === 1, `policyset ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Json;
}

describe('policyset mcp', () => {
  let client: Client;
  before(async () => {
    client = new Client(REPO_ROOT);
    await client.initialize();
  });
  after(async () => {
    assert.equal(await client.close(), 0, 'the server ends with status 0 when its input closes');
  });

  test('initialize negotiates the protocol version and declares tools', async () => {
    const other = new Client(REPO_ROOT);
    try {
      const same = await other.request('initialize', {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      });
      assert.equal(same.result.protocolVersion, '2025-03-26', 'a version the server speaks is answered with itself');
      assert.ok(same.result.capabilities.tools, 'capabilities.tools');
      assert.equal(same.result.serverInfo.name, 'policyset');
      const unknown = new Client(REPO_ROOT);
      const newest = await unknown.request('initialize', {
        protocolVersion: '1999-01-01',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      });
      assert.equal(newest.result.protocolVersion, '2025-11-25', 'an unknown version is answered with the newest the server speaks');
      assert.equal(await unknown.close(), 0);
    } finally {
      await other.close();
    }
  });

  test('tools/list: lint, diff, rules and explain, read-only, each with an input schema', async () => {
    const { result } = await client.request('tools/list');
    const tools = result.tools as Json[];
    assert.deepEqual(
      tools.map((t) => t.name),
      ['lint', 'diff', 'rules', 'explain'],
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.description.length > 40, tool.name);
      assert.equal(tool.annotations.readOnlyHint, true, tool.name);
      assert.equal(tool.annotations.destructiveHint, false, tool.name);
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: outputSchema in 2025-06-18`);
    }
  });

  test('lint of a file: the diagnostics of policyset lint --format json, as structured content and as text', async () => {
    const file = 'examples/mistakes/contoso-security-set.json';
    const expected = await cliJson(['lint', file, '--format', 'json']);
    assert.ok(expected.files[0].diagnostics.length > 0, 'the example has mistakes: the comparison means something');
    const result = await client.call('lint', { paths: [file] });
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.structuredContent, expected);
    assert.deepEqual(JSON.parse(result.content[0].text), expected);
  });

  test('lint of a folder and of a glob pattern, with a rule turned off: as the CLI with the same flags', async () => {
    const expected = await cliJson(['lint', 'examples/mistakes', '--format', 'json', '--rule', 'PS4001=off']);
    const result = await client.call('lint', { paths: ['examples/mistakes'], rules: { PS4001: 'off' } });
    assert.deepEqual(result.structuredContent, expected);
    assert.ok(expected.files.length > 1);
    const pattern = await client.call('lint', { paths: ['examples/mistakes/*-set.json'] });
    assert.deepEqual(pattern.structuredContent, await cliJson(['lint', 'examples/mistakes/*-set.json', '--format', 'json']));
  });

  test('lint of text: as policyset lint --stdin --stdin-filename', async () => {
    const text = fs
      .readFileSync(path.join(REPO_ROOT, 'examples/mistakes/contoso-monitoring-set.json'), 'utf8')
      .replace('"policyDefinitions"', '"policyDefinitions" ');
    const oracle = spawnSync(process.execPath, [CLI, 'lint', '--stdin', '--stdin-filename', 'sets/edited.json', '--format', 'json'], {
      cwd: REPO_ROOT,
      input: text,
    });
    const expected = JSON.parse(oracle.stdout.toString('utf8')) as Json;
    assert.ok(expected.files[0].diagnostics.length > 0);
    const result = await client.call('lint', { text, filename: 'sets/edited.json' });
    assert.deepEqual(result.structuredContent, expected);
  });

  test('bad calls answer errors and the server stays up', async () => {
    const unknownTool = await client.request('tools/call', { name: 'deploy', arguments: {} });
    assert.equal(unknownTool.error?.code, -32602, 'an unknown tool is a protocol error');
    const unknownMethod = await client.request('resources/list');
    assert.equal(unknownMethod.error?.code, -32601);
    const noArguments = await client.call('lint', {});
    assert.equal(noArguments.isError, true, 'arguments the model got wrong are a tool error it can read');
    assert.match(noArguments.content[0].text, /needs paths .* or text/);
    const badLevel = await client.call('lint', { paths: ['examples/clean'], rules: { PS4001: 'loud' } });
    assert.equal(badLevel.isError, true);
    assert.match(badLevel.content[0].text, /--rule takes/);
    const misspelt = await client.call('lint', { path: ['examples/clean'] });
    assert.equal(misspelt.isError, true);
    assert.match(misspelt.content[0].text, /not 'path'/);
    const missing = await client.call('lint', { paths: ['examples/nothing-here.json'] });
    assert.equal(missing.isError, true, 'an input that cannot be read: not a clean result');
    assert.match(missing.content[0].text, /nothing-here\.json/);
    const noRule = await client.call('explain', { rule: 'PS40001' });
    assert.equal(noRule.isError, true);
    assert.match(noRule.content[0].text, /did you mean/);
    const orphansBefore = client.orphans.length;
    client.send('{ this is not json');
    const ping = await client.request('ping');
    assert.deepEqual(ping.result, {});
    assert.equal(
      client.orphans[orphansBefore]?.error?.code,
      -32700,
      'a line that is not JSON: a parse error, answered before the next request',
    );
    const after = await client.call('lint', { paths: ['examples/clean/contoso-baseline.json'] });
    assert.notEqual(after.isError, true, 'still serving');
  });

  test('rules and explain: as policyset rules --format json and the rule pages', async () => {
    const rules = await client.call('rules', {});
    assert.deepEqual(rules.structuredContent.rules, await cliJson(['rules', '--format', 'json']));
    const explained = await client.call('explain', { rule: 'duplicate-reference-id' });
    assert.equal(explained.structuredContent.code, 'PS4001');
    assert.equal(explained.structuredContent.page, fs.readFileSync(path.join(REPO_ROOT, 'docs/rules/duplicate-reference-id.md'), 'utf8'));
  });

  test('a request before initialize is refused; 2024-11-05 clients get no structured content', async () => {
    const early = new Client(REPO_ROOT);
    try {
      const list = await early.request('tools/list');
      assert.ok(list.error, 'tools/list before initialize');
      await early.initialize('2024-11-05');
      const { result } = await early.request('tools/list');
      assert.equal(result.tools[0].outputSchema, undefined);
      const rules = await early.call('rules', {});
      assert.equal(rules.structuredContent, undefined);
      assert.ok(JSON.parse(rules.content[0].text).rules.length > 10);
    } finally {
      await early.close();
    }
  });
});

describe('policyset mcp: the working folder', () => {
  let folder: string;
  let outside: string;
  let client: Client;
  before(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-mcp-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-mcp-outside-'));
    const set = fs.readFileSync(path.join(REPO_ROOT, 'examples/mistakes/contoso-security-set.json'), 'utf8');
    fs.writeFileSync(path.join(outside, 'secret.json'), set);
    fs.mkdirSync(path.join(folder, 'sets'));
    fs.writeFileSync(path.join(folder, 'sets/set.json'), set);
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(folder, 'sets/link.json'));
    fs.symlinkSync(outside, path.join(folder, 'elsewhere'));
    client = new Client(folder);
    await client.initialize();
  });
  after(async () => {
    await client.close();
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  test('paths outside the folder, or links out of it, are refused and said so', async () => {
    for (const given of [
      path.join(outside, 'secret.json'),
      `../${path.basename(outside)}/secret.json`,
      'sets/link.json',
      'elsewhere',
      'elsewhere/secret.json',
      '../**/*.json',
      '/etc/passwd',
    ]) {
      const result = await client.call('lint', { paths: [given] });
      assert.equal(result.isError, true, given);
      assert.match(result.content[0].text, /outside the working folder/, given);
      assert.doesNotMatch(result.content[0].text, /PS\d{4}/, `${given}: nothing of the file is told`);
    }
    const definitions = await client.call('lint', { paths: ['sets/set.json'], definitions: [outside] });
    assert.equal(definitions.isError, true);
    assert.match(definitions.content[0].text, /outside the working folder/);
    const diff = await client.call('diff', { old: path.join(outside, 'secret.json'), new: 'sets/set.json' });
    assert.equal(diff.isError, true);
    assert.match(diff.content[0].text, /outside the working folder/);
    const inside = await client.call('lint', { paths: ['sets/set.json'] });
    assert.notEqual(inside.isError, true, 'a file inside is linted');
    assert.deepEqual(inside.structuredContent, await cliJson(['lint', 'sets/set.json', '--format', 'json'], folder));
  });

  test('diff of two files: as policyset diff --format json', async () => {
    const old = JSON.parse(fs.readFileSync(path.join(folder, 'sets/set.json'), 'utf8')) as Json;
    const next = structuredClone(old);
    next.properties.policyDefinitions.pop();
    fs.writeFileSync(path.join(folder, 'old.json'), JSON.stringify(old, null, 2));
    fs.writeFileSync(path.join(folder, 'new.json'), JSON.stringify(next, null, 2));
    const expected = await cliJson(['diff', 'old.json', 'new.json', '--format', 'json'], folder);
    const result = await client.call('diff', { old: 'old.json', new: 'new.json' });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(result.structuredContent.reports, [expected]);
    assert.ok(
      expected.changes.some((c: Json) => c.bump === 'major'),
      'a reference removed: the comparison has something to say',
    );
    const builtin = await client.call('diff', { old: 'builtin:abc', new: 'new.json' });
    assert.equal(builtin.isError, true, 'builtin:<name> would call the service');
  });
});

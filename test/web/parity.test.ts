// The browser's language server answers as the desktop's does: the web build's worker bundle
// (dist/browser/server.js, run in Node by support/workerInNode.ts) and the Node server over stdio are asked
// the same requests on the same documents, with the same workspace: the desktop server reads the folder from
// the disk, the browser's is sent its files as the extension sends them (policySet/workspaceFiles).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, CORPORA, listJsonFiles } from '../support/corpus';
import { positionAt, startInitialized, type LspProcess } from '../support/lspProcess';

const WORKSPACE = path.join(REPO_ROOT, 'test/web/fixtures/workspace');
const WORKER_IN_NODE = path.join(__dirname, 'support/workerInNode.js');
const CAPABILITIES = {
  textDocument: {
    diagnostic: { dynamicRegistration: false },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
  },
  workspace: { workspaceFolders: true },
};

/** The documents compared: the web fixture, the e2e fixtures, the defect fixtures, and a few corpus sets. */
function documents(): string[] {
  const files = [
    path.join(WORKSPACE, 'tagging.json'),
    ...fs
      .readdirSync(path.join(REPO_ROOT, 'test/e2e/fixtures'))
      .filter((f) => /\.jsonc?$/.test(f))
      .map((f) => path.join(REPO_ROOT, 'test/e2e/fixtures', f)),
    ...fs
      .readdirSync(path.join(REPO_ROOT, 'test/fixtures/defects'))
      .filter((f) => /\.jsonc?$/.test(f))
      .map((f) => path.join(REPO_ROOT, 'test/fixtures/defects', f)),
  ];
  // Five corpus sets: of the subset in the repository, and of the full corpus when it is there.
  for (const corpus of CORPORA) files.push(...listJsonFiles(corpus.sets).sort().slice(0, 5));
  return files;
}

/**
 * Two differences by design are set aside: the rule pages' links (the installed docs on the desktop, the
 * extension's served files in the browser), and where a known definition was read, which the desktop shows
 * as a path and the browser as the URI it was sent (`From <source>`).
 */
const withoutDocLinks = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value ?? null, (key, v: unknown) => {
      if (key === 'codeDescription') return undefined;
      return typeof v === 'string' ? v.replace(/From file:\/\/(\/\S*)/g, (_all, p: string) => `From ${decodeURIComponent(p)}`) : v;
    }),
  );

/** Offsets worth asking at: after each quote, colon and opening bracket (keys, values, group names, expressions), at most `max`. */
function probeOffsets(text: string, max = 60): number[] {
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) if ('":[('.includes(text[i]!)) offsets.push(i + 1);
  const step = Math.max(1, Math.ceil(offsets.length / max));
  return offsets.filter((_, i) => i % step === 0);
}

async function answers(client: LspProcess, uri: string, text: string): Promise<Record<string, unknown>> {
  const textDocument = { uri };
  const ask = async (method: string, params: object) => {
    const answer = await client.request(method, { textDocument, ...params }, 30000);
    return withoutDocLinks(answer.error ? { error: answer.error.message } : answer.result);
  };
  const out: Record<string, unknown> = {};
  const diagnostics = (await client.request<{ items: Array<{ range: unknown }> }>('textDocument/diagnostic', { textDocument }, 30000))
    .result;
  out['diagnostics'] = withoutDocLinks(diagnostics);
  out['symbols'] = await ask('textDocument/documentSymbol', {});
  out['folding'] = await ask('textDocument/foldingRange', {});
  out['formatting'] = await ask('textDocument/formatting', { options: { tabSize: 2, insertSpaces: true } });
  out['codeActions'] = await Promise.all(
    (diagnostics?.items ?? []).map((d) =>
      ask('textDocument/codeAction', { range: d.range, context: { diagnostics: [withoutDocLinks(d)] } }),
    ),
  );
  for (const offset of probeOffsets(text)) {
    const position = positionAt(text, offset);
    out[`@${offset}`] = {
      completion: await ask('textDocument/completion', { position }),
      hover: await ask('textDocument/hover', { position }),
      definition: await ask('textDocument/definition', { position }),
      references: await ask('textDocument/references', { position, context: { includeDeclaration: true } }),
      prepareRename: await ask('textDocument/prepareRename', { position }),
      rename: await ask('textDocument/rename', { position, newName: 'renamedByTheTest' }),
    };
  }
  return out;
}

describe('web: the browser server answers as the desktop server', { timeout: 10 * 60_000 }, () => {
  let desktop: LspProcess;
  let browser: LspProcess;
  const folder = pathToFileURL(WORKSPACE).href;

  /** A figure, not a check: from the start of the process to the first diagnostics of a set (docs/web.md). */
  const firstDiagnostics = async (client: LspProcess, started: number) => {
    const file = path.join(WORKSPACE, 'tagging.json');
    const uri = pathToFileURL(file).href;
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'policyset', version: 1, text: fs.readFileSync(file, 'utf8') },
    });
    await client.request('textDocument/diagnostic', { textDocument: { uri } }, 30000);
    client.notify('textDocument/didClose', { textDocument: { uri } });
    return Date.now() - started;
  };

  before(async () => {
    assert.ok(fs.existsSync(path.join(REPO_ROOT, 'dist/browser/server.js')), 'the web build is there (npm run build)');
    let started = Date.now();
    desktop = (await startInitialized(CAPABILITIES, { workspaceFolders: [folder] })).client;
    const desktopMs = await firstDiagnostics(desktop, started);
    started = Date.now();
    browser = (
      await startInitialized(CAPABILITIES, { script: WORKER_IN_NODE, args: [], name: 'browser server', workspaceFolders: [folder] })
    ).client;
    const browserMs = await firstDiagnostics(browser, started);
    console.log(
      `# measured: process start to the first diagnostics of a set: desktop server (stdio) ${desktopMs} ms, web build's server (run in Node) ${browserMs} ms`,
    );
    // What the extension sends in the browser: the folder's definitions and sets, read by the client.
    const files = listJsonFiles(WORKSPACE).map((file) => ({ uri: pathToFileURL(file).href, text: fs.readFileSync(file, 'utf8') }));
    browser.notify('policySet/workspaceFiles', { complete: true, files });
  });

  after(async () => {
    await desktop?.stop();
    await browser?.stop();
  });

  test('the custom definition is known to both before comparing (PS8001 on the set)', async () => {
    const uri = pathToFileURL(path.join(WORKSPACE, 'tagging.json')).href;
    for (const client of [desktop, browser]) {
      client.notify('textDocument/didOpen', {
        textDocument: { uri, languageId: 'policyset', version: 1, text: fs.readFileSync(path.join(WORKSPACE, 'tagging.json'), 'utf8') },
      });
      const deadline = Date.now() + 20_000;
      let codes: string[] = [];
      while (Date.now() < deadline) {
        const answer = await client.request<{ items: Array<{ code: string }> }>(
          'textDocument/diagnostic',
          { textDocument: { uri } },
          30000,
        );
        codes = (answer.result?.items ?? []).map((d) => String(d.code));
        if (codes.includes('PS8001')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(codes.includes('PS8001'), `${client.name}: PS8001 (the custom definition is known); got ${JSON.stringify(codes)}`);
      client.notify('textDocument/didClose', { textDocument: { uri } });
    }
  });

  for (const file of documents()) {
    test(`the same answers on ${path.relative(REPO_ROOT, file)}`, async () => {
      const uri = pathToFileURL(file).href;
      const text = fs.readFileSync(file, 'utf8');
      const open = { textDocument: { uri, languageId: 'policyset', version: 1, text } };
      desktop.notify('textDocument/didOpen', open);
      browser.notify('textDocument/didOpen', open);
      const [fromDesktop, fromBrowser] = await Promise.all([answers(desktop, uri, text), answers(browser, uri, text)]);
      desktop.notify('textDocument/didClose', { textDocument: { uri } });
      browser.notify('textDocument/didClose', { textDocument: { uri } });
      assert.ok(Object.keys(fromDesktop).length > 5, 'requests were asked');
      assert.deepEqual(fromBrowser, fromDesktop);
    });
  }
});

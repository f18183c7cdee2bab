// 10,000 seeded random incremental edits of real documents sent to the real server over stdio, each
// followed by one request: the server must never exit, must answer every request within a liveness deadline,
// and every answer must be of the request's result type, with every range of the edited document inside it
// and ordered; an internal error (-32603), any other error a correct server does not give, or an error-level
// log message fails the test. The documents: the project's own fixtures and examples always (every document
// kind and every dialect, each edited in both servers), and the corpus's sets when it is there.
// POLICYSET_LSP_FUZZ_EDITS and POLICYSET_LSP_FUZZ_SEED change the count and the seed for manual runs; the
// default count is the one the issue asks for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePolicyDocument, splitPartOf } from '#service';
import { CORPUS_SETS, corpusAvailable, listJsonFiles, REPO_ROOT } from '../support/corpus';
import { startInitialized, positionAt, type ResponseMessage } from '../support/lspProcess';
import { answerProblems, lineLengths, ALLOWED_ERRORS } from '../support/lspAnswers';

const EDITS = Number(process.env.POLICYSET_LSP_FUZZ_EDITS ?? 10000);
const SEED = Number(process.env.POLICYSET_LSP_FUZZ_SEED ?? 20261122);
/** A liveness deadline, not a benchmark: a request unanswered this long counts as a hang. */
const DEADLINE_MS = 10000;
/** Documents open at once in each server, and the largest document used (larger ones only as paste sources). */
const OPEN_DOCUMENTS = 8;
const MAX_DOCUMENT_BYTES = 64 * 1024;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** JSON-ish fragments that a person might type or an editor might insert, and some that break things. */
const FRAGMENTS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  "'",
  '\\',
  '\n',
  '  ',
  'null',
  'true',
  '-1e999',
  '0',
  '""',
  '{}',
  '[]',
  '"name": "Network"',
  '"groupNames": ["Network", "Missing"]',
  '"[parameters(\'effect\')]"',
  "[parameters('",
  '"parameters": { "effect": { "value": "[parameters(\'effect\')]" } }',
  '"[[parameters(\'x\')]"',
  '"metadata": { "strongType": "location" }',
  '"strongType": "',
  '"policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/',
  '"policyDefinitionReferenceId": "dup"',
  '"definitionVersion": "1.*.*"',
  '"type": "String"',
  '"allowedValues": [1, "a", null]',
  '{ "name": "G", "category": "C" }',
  '"policyDefinitionGroups": [',
  '"policyType": "Custom"',
  '"mode": "All"',
  '/* comment */',
  '// comment\n',
  '\u00e9',
  '\ud83d\ude00',
  '\ud83d',
  '\u0000',
  '\t',
  '\r\n',
  "[concat(parameters('a'), ')]",
];

interface OpenDocument {
  uri: string;
  version: number;
  text: string;
  source: string;
  group: string;
  diagnostics: unknown[];
  publishedVersion?: number;
}

interface Stats {
  edits: number;
  requests: Map<string, { results: number; nonEmpty: number; errors: Map<number, number>; sample: Map<number, string> }>;
  slowest: { method: string; ms: number };
  /** Requests answered on documents of each group (kind or dialect) of the project's own files, per server. */
  groupRequests: Map<string, number>;
}

interface Documents {
  editable: Map<string, string>;
  pasteSources: string[];
  /** The project's own documents by group (a document kind, or a dialect of test/fixtures/dialects); the corpus under 'corpus'. */
  groups: Map<string, string[]>;
}

/** Every group the project's files must give: each document kind the server tells apart, and each dialect. */
const KINDS = [
  'policySetDefinition',
  'policySetDefinitionVersion',
  'armTemplate',
  'policyDefinition',
  'workspaceItem',
  'policySetPart',
  'deploymentPlan',
];
const DIALECTS = fs
  .readdirSync(path.join(REPO_ROOT, 'test', 'fixtures', 'dialects'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `dialect ${e.name}`);

/** .json and .jsonc files under a folder, at any depth. */
function projectFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.jsonc?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

function documentsToUse(): Documents {
  // The project's own files always: they hold the kinds and dialects the corpus does not (definitions,
  // deployment plans, items, split files, templates, the policy-as-code framework's files).
  const own = [...projectFiles(path.join(REPO_ROOT, 'examples')), ...projectFiles(path.join(REPO_ROOT, 'test', 'fixtures'))];
  const corpus = corpusAvailable ? listJsonFiles(CORPUS_SETS) : [];
  if (!corpusAvailable)
    console.log(
      `the corpus is absent (../shared/corpus or POLICYSET_CORPUS): fuzzing the project's ${own.length} examples and fixtures only`,
    );
  const texts = [...own, ...corpus].map((file) => [path.relative(REPO_ROOT, file), fs.readFileSync(file, 'utf8')] as const);
  const editable = new Map(texts.filter(([, text]) => text.length <= MAX_DOCUMENT_BYTES));
  const groups = new Map<string, string[]>();
  const add = (group: string, name: string) => groups.set(group, [...(groups.get(group) ?? []), name]);
  for (const file of own) {
    const name = path.relative(REPO_ROOT, file);
    const text = editable.get(name);
    if (text === undefined) continue;
    const dialect = /^test\/fixtures\/dialects\/([^/]+)\//.exec(name.split(path.sep).join('/'));
    if (dialect) add(`dialect ${dialect[1]}`, name);
    // Split-layout parts are known by their file names (<base>.definitions.json ...), the rest by content.
    const kind = splitPartOf(path.basename(name)) ? 'policySetPart' : parsePolicyDocument(text, { model: false }).kind;
    add(kind === 'unknown' ? 'other' : kind, name);
  }
  const missing = [...KINDS, ...DIALECTS].filter((group) => !groups.has(group));
  assert.deepEqual(missing, [], "the project's fixtures and examples must hold every document kind and every dialect");
  for (const file of corpus) {
    const name = path.relative(REPO_ROOT, file);
    if (editable.has(name)) add('corpus', name);
  }
  return { editable, pasteSources: texts.map(([, text]) => text), groups };
}

/** True when the offset falls between the \r and the \n of one line end. */
function inLineEnd(text: string, offset: number): boolean {
  return offset > 0 && text[offset - 1] === '\r' && text[offset] === '\n';
}

async function fuzzServer(
  label: string,
  pull: boolean,
  edits: number,
  seed: number,
  stats: Stats,
  { editable, pasteSources, groups }: Documents,
) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const int = (max: number) => Math.floor(next() * max);
  const ownGroups = [...groups.keys()].filter((g) => g !== 'corpus').sort();
  /** Error-level messages of the server: any one fails the run. */
  const problems: string[] = [];

  const { client, capabilities } = await startInitialized({
    textDocument: {
      synchronization: { didSave: true },
      completion: { completionItem: { snippetSupport: true } },
      documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } } },
      ...(pull ? { diagnostic: { dynamicRegistration: false } } : { publishDiagnostics: { versionSupport: true } }),
    },
    workspace: { configuration: true },
  });
  try {
    client.child.stderr.on('data', () => undefined);
    const documents: OpenDocument[] = [];
    const began = Date.now();
    let serial = 0;
    const open = (): OpenDocument => {
      // The first documents opened go through the groups in turn, so that each kind and dialect is edited in
      // both servers; after that, half of them come from the corpus when it is there, half from a group.
      const group = serial < ownGroups.length ? ownGroups[serial] : groups.has('corpus') && next() < 0.5 ? 'corpus' : pick(ownGroups);
      const source = pick(groups.get(group)!);
      const document: OpenDocument = {
        uri: `file:///fuzz/${label}/${serial++}/${path.basename(source)}`,
        version: 1,
        text: editable.get(source)!,
        source,
        group,
        diagnostics: [],
      };
      // Half of them say 'json', as most editors would; the server must recognise policy sets by content.
      client.notify('textDocument/didOpen', {
        textDocument: { uri: document.uri, languageId: next() < 0.5 ? 'json' : 'policyset', version: 1, text: document.text },
      });
      return document;
    };
    for (let i = 0; i < OPEN_DOCUMENTS; i++) documents.push(open());
    client.serverRequestHandlers.set('workspace/configuration', (params) => ((params as { items: unknown[] }).items ?? []).map(() => ({})));
    const byUri = (uri: string) => documents.find((d) => d.uri === uri);
    const onPublish = () => {
      for (const n of client.notifications.splice(0)) {
        if (n.method === 'textDocument/publishDiagnostics') {
          const params = n.params as { uri: string; version?: number; diagnostics: unknown[] };
          const document = byUri(params.uri);
          if (document) {
            document.diagnostics = params.diagnostics;
            document.publishedVersion = params.version;
          }
        } else if ((n.method === 'window/logMessage' || n.method === 'window/showMessage') && (n.params as { type: number }).type === 1) {
          const message = (n.params as { message: string }).message;
          // The document it names, as it is now (validation runs a little after the edits it follows).
          const named = documents.find((d) => message.includes(d.uri));
          problems.push(
            `the server said (${n.method}, error): ${message.slice(0, 600)}${named ? `\n  ${named.uri} (version ${named.version}) is now: ${JSON.stringify(named.text)}` : ''}`,
          );
        }
      }
    };

    const methods = [
      'textDocument/completion',
      'textDocument/hover',
      'textDocument/definition',
      'textDocument/references',
      'textDocument/documentSymbol',
      'textDocument/codeAction',
      'textDocument/formatting',
      ...(pull || capabilities.diagnosticProvider ? ['textDocument/diagnostic'] : []),
      ...(capabilities.renameProvider ? ['textDocument/rename'] : []),
      ...(capabilities.foldingRangeProvider ? ['textDocument/foldingRange'] : []),
      ...(capabilities.selectionRangeProvider ? ['textDocument/selectionRange'] : []),
      ...(capabilities.documentRangeFormattingProvider ? ['textDocument/rangeFormatting'] : []),
      ...(capabilities.documentHighlightProvider ? ['textDocument/documentHighlight'] : []),
      ...(capabilities.inlayHintProvider ? ['textDocument/inlayHint'] : []),
      ...(capabilities.documentLinkProvider ? ['textDocument/documentLink'] : []),
      ...(capabilities.codeLensProvider ? ['textDocument/codeLens'] : []),
      ...(capabilities.workspaceSymbolProvider ? ['workspace/symbol'] : []),
    ];

    for (let edit = 0; edit < edits; edit++) {
      const slot = int(documents.length);
      let document = documents[slot];
      // A document that has been ground down or blown up is closed and a fresh one opened in its place.
      if (document.text.length < 2 || document.text.length > 4 * MAX_DOCUMENT_BYTES || next() < 0.03) {
        client.notify('textDocument/didClose', { textDocument: { uri: document.uri } });
        document = documents[slot] = open();
      }
      const text = document.text;
      // Positions cluster where the structure is: next to a quote, a bracket or an expression, or anywhere.
      const anchor = () => {
        if (next() < 0.5) return int(text.length + 1);
        const token = pick(['"', '[', '{', ':', "parameters('", 'groupNames', 'strongType', 'policyDefinitionId']);
        const at = text.indexOf(token, int(text.length));
        return at < 0 ? int(text.length + 1) : at + int(token.length + 1);
      };
      let start = anchor();
      // Never between the \r and the \n of a line end: no LSP position is there.
      if (inLineEnd(text, start)) start--;
      let end = start;
      let insert = '';
      const kind = next();
      if (kind < 0.4) insert = pick(FRAGMENTS);
      else if (kind < 0.65) end = Math.min(text.length, start + 1 + int(next() < 0.8 ? 20 : 400));
      else if (kind < 0.7)
        end = text.length; // truncation
      else if (kind < 0.9) {
        const other = pick(pasteSources);
        const from = int(other.length);
        insert = other.slice(from, from + 1 + int(next() < 0.7 ? 200 : 3000));
      } else {
        end = Math.min(text.length, start + int(30));
        insert = pick(FRAGMENTS);
      }
      if (inLineEnd(text, end)) end++;
      const range = { start: positionAt(text, start), end: positionAt(text, end) };
      document.text = text.slice(0, start) + insert + text.slice(end);
      document.version++;
      client.notify('textDocument/didChange', {
        textDocument: { uri: document.uri, version: document.version },
        contentChanges: [{ range, text: insert }],
      });
      stats.edits++;
      if (next() < 0.01) client.notify('textDocument/didSave', { textDocument: { uri: document.uri }, text: document.text });

      // One request, at the cursor after the edit or somewhere else in the document.
      const method = methods[edit % methods.length];
      // Half the time just after the edit; otherwise inside a parameter or group name (where navigation and
      // rename have something to do), or anywhere.
      const onName = () => {
        // A path of tokens to follow from a random point, e.g. groupNames, then [, then the string's quote.
        const path = pick([
          ["parameters('"],
          ['"groupNames"', '[', '"'],
          ['"policyDefinitionGroups"', '"name"', ':', '"'],
          ['"parameters"', '{', '"'],
        ]);
        let at = int(document.text.length);
        for (const token of path) {
          at = document.text.indexOf(token, at);
          if (at < 0) return int(document.text.length + 1);
          at += token.length;
        }
        return Math.min(document.text.length, at + int(4));
      };
      const where = next();
      // Rename and navigation have something to do only on a name: there, mostly on one.
      const onNames = [
        'textDocument/rename',
        'textDocument/definition',
        'textDocument/references',
        'textDocument/documentHighlight',
      ].includes(method);
      let cursorOffset = where < (onNames ? 0.1 : 0.5) ? start + insert.length : where < 0.85 ? onName() : int(document.text.length + 1);
      if (inLineEnd(document.text, cursorOffset)) cursorOffset--;
      const cursor = positionAt(document.text, cursorOffset);
      const textDocument = { uri: document.uri };
      const params: Record<string, unknown> = { textDocument };
      if (method === 'textDocument/completion') Object.assign(params, { position: cursor, context: { triggerKind: 1 } });
      else if (method === 'textDocument/references')
        Object.assign(params, { position: cursor, context: { includeDeclaration: next() < 0.5 } });
      else if (method === 'textDocument/codeAction') {
        // As an editor does: the range of a diagnostic (from an earlier version, so possibly stale) with that
        // diagnostic, or the cursor with all those known.
        const diagnostic = document.diagnostics.length && next() < 0.7 ? (pick(document.diagnostics) as { range: unknown }) : undefined;
        Object.assign(
          params,
          diagnostic
            ? { range: diagnostic.range, context: { diagnostics: [diagnostic] } }
            : { range: { start: cursor, end: cursor }, context: { diagnostics: document.diagnostics.slice(0, 20) } },
        );
      } else if (method === 'textDocument/formatting') Object.assign(params, { options: { tabSize: 2, insertSpaces: next() < 0.8 } });
      else if (method === 'textDocument/rangeFormatting')
        Object.assign(params, { range: { start: positionAt(document.text, 0), end: cursor }, options: { tabSize: 4, insertSpaces: true } });
      else if (method === 'textDocument/rename')
        Object.assign(params, { position: cursor, newName: pick(['Renamed', '', 'with space', "qu'ote", '\u00e9']) });
      else if (method === 'textDocument/selectionRange') Object.assign(params, { positions: [cursor] });
      else if (method === 'textDocument/inlayHint')
        Object.assign(params, {
          range:
            next() < 0.5
              ? { start: positionAt(document.text, 0), end: cursor }
              : { start: cursor, end: positionAt(document.text, document.text.length) },
        });
      else if (method === 'workspace/symbol') {
        // About no document: a query from the text near the cursor (often a name's first letters), or none.
        delete params.textDocument;
        Object.assign(params, {
          query: next() < 0.2 ? '' : document.text.slice(cursorOffset, cursorOffset + int(6)).replace(/[^\w ]/g, ''),
        });
      } else if (
        ![
          'textDocument/documentSymbol',
          'textDocument/diagnostic',
          'textDocument/foldingRange',
          'textDocument/documentLink',
          'textDocument/codeLens',
        ].includes(method)
      )
        Object.assign(params, { position: cursor });

      const started = process.hrtime.bigint();
      let response: ResponseMessage<unknown>;
      try {
        response = await client.request(method, params, DEADLINE_MS);
      } catch (error) {
        throw new Error(
          `${label}, edit ${edit} (seed ${seed}) of ${document.source}, ${method} at ${JSON.stringify(cursor)}: ${(error as Error).message}`,
        );
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (ms > stats.slowest.ms) stats.slowest = { method, ms };
      const counts = stats.requests.get(method) ?? {
        results: 0,
        nonEmpty: 0,
        errors: new Map<number, number>(),
        sample: new Map<number, string>(),
      };
      stats.requests.set(method, counts);
      stats.groupRequests.set(`${label} ${document.group}`, (stats.groupRequests.get(`${label} ${document.group}`) ?? 0) + 1);
      const at = `${label}, edit ${edit} (seed ${seed}) of ${document.source}, ${method} at ${JSON.stringify(cursor)}`;
      if (response.error) {
        assert.equal(typeof response.error.code, 'number', `${at}: an error without a numeric code: ${JSON.stringify(response.error)}`);
        assert.equal(typeof response.error.message, 'string', `${at}: an error without a message`);
        counts.errors.set(response.error.code, (counts.errors.get(response.error.code) ?? 0) + 1);
        if (!counts.sample.has(response.error.code)) counts.sample.set(response.error.code, response.error.message.slice(0, 120));
        // An internal error is a handler that threw; the allowed ones are what a correct server answers to a request it cannot serve.
        assert.ok(ALLOWED_ERRORS.has(response.error.code), `${at}: error ${response.error.code}: ${response.error.message.slice(0, 600)}`);
      } else {
        assert.ok('result' in response, `${at}: a response with neither result nor error`);
        counts.results++;
        const list = (response.result as { items?: unknown } | null)?.items ?? response.result;
        if (list !== null && !(Array.isArray(list) && list.length === 0)) counts.nonEmpty++;
        const wrong = answerProblems(method, params, response.result, document.uri, lineLengths(document.text));
        assert.deepEqual(
          wrong,
          [],
          `${at}: not a well-formed ${method} result, or a range outside the document (text: ${JSON.stringify(document.text.length > 3000 ? document.text.slice(0, 3000) + '…' : document.text)})`,
        );
        if (method === 'textDocument/diagnostic') document.diagnostics = (response.result as { items?: unknown[] }).items ?? [];
      }
      onPublish();

      // Push mode: every 50th edit waits for the diagnostics of the current version, so that validation
      // (debounced while edits come fast) really runs on the broken documents too.
      if (!pull && edit % 50 === 49 && document.publishedVersion !== document.version) {
        const version = document.version;
        await client
          .waitFor<{ uri: string; version?: number }>(
            (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === document.uri && n.params.version === version,
            DEADLINE_MS,
          )
          .catch((error: Error) => {
            throw new Error(
              `${label}, edit ${edit} (seed ${seed}) of ${document.source}: no diagnostics for version ${version}: ${error.message}`,
            );
          });
        onPublish();
      }
      assert.equal(client.exit, undefined, `${label}: the server exited after edit ${edit}: ${client.stderr}`);
      assert.deepEqual(problems, [], `${label}, after edit ${edit} (seed ${seed}) of ${document.source}, ${method}`);
    }
    console.log(`${label}: ${edits} edits in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    // Still alive and still answering at the end.
    const last = await client.request(
      'textDocument/hover',
      { textDocument: { uri: documents[0].uri }, position: { line: 0, character: 0 } },
      DEADLINE_MS,
    );
    assert.ok(last.error || 'result' in last);
    onPublish();
    assert.deepEqual(problems, [], `${label}: at the end`);
    assert.equal(client.exit, undefined);
  } finally {
    await client.stop();
  }
}

test(
  `LSP fuzz: ${EDITS} seeded random edits, each followed by a request; the server never exits, never fails a request, and answers each with its result type`,
  { timeout: 15 * 60 * 1000 },
  async () => {
    const stats: Stats = { edits: 0, requests: new Map(), slowest: { method: '', ms: 0 }, groupRequests: new Map() };
    const started = Date.now();
    // Half the edits to a client that pulls diagnostics, half to one that takes them pushed (as Neovim 0.7 does).
    const half = Math.ceil(EDITS / 2);
    const documents = documentsToUse();
    console.log(`documents: ${[...documents.groups].map(([group, names]) => `${group} ${names.length}`).join(', ')}`);
    await Promise.all([
      fuzzServer('pull', true, half, SEED, stats, documents),
      fuzzServer('push', false, EDITS - half, SEED + 1, stats, documents),
    ]);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(stats.edits, EDITS);
    console.log(
      `${stats.edits} edits and ${stats.edits} requests in ${seconds.toFixed(1)} s: ${(stats.edits / seconds).toFixed(0)} edits/s (two servers side by side, seed ${SEED}); slowest answer ${stats.slowest.ms.toFixed(0)} ms (${stats.slowest.method})`,
    );
    for (const [method, counts] of stats.requests) {
      const errors = [...counts.errors].map(([code, n]) => `${n} × error ${code} (e.g. "${counts.sample.get(code)}")`).join(', ');
      console.log(`  ${method.padEnd(32)} ${counts.results} results (${counts.nonEmpty} not empty)${errors ? `, ${errors}` : ''}`);
    }
    console.log(
      `  requests by document group: ${[...stats.groupRequests]
        .sort()
        .map(([group, n]) => `${group} ${n}`)
        .join(', ')}`,
    );
    // Each kind and dialect was edited and asked about in each server (not only opened), in a run long enough for it.
    if (EDITS >= 1000) {
      const untouched = ['pull', 'push'].flatMap((label) =>
        [...KINDS, ...DIALECTS].filter((group) => !stats.groupRequests.get(`${label} ${group}`)).map((group) => `${label} ${group}`),
      );
      assert.deepEqual(untouched, [], 'document groups no request was made on');
    }
  },
);

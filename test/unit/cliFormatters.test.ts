// The CLI's three output formats (text, JSON, SARIF) over hand-made results, in-process: each expected output is
// written out here by hand from docs/cli.md's rules (what counts as checked, skipped and not checked, when the
// summary may say ✔, what is escaped), never produced by the formatter's own helpers. The CLI process tests check
// the same through `policyset lint`; these let the `cli` mutation target run in about a second per mutant.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { formatJson, formatSarif, formatText, ruleHelp, summarize, untrusted } from '#server/cli/formatters';
import { shortMessage } from '#server/cli/messages';
import type { FileResult } from '#server/cli/lint/lintFile';

const CWD = path.resolve('/work/repo');
const at = (...parts: string[]) => path.join(CWD, ...parts);

type Severity = 1 | 2 | 3 | 4;
function diagnostic(severity: Severity, line: number, character: number, message: string, code: string, rule = 'some-rule') {
  return {
    source: 'policyset' as const,
    range: { start: { line, character }, end: { line, character: character + 3 } },
    severity,
    code,
    message,
    data: { rule, messageId: 'm' },
  };
}

function result(file: string, more: Partial<FileResult> = {}): FileResult {
  return { file, kind: 'policySetDefinition', diagnostics: [], skipped: false, internalErrors: [], identities: [], ...more } as FileResult;
}

const none = () => ({ builtIn: { noDefinitions: 0, notFound: 0 }, custom: { noDefinitions: 0, notFound: 0 } });

/** One file of each kind the summary counts apart. */
function mixed(): FileResult[] {
  return [
    result(at('sets', 'a.json'), {
      diagnostics: [
        diagnostic(1, 0, 4, 'Bad name \u001b[31mred\u001b[0m', 'PS1001'),
        diagnostic(2, 9, 0, 'Two\nlines', 'PS2002'),
        diagnostic(3, 10, 2, 'an info', 'PS3003'),
        diagnostic(4, 11, 12, 'a hint', 'PS4004'),
      ],
      identities: ['PS1001\u0000"x"\u00000', 'PS2002\u0000"y"\u00000', 'PS3003\u0000"z"\u00000', 'PS4004\u0000"w"\u00000'],
      unchecked: { builtIn: { noDefinitions: 2, notFound: 0 }, custom: { noDefinitions: 0, notFound: 1 } },
    }),
    result(at('other.json'), { kind: 'unknown', skipped: true }),
    result(at('tpl.json'), { kind: 'unknown', skipped: true, skipReason: 'not JSON (a \u0007 bell)' }),
    result(at('named.json'), { kind: 'unknown', skipped: true, notChecked: 'no set in it' }),
    result(at('clean.json')),
  ];
}

describe('summarize', () => {
  test('each file counted once: not checked before skipped before checked; an unreadable file is none of them', () => {
    assert.deepEqual(summarize([...mixed(), result(at('gone.json'), { error: 'cannot read' })]), {
      files: 6,
      checked: 2,
      skipped: 2,
      notChecked: 1,
      errors: 1,
      warnings: 1,
      infos: 1,
      hints: 1,
    });
  });
});

describe('text', () => {
  test('the whole report: files, notes, skipped, summary and what was not checked, nothing raw from a file', () => {
    const expected = [
      'sets/a.json',
      '  1:5       error    Bad name \\u001b[31mred\\u001b[0m  PS1001',
      '  10:1      warning  Two\\u000alines  PS2002',
      '  11:3      info     an info  PS3003',
      '  12:13     hint     a hint  PS4004',
      '',
      'note named.json: not checked: no set in it',
      'skipped tpl.json: not JSON (a \\u0007 bell)',
      '',
      '✖ 1 error, 1 warning, 1 info, 1 hint in 2 policy documents (1 other JSON file skipped, 1 file skipped as not JSON); 1 named file not checked',
      '⚠ 3 references not checked against their definitions: 2 to built-in definitions (2 with none loaded: --definitions <index>, see policyset definitions index); 1 to custom definitions (1 not found among those loaded)',
      '',
    ].join('\n');
    assert.equal(formatText(mixed(), CWD, false), expected);
  });

  test('the mark: ✔ only when everything named was checked and nothing failed', () => {
    const last = (text: string) => text.trimEnd().split('\n').at(-1);
    assert.equal(last(formatText([result(at('a.json'))], CWD, false)), '✔ 0 errors, 0 warnings in 1 policy document');
    assert.equal(
      last(formatText([result(at('a.json'), { diagnostics: [diagnostic(2, 0, 0, 'w', 'PS2')] })], CWD, false)),
      '✔ 0 errors, 1 warning in 1 policy document',
    );
    assert.equal(
      last(formatText([result(at('a.json')), result(at('b.json'), { skipped: true, notChecked: 'why' })], CWD, false)),
      '⚠ 0 errors, 0 warnings in 1 policy document; 1 named file not checked',
    );
    assert.equal(
      last(
        formatText(
          [
            result(at('a.json')),
            result(at('b.json'), { skipped: true, notChecked: 'x' }),
            result(at('c.json'), { skipped: true, notChecked: 'y' }),
          ],
          CWD,
          false,
        ),
      ),
      '⚠ 0 errors, 0 warnings in 1 policy document; 2 named files not checked',
    );
    assert.equal(
      last(formatText([result(at('a.json'))], CWD, false, ['cannot read x'])),
      '✖ 0 errors, 0 warnings in 1 policy document; 1 input could not be checked',
    );
    assert.equal(
      last(formatText([result(at('a.json'))], CWD, false, ['x', 'y'])),
      '✖ 0 errors, 0 warnings in 1 policy document; 2 inputs could not be checked',
    );
    assert.equal(
      last(formatText([result(at('a.json'))], CWD, false, [], undefined, 'too many warnings (3, at most 2)')),
      '✖ 0 errors, 0 warnings in 1 policy document; too many warnings (3, at most 2)',
    );
    assert.equal(
      last(
        formatText([result(at('a.json'), { diagnostics: [diagnostic(1, 0, 0, 'e', 'PS1'), diagnostic(1, 1, 0, 'e', 'PS1')] })], CWD, false),
      ),
      '✖ 2 errors, 0 warnings in 1 policy document',
    );
    assert.equal(last(formatText([], CWD, false)), '✔ 0 errors, 0 warnings in 0 policy documents');
    const hints = [diagnostic(4, 0, 0, 'h', 'PS4'), diagnostic(4, 1, 0, 'h', 'PS4')];
    assert.equal(
      last(formatText([result(at('a.json'), { diagnostics: hints })], CWD, false)),
      '✔ 0 errors, 0 warnings, 2 hints in 1 policy document',
    );
    assert.equal(
      last(
        formatText(
          [
            result(at('a.json')),
            result(at('b.json'), { kind: 'unknown', skipped: true }),
            result(at('c.json'), { kind: 'unknown', skipped: true }),
          ],
          CWD,
          false,
        ),
      ),
      '✔ 0 errors, 0 warnings in 1 policy document (2 other JSON files skipped)',
    );
    assert.equal(
      last(
        formatText(
          [
            result(at('a.json')),
            result(at('b.txt'), { skipped: true, skipReason: 'r' }),
            result(at('c.txt'), { skipped: true, skipReason: 'r' }),
          ],
          CWD,
          false,
        ),
      ),
      '✔ 0 errors, 0 warnings in 1 policy document (2 files skipped as not JSON)',
    );
  });

  test('deployment plans are counted as plans, and only when every checked file is one', () => {
    const plan = (name: string) => result(at(name), { kind: 'deploymentPlan' });
    const last = (results: FileResult[]) => formatText(results, CWD, false).trimEnd().split('\n').at(-1);
    assert.equal(last([plan('p.json')]), '✔ 0 errors, 0 warnings in 1 deployment plan');
    assert.equal(
      last([plan('p.json'), plan('q.json'), result(at('x.json'), { kind: 'unknown', skipped: true })]),
      '✔ 0 errors, 0 warnings in 2 deployment plans (1 other JSON file skipped)',
    );
    assert.equal(last([plan('p.json'), result(at('gone.json'), { error: 'cannot read' })]), '✔ 0 errors, 0 warnings in 1 deployment plan');
    assert.equal(last([plan('p.json'), result(at('s.json'))]), '✔ 0 errors, 0 warnings in 2 policy documents');
    assert.equal(
      last([result(at('x.json'), { kind: 'unknown', skipped: true })]),
      '✔ 0 errors, 0 warnings in 0 policy documents (1 other JSON file skipped)',
    );
  });

  test('--fix and --fix-dry-run say how many problems in how many files', () => {
    const fixed = (n: number) => ({ fixes: Array.from({ length: n }, () => ({})), output: '' });
    const results = [
      result(at('a.json'), { fix: fixed(2) } as never),
      result(at('b.json'), { fix: fixed(1) } as never),
      result(at('c.json'), { fix: fixed(0) } as never),
    ];
    const lines = formatText(results, CWD, false, [], { dryRun: false }).trimEnd().split('\n');
    assert.equal(lines.at(-1), '3 problems fixed in 2 files');
    const dry = formatText([result(at('a.json'), { fix: fixed(1) } as never)], CWD, false, [], { dryRun: true })
      .trimEnd()
      .split('\n');
    assert.equal(dry.at(-1), '1 problem would be fixed in 1 file (--fix-dry-run: nothing written)');
    assert.equal(formatText(results, CWD, false).includes('fixed'), false, 'nothing said of fixes without --fix');
  });

  test('colours: only around the program’s own words, never inside a file’s text', () => {
    const text = formatText(mixed().slice(0, 1), CWD, true);
    assert.equal(text.split('\n')[0], '\u001b[4msets/a.json\u001b[0m');
    assert.equal(
      text.split('\n')[1],
      '  1:5       \u001b[31merror  \u001b[0m  Bad name \\u001b[31mred\\u001b[0m  \u001b[2mPS1001\u001b[0m',
    );
    assert.equal(text.split('\n')[2], '  10:1      \u001b[33mwarning\u001b[0m  Two\\u000alines  \u001b[2mPS2002\u001b[0m');
    assert.equal(text.split('\n')[3], '  11:3      \u001b[36minfo   \u001b[0m  an info  \u001b[2mPS3003\u001b[0m');
    assert.equal(text.split('\n')[4], '  12:13     \u001b[2mhint   \u001b[0m  a hint  \u001b[2mPS4004\u001b[0m');
    assert.ok(text.includes('\u001b[31m✖\u001b[0m 1 error'), text);
    assert.ok(formatText([result(at('a.json'))], CWD, true).startsWith('\u001b[32m✔\u001b[0m 0 errors'));
    assert.ok(formatText([result(at('b.json'), { skipped: true, notChecked: 'w' })], CWD, true).includes('\u001b[33m⚠\u001b[0m 0 errors'));
    assert.ok(
      formatText([result(at('b.json'), { skipped: true, notChecked: 'w' })], CWD, true).startsWith('\u001b[36mnote\u001b[0m b.json'),
    );
    assert.ok(
      formatText([result(at('b.txt'), { skipped: true, skipReason: 'w' })], CWD, true).startsWith('\u001b[2mskipped\u001b[0m b.txt'),
    );
    assert.ok(
      formatText([result(at('a.json'), { unchecked: { ...none(), custom: { noDefinitions: 1, notFound: 0 } } })], CWD, true).includes(
        '\u001b[33m⚠\u001b[0m 1 reference not checked against its definition',
      ),
    );
  });

  test('a file name from the disk is escaped like any other text, and the folder itself is named by its path', () => {
    const out = formatText([result(at('bad\u001b]0;x\u0007.json'), { diagnostics: [diagnostic(1, 0, 0, 'm', 'PS1')] })], CWD, false);
    assert.equal(out.split('\n')[0], 'bad\\u001b]0;x\\u0007.json');
    const self = formatText([result(CWD, { diagnostics: [diagnostic(1, 0, 0, 'm', 'PS1')] })], CWD, false);
    assert.equal(self.split('\n')[0], CWD);
  });
});

describe('JSON', () => {
  test('the whole document: summary, input errors, not checked, skipped, files with their diagnostics', () => {
    const parsed = JSON.parse(formatJson(mixed(), CWD, ['cannot read x']));
    assert.deepEqual(parsed.summary, {
      files: 5,
      checked: 2,
      skipped: 2,
      notChecked: 1,
      errors: 1,
      warnings: 1,
      infos: 1,
      hints: 1,
      inputErrors: 1,
    });
    assert.deepEqual(parsed.inputErrors, ['cannot read x']);
    assert.deepEqual(parsed.notChecked, [{ file: 'named.json', reason: 'no set in it' }]);
    assert.deepEqual(parsed.skipped, [{ file: 'tpl.json', reason: 'not JSON (a \u0007 bell)' }]);
    assert.deepEqual(parsed.uncheckedReferences, {
      total: 3,
      builtIn: { noDefinitions: 2, notFound: 0 },
      custom: { noDefinitions: 0, notFound: 1 },
    });
    assert.deepEqual(
      parsed.files.map((f: { file: string; kind: string }) => [f.file, f.kind]),
      [
        [path.join('sets', 'a.json'), 'policySetDefinition'],
        ['clean.json', 'policySetDefinition'],
      ],
    );
    assert.deepEqual(parsed.files[0].diagnostics[1], {
      code: 'PS2002',
      rule: 'some-rule',
      severity: 'warning',
      message: 'Two\nlines',
      line: 10,
      column: 1,
      endLine: 10,
      endColumn: 4,
      range: { start: { line: 9, character: 0 }, end: { line: 9, character: 3 } },
      data: { rule: 'some-rule', messageId: 'm' },
    });
    assert.deepEqual(
      parsed.files[0].diagnostics.map((d: { severity: string }) => d.severity),
      ['error', 'warning', 'info', 'hint'],
    );
    assert.equal(parsed.files[1].fixed, undefined);
    const text = formatJson(mixed(), CWD);
    assert.ok(text.endsWith('}\n') && text.startsWith('{\n  "summary"'), 'pretty-printed, one line break at the end');
    assert.equal(JSON.parse(text).summary.inputErrors, 0);
  });

  test('with --fix: the counts, and for each file that changed its fixes and fixed text; why another was not fixed', () => {
    const fix = {
      fixes: [
        {
          code: 'PS1',
          rule: 'r',
          kind: 'quickfix',
          title: 't',
          message: 'm',
          range: { start: { line: 2, character: 4 }, end: { line: 2, character: 6 } },
          pass: 1,
        },
      ],
      output: '{"fixed":true}',
    };
    const results = [
      result(at('a.json'), { fix } as never),
      result(at('b.json'), { notFixed: 'not UTF-8' }),
      result(at('c.json'), { fix: { fixes: [], output: 'x' } } as never),
    ];
    const parsed = JSON.parse(formatJson(results, CWD, [], { dryRun: true }));
    assert.deepEqual(parsed.summary, {
      files: 3,
      checked: 3,
      skipped: 0,
      notChecked: 0,
      errors: 0,
      warnings: 0,
      infos: 0,
      hints: 0,
      inputErrors: 0,
      fixed: 1,
      fixedFiles: 1,
      dryRun: true,
    });
    assert.deepEqual(parsed.files[0].fixed, [
      { code: 'PS1', rule: 'r', kind: 'quickfix', title: 't', message: 'm', line: 3, column: 5, pass: 1 },
    ]);
    assert.equal(parsed.files[0].output, '{"fixed":true}');
    assert.equal(parsed.files[1].notFixed, 'not UTF-8');
    assert.equal('output' in parsed.files[2], false, 'a file no fix changed has no output');
    const withoutFix = JSON.parse(formatJson(results, CWD));
    assert.equal('fixed' in withoutFix.summary, false);
    assert.equal('notFixed' in withoutFix.files[1], false);
    assert.equal('output' in withoutFix.files[0], false);
  });
});

describe('SARIF', () => {
  test('results, levels, locations relative to the source root, fingerprints without line numbers, notifications', () => {
    const log = JSON.parse(formatSarif(mixed(), CWD, {}, '9.9.9', undefined, ['cannot read x']));
    assert.equal(log.version, '2.1.0');
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'policyset');
    assert.equal(run.tool.driver.version, '9.9.9');
    assert.equal(run.columnKind, 'utf16CodeUnits');
    assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, `file://${CWD}/`);
    assert.deepEqual(
      run.results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level]),
      [
        ['PS1001', 'error'],
        ['PS2002', 'warning'],
        ['PS3003', 'note'],
        ['PS4004', 'note'],
      ],
    );
    assert.deepEqual(run.results[0].locations[0].physicalLocation, {
      artifactLocation: { uri: 'sets/a.json', uriBaseId: '%SRCROOT%' },
      region: { startLine: 1, startColumn: 5, endLine: 1, endColumn: 8 },
    });
    // Each result points at its rule in the list; a code that is no rule has no index.
    for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
    const unknown = JSON.parse(
      formatSarif([result(at('a.json'), { diagnostics: [diagnostic(1, 0, 0, 'm', 'PS0000')], identities: ['i'] })], CWD, {}, '1'),
    );
    assert.equal(unknown.runs[0].results[0].ruleIndex, undefined);
    assert.deepEqual(
      run.results.map((r: { message: { text: string } }) => r.message.text),
      ['Bad name \u001b[31mred\u001b[0m', 'Two\nlines', 'an info', 'a hint'],
      'SARIF carries the message as it is (JSON escapes it)',
    );
    const fingerprints = run.results.map(
      (r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['policysetFingerprint/v1'],
    );
    assert.equal(new Set(fingerprints).size, 4);
    for (const f of fingerprints) assert.match(f, /^[0-9a-f]{64}$/);
    // A fingerprint is the SHA-256 of the file (relative, '/') and the diagnostic's identity; without one, its code.
    assert.equal(fingerprints[0], createHash('sha256').update('sets/a.json\u0000PS1001\u0000"x"\u00000').digest('hex'));
    const twins = [diagnostic(1, 0, 0, 'm', 'PS1001'), diagnostic(1, 5, 0, 'm', 'PS1001')];
    const twinRun = JSON.parse(formatSarif([result(at('t.json'), { diagnostics: twins, identities: ['one'] })], CWD, {}, '1')).runs[0];
    const twinPrints = twinRun.results.map(
      (r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['policysetFingerprint/v1'],
    );
    assert.deepEqual(twinPrints, [
      createHash('sha256').update('t.json\u0000one').digest('hex'),
      createHash('sha256').update('t.json\u0000PS1001').digest('hex'),
    ]);
    // Lines moved: the same fingerprints (they are made of the file and the identity, not the place).
    const moved = mixed();
    moved[0].diagnostics = moved[0].diagnostics.map((d) => ({
      ...d,
      range: { start: { line: d.range.start.line + 5, character: 0 }, end: { line: d.range.end.line + 5, character: 1 } },
    }));
    const movedRun = JSON.parse(formatSarif(moved, CWD, {}, '9.9.9')).runs[0];
    assert.deepEqual(
      movedRun.results.map((r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['policysetFingerprint/v1']),
      fingerprints,
    );
    // Another file: other fingerprints.
    const renamed = mixed();
    renamed[0].file = at('sets', 'b.json');
    const renamedRun = JSON.parse(formatSarif(renamed, CWD, {}, '9.9.9')).runs[0];
    assert.notEqual(renamedRun.results[0].partialFingerprints['policysetFingerprint/v1'], fingerprints[0]);

    const invocation = run.invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.deepEqual(
      invocation.toolExecutionNotifications.map((n: { level: string; message: { text: string } }) => [n.level, n.message.text]),
      [
        ['error', 'cannot read x'],
        ['note', 'named.json: not checked: no set in it'],
        ['note', 'tpl.json: skipped: not JSON (a \u0007 bell)'],
        [
          'warning',
          '3 references not checked against their definitions: 2 to built-in definitions (2 with none loaded: --definitions <index>, see policyset definitions index); 1 to custom definitions (1 not found among those loaded)',
        ],
      ],
    );
    assert.deepEqual(invocation.toolExecutionNotifications[3].descriptor, { id: 'unchecked-references' });
    assert.deepEqual(invocation.toolExecutionNotifications[3].properties.uncheckedReferences, {
      total: 3,
      builtIn: { noDefinitions: 2, notFound: 0 },
      custom: { noDefinitions: 0, notFound: 1 },
    });
    assert.equal(JSON.parse(formatSarif([result(at('a.json'))], CWD, {}, '1.0.0')).runs[0].invocations[0].executionSuccessful, true);
    assert.deepEqual(
      JSON.parse(formatSarif([result(at('a.json'))], CWD, {}, '1.0.0')).runs[0].invocations[0].toolExecutionNotifications,
      [],
    );
  });

  test('rules: every rule with its page, the configured level, a file outside the root by its own address', () => {
    const log = JSON.parse(
      formatSarif(
        [result(path.resolve(CWD, '..', 'outside.json'), { diagnostics: [diagnostic(1, 0, 0, 'm', 'PS1002')], identities: ['i'] })],
        CWD,
        { 'duplicate-reference-id': 'off', PS1002: 'warning' },
        '1.0.0',
        'https://example.test/rules/',
      ),
    );
    const run = log.runs[0];
    const byName = Object.fromEntries(run.tool.driver.rules.map((r: { name: string }) => [r.name, r]));
    const rule = run.tool.driver.rules.find((r: { id: string }) => r.id === 'PS1002');
    assert.ok(rule, 'PS1002 is a rule');
    // The rule's page and its first sentence, as docs/rules writes them.
    assert.equal(rule.name, 'duplicate-key');
    assert.equal(rule.shortDescription.text, 'An object has the same key twice.');
    assert.equal(rule.help.markdown, fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'rules', 'duplicate-key.md'), 'utf8'));
    assert.equal(rule.help.text, rule.fullDescription.text);
    assert.deepEqual(rule.properties, { tags: ['policy-set'] });
    assert.equal(ruleHelp('no-such-rule'), undefined, 'a rule without a page has no help');
    assert.equal(rule.helpUri, `https://example.test/rules/${rule.name}.md`);
    assert.equal(rule.defaultConfiguration.level, 'warning');
    assert.equal(byName['duplicate-reference-id'].defaultConfiguration.level, 'none');
    assert.equal(rule.shortDescription.text.endsWith('.') || !rule.fullDescription.text.includes('. '), true);
    assert.ok(rule.fullDescription.text.startsWith(rule.shortDescription.text));
    assert.equal(run.results[0].ruleIndex, run.tool.driver.rules.indexOf(rule));
    assert.deepEqual(run.results[0].locations[0].physicalLocation.artifactLocation, {
      uri: `file://${path.resolve(CWD, '..', 'outside.json')}`,
    });
    const local = JSON.parse(formatSarif([], CWD, {}, '1.0.0')).runs[0].tool.driver.rules[0];
    assert.match(local.helpUri, /^file:\/\/.*\/docs\/rules\/[a-z-]+\.md$/);
  });

  test('related places: each with its own file and region', () => {
    const d = {
      ...diagnostic(1, 0, 0, 'm', 'PS1'),
      relatedInformation: [
        {
          location: { uri: at('other dir', 'x.json'), range: { start: { line: 3, character: 1 }, end: { line: 3, character: 2 } } },
          message: 'here',
        },
      ],
    };
    const run = JSON.parse(formatSarif([result(at('a.json'), { diagnostics: [d], identities: ['i'] })], CWD, {}, '1')).runs[0];
    assert.deepEqual(run.results[0].relatedLocations, [
      {
        id: 0,
        message: { text: 'here' },
        physicalLocation: {
          artifactLocation: { uri: 'other%20dir/x.json', uriBaseId: '%SRCROOT%' },
          region: { startLine: 4, startColumn: 2, endLine: 4, endColumn: 3 },
        },
      },
    ]);
  });
});

describe('messages', () => {
  test('one line, long runs cut with their length, control characters escaped', () => {
    assert.equal(shortMessage('a\r\n  b\n\nc'), 'a b c');
    assert.equal(shortMessage('a\nb\rc'), 'a b c');
    const long = 'word '.repeat(3000).trim();
    assert.equal(shortMessage(long), long, 'a long message of short words is kept whole');
    const run = 'x'.repeat(130);
    assert.equal(shortMessage(`see ${run} here`), `see ${'x'.repeat(60)}… (130 characters) here`);
    assert.equal(shortMessage(`'${'y'.repeat(119)}'`), `'${'y'.repeat(119)}'`, 'a run under 120 is kept');
    assert.equal(shortMessage('z'.repeat(120)), `${'z'.repeat(60)}… (120 characters)`);
    assert.equal(shortMessage('q'.repeat(1234)), `${'q'.repeat(60)}… (1,234 characters)`);
    assert.equal(shortMessage('bell\u0007 esc\u001b[2J'), 'bell\\u0007 esc\\u001b[2J');
    assert.equal(untrusted('a\u009bb'), 'a\\u009bb');
    assert.equal(untrusted('x'.repeat(5000)).length, 5000, 'no length cap');
  });
});

// The fixing loop of `lint --fix` and `source.fixAll.policyset` (service/features/fixAll.ts): only safe fixes,
// in passes, disjoint, bounded, layout kept, idempotent; and the rules' marks it relies on.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, RULES, FIX_KINDS } from '#service';
import { fixAllText, MAX_FIX_PASSES } from '#features';
import { REPO_ROOT } from '../support/corpus';
import { DEF, a1 } from '../support/ruleTester';
import { withCatalog, ref, LOCATIONS } from '../support/ruleDocuments/definitions';

const SET = `{
  "properties": {
    "displayName": "x",
    "policyType": "Custom",
    "version": "v1.2",
    "parameters": {
      "storageEffect": { "type": "string", "defaultValue": "Audit" },
      "keyVaultEffect": { "type": "String", "defaultValue": "Audit" },
      "unused": { "type": "String" }
    },
    "policyDefinitionGroups": [{ "name": "Storage" }],
    "policyDefinitions": [
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/abc",
        "definitionVersion": "1.*",
        "groupNames": ["Storag", "Netwrk"],
        "parameters": { "effect": { "value": "[parameters('storageEfect')]" }, "e2": { "value": "[parameters('keyVaultEffects')]" }, "e3": { "value": "[parameters('effectX')]" } }
      },
      {
        "policyDefinitionReferenceId": "abc",
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/abc",
        "parameters": { "effect": { "value": "[parameters('StorageEffect')]" } }
      }
    ]
  }
}
`;

const codes = (text: string) => validateText(text).diagnostics.map((d) => d.code);
/** Splices offset edits into a text (the test's own, not the service's). */
function splice(text: string, edits: Array<{ offset: number; length: number; content: string }>): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.content + out.slice(e.offset + e.length);
  return out;
}

describe('fixAll', () => {
  test('applies the safe fixes and leaves what needs a choice', () => {
    const fixed = fixAllText(SET);
    const out = fixed.output;
    // Safe: version normalised, type casing, a reference ID added, definitionVersion, a group and two parameters misspelt with one close match, a reference's casing.
    assert.match(out, /"version": "1\.2\.0"/);
    assert.match(out, /"storageEffect": \{ "type": "String"/);
    assert.match(out, /"policyDefinitionReferenceId": "abc_\d"/);
    assert.match(out, /"definitionVersion": "1\.\*\.\*"/);
    assert.match(out, /\["Storage", "Netwrk"\]/);
    assert.equal(out.match(/\[parameters\('storageEffect'\)\]/g)?.length, 2);
    assert.match(out, /\[parameters\('keyVaultEffect'\)\]/);
    // Not safe: an unused parameter is kept, a group or parameter with no close match is not declared.
    assert.match(out, /"unused": \{ "type": "String" \}/);
    assert.doesNotMatch(out, /"name": "Netwrk"/);
    assert.doesNotMatch(out, /"effectX": \{/);
    assert.deepEqual(codes(out).sort(), ['PS5001', 'PS7001', 'PS7003'].sort());
    assert.deepEqual(fixed.result.diagnostics.map((d) => d.code).sort(), codes(out).sort());
    // Eight fixes; a fixed use also ends its parameter's and group's "unused" (PS7003, PS5003): ten problems fewer.
    assert.deepEqual(fixed.fixes.map((f) => f.code).sort(), [
      'PS2006',
      'PS3002',
      'PS3003',
      'PS4002',
      'PS5001',
      'PS7001',
      'PS7001',
      'PS7002',
    ]);
    assert.equal(codes(SET).length - codes(out).length, 10);
    assert.ok(fixed.fixes.every((f) => FIX_KINDS.includes(f.kind)));
  });

  test('PS7001: a misspelling with two close declared parameters is left (a person chooses), with one it is changed', () => {
    const two = SET.replace('"unused": { "type": "String" }', '"storageEffects": { "type": "String" }');
    const fixed = fixAllText(two);
    assert.match(fixed.output, /\[parameters\('storageEfect'\)\]/);
    assert.ok(
      !fixed.fixes.some((f) => f.code === 'PS7001' && f.title.includes("'storageEffect'") && f.range.start.line === 26),
      'not changed with two candidates',
    );
    // And nothing was declared for it.
    assert.doesNotMatch(fixed.output, /"storageEfect"/);
  });

  test('the edits turn the text given into the output, and nothing else changed', () => {
    const fixed = fixAllText(SET);
    assert.ok(fixed.changed);
    assert.equal(splice(SET, fixed.edits), fixed.output);
    // Every edit is small: a name, a version, one inserted property.
    for (const edit of fixed.edits) assert.ok(edit.length < 40 && edit.content.length < 120, JSON.stringify(edit));
    // Ranges are on the given text: each fix's range starts where its diagnostic was.
    const before = validateText(SET).diagnostics;
    for (const f of fixed.fixes)
      assert.ok(
        before.some((d) => d.code === f.code && d.range.start.line === f.range.start.line),
        `${f.code} at ${f.range.start.line}`,
      );
  });

  test('is idempotent: a second run changes nothing', () => {
    const once = fixAllText(SET).output;
    const twice = fixAllText(once);
    assert.equal(twice.changed, false);
    assert.equal(twice.output, once);
    assert.deepEqual(twice.fixes, []);
    assert.deepEqual(twice.edits, []);
  });

  test('fixes that touch are applied in passes, each range on the text given', () => {
    const file = path.join(REPO_ROOT, 'examples', 'mistakes', 'contoso-baseline-version.json');
    const text = fs.readFileSync(file, 'utf8');
    const fixed = fixAllText(text, { assumePolicyDocument: true });
    assert.ok(fixed.passes >= 2, `passes: ${fixed.passes}`);
    assert.ok(fixed.fixes.some((f) => f.pass === 2));
    assert.equal(splice(text, fixed.edits), fixed.output);
    const before = validateText(text, { assumePolicyDocument: true }).diagnostics;
    for (const f of fixed.fixes.filter((x) => x.pass === 2))
      assert.ok(
        before.some((d) => d.code === f.code && d.range.start.line === f.range.start.line),
        `${f.code} at line ${f.range.start.line + 1}`,
      );
    // Bounded: one pass leaves the second pass's fixes.
    const one = fixAllText(text, { assumePolicyDocument: true, maxPasses: 1 });
    assert.equal(one.passes, 1);
    assert.ok(one.fixes.length < fixed.fixes.length);
    assert.equal(MAX_FIX_PASSES, 10);
  });

  test('--fix-type kinds and rules choose the fixes', () => {
    const casing = fixAllText(SET, { kinds: ['casing'] });
    assert.deepEqual([...new Set(casing.fixes.map((f) => f.kind))], ['casing']);
    assert.match(casing.output, /"version": "v1\.2"/);
    assert.match(casing.output, /"type": "String", "defaultValue": "Audit" \},\n      "keyVault/);
    const typos = fixAllText(SET, { rules: ['PS7001'] });
    assert.deepEqual([...new Set(typos.fixes.map((f) => f.code))], ['PS7001']);
  });

  test('a rule turned off is not fixed', () => {
    const fixed = fixAllText(SET, { severities: { PS3002: 'off' } });
    assert.match(fixed.output, /"version": "v1\.2"/);
  });

  test('keeps CRLF line endings and tabs', () => {
    const crlf = SET.replace(/\n/g, '\r\n').replace(/ {2}/g, '\t');
    const fixed = fixAllText(crlf);
    assert.ok(fixed.changed);
    assert.doesNotMatch(fixed.output.replace(/\r\n/g, ''), /[\r\n]/, 'only CRLF line endings');
    assert.match(fixed.output, /\r\n\t\t\t\t"policyDefinitionReferenceId": "abc_\d",\r\n/);
  });

  test('a document with a syntax error is fixed around it and gets no new one', () => {
    const broken = SET.replace('"displayName": "x",', '"displayName": "x",,');
    const fixed = fixAllText(broken);
    assert.equal(validateText(fixed.output).document.parsed.syntaxErrors.length, validateText(broken).document.parsed.syntaxErrors.length);
  });

  test('PS8001: a parameter passed with a typo is renamed to the one close parameter of the definition', () => {
    const text = ref(DEF.main, `"parameters": { ${LOCATIONS}, "efect": { "value": "Audit" } }`);
    const fixed = fixAllText(text, withCatalog);
    assert.deepEqual(
      fixed.fixes.map((f) => f.code),
      ['PS8001'],
    );
    assert.match(fixed.output, /"effect": \{ "value": "Audit" \}/);
    // Without the definitions the problem is not known, and nothing changes.
    assert.equal(fixAllText(text).changed, false);
  });

  test("repeated reference IDs fixed together get IDs of their own, in the document's order", () => {
    const member = (id: string) => `{ "policyDefinitionId": "${DEF.main}", "policyDefinitionReferenceId": "${id}" }`;
    const text = a1(`{ "policyDefinitions": [${member('x')}, ${member('x')}, ${member('X')}, ${member('x_2')}] }`);
    const fixed = fixAllText(text);
    assert.equal(fixed.passes, 1);
    assert.deepEqual(
      [...fixed.output.matchAll(/"policyDefinitionReferenceId": "([^"]*)"/g)].map((m) => m[1]),
      ['x', 'x_3', 'X_4', 'x_2'],
    );
    assert.ok(!fixed.result.diagnostics.some((d) => d.code === 'PS4001'));
  });

  test('a pass that would make the document worse is not applied, and is said (a fix with a bug)', () => {
    const rule = RULES.find((r) => r.meta.code === 'PS3002')!;
    const fix = rule.fix!;
    // A fix that breaks the JSON: it removes the closing brace of the document.
    rule.fix = (ctx) => fix(ctx).map((f) => ({ ...f, edits: [...f.edits, { offset: ctx.text.lastIndexOf('}'), length: 1, content: '' }] }));
    try {
      const fixed = fixAllText(SET);
      assert.equal(fixed.changed, false);
      assert.equal(fixed.output, SET);
      assert.equal(fixed.rejected?.pass, 1);
      assert.match(fixed.rejected!.reason, /syntax error/);
      assert.ok(fixed.rejected!.fixes.some((f) => f.startsWith('PS3002')));
    } finally {
      rule.fix = fix;
    }
    assert.equal(fixAllText(SET).rejected, undefined);
  });

  test('every rule with fixes says their kind, and every rule that says a kind has fixes', () => {
    for (const rule of RULES) assert.equal(!!rule.fix, !!rule.meta.fixable, rule.meta.name);
  });
});

// Quick fixes are carried by their rules (fix and fixAll beside check): the code actions find them through
// the rule of a diagnostic's code, and name no code of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RULES, validateText } from '#service';
import { getCodeActions } from '#features';
import { REPO_ROOT } from '../support/corpus';
import { a3, defId } from '../support/ruleTester';

test('the code actions name no rule code: no table of fixes by code to fall out of step with the rules', () => {
  const source = fs.readFileSync(path.join(REPO_ROOT, 'server', 'src', 'service', 'features', 'codeActions.ts'), 'utf8');
  assert.deepEqual(source.match(/PS\d{4}/g) ?? [], []);
});

test('a rule that fixes all of a kind also fixes one: fix-all is offered beside a single fix', () => {
  assert.deepEqual(
    RULES.filter((rule) => rule.fixAll && !rule.fix).map((rule) => rule.meta.name),
    [],
  );
  assert.ok(RULES.filter((rule) => rule.fix).length >= 19, 'the rules with a fix');
});

test("a diagnostic's fix comes from the rule of its code, whatever else the diagnostic says", () => {
  const text = a3(
    `{ "policyDefinitionGroups": [{ "name": "Network" }, { "name": "Unused" }], "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "groupNames": ["Network"] }] }`,
  );
  const result = validateText(text);
  const unused = result.diagnostics.find((d) => d.code === 'PS5003');
  assert.ok(unused, 'unused-group reports the group');
  const whole = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };
  const titles = (diagnostic: typeof unused) => getCodeActions(result.document, 'file:///s.json', [diagnostic], whole).map((a) => a.title);
  assert.deepEqual(titles(unused), ["Remove unused group 'Unused'"]);
  // The same range under the code of a rule without a fix, or of no rule, gets none: the code picks the rule.
  assert.deepEqual(titles({ ...unused, code: 'PS5002' }), [], 'duplicate-group-name: the group is not a repeat');
  assert.deepEqual(titles({ ...unused, code: 'PS1001' }), [], 'json-syntax has no fix');
  assert.deepEqual(titles({ ...unused, code: 'PS5O03' }), [], 'not a code');
});

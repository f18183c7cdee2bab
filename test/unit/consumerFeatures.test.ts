// Completion and hover of a set's parameters inside a consumer (service/features/consumerParameters.ts), on the
// real landing-zone assignment and the set it assigns (test/fixtures/consumers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePolicyDocument, DefinitionCatalog } from '#service';
import { getCompletions, doHover } from '#features';
import { parseDocumentText } from '#server/service/json/documentValue';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers', 'alz');
const assignment = fs.readFileSync(path.join(FIXTURES, 'Audit-UnusedResources.alz_policy_assignment.json'), 'utf8');
const catalog = new DefinitionCatalog();
catalog.addSetDocument(
  parseDocumentText(fs.readFileSync(path.join(FIXTURES, 'Audit-UnusedResourcesCostOptimization.alz_policy_set_definition.json'), 'utf8')),
  'set.json',
);

test("completion in an assignment's parameters offers the set's parameters it does not pass yet", async () => {
  // The assignment passes EffectDisks, EffectPublicIpAddresses and EffectServerFarms: the last one's key emptied.
  const text = assignment.replace('"EffectServerFarms"', '""');
  const offset = assignment.indexOf('"EffectServerFarms"') + 1;
  const list = await getCompletions(parsePolicyDocument(text, { model: false }), offset, { definitions: catalog });
  assert.deepEqual(
    list.items.map((i) => i.label),
    ['effectServerFarms'],
  );
  assert.deepEqual(
    list.items[0].textEdit && 'range' in list.items[0].textEdit ? list.items[0].textEdit.newText : undefined,
    '"effectServerFarms"',
  );
});

test('without the set known, no such items (the schema is asked as before)', async () => {
  const text = assignment.replace('"EffectServerFarms"', '""');
  const list = await getCompletions(parsePolicyDocument(text, { model: false }), assignment.indexOf('"EffectServerFarms"') + 1, {});
  assert.ok(!list.items.some((i) => i.label === 'effectServerFarms'));
});

test("hover on a passed parameter shows the set's declaration (type, default, allowed values)", async () => {
  const hover = await doHover(parsePolicyDocument(assignment), assignment.indexOf('"EffectDisks"') + 3, { definitions: catalog });
  const value = (hover?.contents as { value: string }).value;
  assert.match(value, /set parameter\*\* `effectDisks`: String, default `"Audit"`, one of `"Audit"`, `"Disabled"`/);
  assert.match(value, /of set Audit-UnusedResourcesCostOptimization/);
});

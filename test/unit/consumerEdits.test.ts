// Rename and find references from a set's parameter or member to its consumers (service/features/consumerEdits.ts):
// the real policy-as-code set and assignment (test/fixtures/consumers), and a landing-zone assignment of
// another set that must be left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePolicyDocument } from '#service';
import { rename, findReferences, prepareRename, type ConsumerDocument } from '#features';
import { REPO_ROOT } from '../support/corpus';
import { applyTextEdits } from '../support/textEdits';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers');
const SET_URI = 'file:///ws/policySetDefinitions/allowed-locations-initiative.jsonc';
const ASSIGNMENT_URI = 'file:///ws/policyAssignments/allowed-locations-assignments.jsonc';
const OTHER_URI = 'file:///ws/alz/Enforce-ALZ-Decomm.alz_policy_assignment.json';

const setText = fs.readFileSync(path.join(FIXTURES, 'epac/policySetDefinitions/allowed-locations-initiative.jsonc'), 'utf8');
const assignmentText = fs.readFileSync(path.join(FIXTURES, 'epac/policyAssignments/allowed-locations-assignments.jsonc'), 'utf8');
const texts: Record<string, string> = {
  [SET_URI]: setText,
  [ASSIGNMENT_URI]: assignmentText,
  [OTHER_URI]: fs.readFileSync(path.join(FIXTURES, 'alz/Enforce-ALZ-Decomm.alz_policy_assignment.json'), 'utf8'),
};
const consumers: ConsumerDocument[] = [ASSIGNMENT_URI, OTHER_URI].map((uri) => ({ uri, document: parsePolicyDocument(texts[uri]) }));
const set = parsePolicyDocument(setText);
const at = (needle: string) => setText.indexOf(needle) + 2;

function applied(edit: ReturnType<typeof rename>): Record<string, string> {
  assert.ok(!('error' in edit), JSON.stringify(edit));
  const out: Record<string, string> = {};
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) out[uri] = applyTextEdits(texts[uri], edits);
  return out;
}

test('renaming a set parameter edits its declaration, its uses and the assignment that passes it, and nothing else', () => {
  const edit = applied(rename(set, SET_URI, at('"AllowedLocations": {'), 'allowedRegions', consumers));
  assert.deepEqual(Object.keys(edit).sort(), [ASSIGNMENT_URI, SET_URI].sort());
  assert.equal(
    edit[SET_URI],
    setText
      .replace('"AllowedLocations": {', '"allowedRegions": {')
      .replaceAll("parameters('AllowedLocations')", "parameters('allowedRegions')"),
  );
  assert.equal(edit[ASSIGNMENT_URI], assignmentText.replace('"AllowedLocations"', '"allowedRegions"'));
});

test('from a use of the parameter inside the set too', () => {
  const edit = applied(rename(set, SET_URI, setText.indexOf("parameters('AllowedLocations')") + 13, 'regions', consumers));
  assert.equal(edit[ASSIGNMENT_URI], assignmentText.replace('"AllowedLocations"', '"regions"'));
});

test('without consumers, the set alone (as before)', () => {
  assert.deepEqual(Object.keys(applied(rename(set, SET_URI, at('"AllowedLocations": {'), 'x'))), [SET_URI]);
});

test('renaming a reference ID: the set, and consumers that name it (here none do)', () => {
  assert.ok(!('error' in prepareRename(set, at('"allowed-locations-resources"'))));
  const edit = applied(rename(set, SET_URI, at('"allowed-locations-resources"'), 'locations', consumers));
  assert.deepEqual(Object.keys(edit), [SET_URI]);
  assert.equal(edit[SET_URI], setText.replace('"allowed-locations-resources"', '"locations"'));
  const taken = rename(set, SET_URI, at('"allowed-locations-resources"'), 'Allowed-Locations-Resource-Groups', consumers);
  assert.ok('error' in taken);
});

test('a reference ID named by a non-compliance message is renamed there too', () => {
  const withMessage = assignmentText.replace(
    '"parameters": {',
    '"nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": "allowed-locations-resources" }],\n    "parameters": {',
  );
  assert.notEqual(withMessage, assignmentText);
  texts['file:///ws/with-message.jsonc'] = withMessage;
  const edit = applied(
    rename(set, SET_URI, at('"allowed-locations-resources"'), 'locations', [
      { uri: 'file:///ws/with-message.jsonc', document: parsePolicyDocument(withMessage) },
    ]),
  );
  assert.equal(
    edit['file:///ws/with-message.jsonc'],
    withMessage.replace('"policyDefinitionReferenceId": "allowed-locations-resources"', '"policyDefinitionReferenceId": "locations"'),
  );
});

test('find references from the set parameter lists the assignment key', () => {
  const locations = findReferences(set, SET_URI, at('"AllowedLocations": {'), true, consumers);
  const inAssignment = locations.filter((l) => l.uri === ASSIGNMENT_URI);
  assert.equal(inAssignment.length, 1);
  assert.equal(
    inAssignment[0].range.start.line,
    assignmentText.slice(0, assignmentText.indexOf('"AllowedLocations"')).split('\n').length - 1,
  );
  assert.equal(locations.filter((l) => l.uri === SET_URI).length, 3, 'the declaration and its two uses');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '#service';

test('an undefined group is reported on its line with PS5001', () => {
  const text = `{
  "properties": {
    "policyDefinitionGroups": [{ "name": "a" }],
    "policyDefinitions": [
      { "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/x", "groupNames": ["b"] }
    ]
  }
}`;
  const result = validateText(text);
  const diagnostic = result.diagnostics.find((d) => d.code === 'PS5001');
  assert.ok(diagnostic, JSON.stringify(result.diagnostics));
  assert.equal(diagnostic.range.start.line, 4);
  assert.equal(text.split('\n')[4].slice(diagnostic.range.start.character, diagnostic.range.end.character), '"b"');
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DefinitionCatalog } from '#service';

const definition = (name: string, parameters: Record<string, object>) => ({
  name,
  properties: { displayName: name, policyRule: { if: {}, then: { effect: 'audit' } }, parameters },
});
const set = (name: string, groups: string[]) => ({
  name,
  properties: {
    displayName: name,
    policyDefinitions: [{ policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/d0' }],
    policyDefinitionGroups: groups.map((g) => ({ name: g })),
  },
});

function catalog(parameters: Record<string, object>, groups: string[]): DefinitionCatalog {
  const made = new DefinitionCatalog();
  made.addDefinitionDocument(definition('def-a', parameters), '/w/def-a.json');
  made.addSetDocument(set('set-a', groups), '/w/set-a.json');
  return made;
}

describe('DefinitionCatalog.fingerprint: what the rules read of the known definitions', () => {
  test('equal for equal content, whatever objects hold it; different when a parameter, a group or a member changes', () => {
    const base = catalog({ effect: { type: 'String' } }, ['g1']);
    assert.equal(base.fingerprint(), catalog({ effect: { type: 'String' } }, ['g1']).fingerprint());
    assert.equal(base.fingerprint(), base.clone().fingerprint());
    assert.notEqual(base.fingerprint(), catalog({ effect: { type: 'String' }, extra: { type: 'Integer' } }, ['g1']).fingerprint());
    assert.notEqual(base.fingerprint(), catalog({ effect: { type: 'Integer' } }, ['g1']).fingerprint());
    assert.notEqual(base.fingerprint(), catalog({ effect: { type: 'String' } }, ['g1', 'g2']).fingerprint());
    const more = base.clone();
    more.addSetDocument(set('set-b', []), '/w/set-b.json');
    assert.notEqual(base.fingerprint(), more.fingerprint());
  });
});

// The template functions of the evaluator against the examples of their documentation pages: the policy
// rule's "Policy functions" (https://learn.microsoft.com/en-us/azure/governance/policy/concepts/definition-structure-policy-rule#policy-functions)
// and the template functions reference (https://learn.microsoft.com/en-us/azure/azure-resource-manager/templates/template-functions-string,
// -array, -numeric, -logical, -comparison, -object). Expected values are the pages' own results, or worked by hand.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateValue } from '#server/service/evaluate/expression';
import { functionsFor, type Scope } from '#server/service/evaluate/scope';
import { Unknown, type EvaluationContext, type Json, type JsonObject } from '#server/service/evaluate/types';

function scope(
  context: EvaluationContext = {},
  parameters: Record<string, Json> = {},
  resource: JsonObject = {
    type: 'Microsoft.Storage/storageAccounts',
    name: 'acct',
    location: 'westeurope',
    properties: { minimumTlsVersion: 'TLS1_2' },
  },
): Scope {
  return {
    resource,
    context,
    parameters: new Map(Object.entries(parameters).map(([k, v]) => [k.toLowerCase(), v])),
    policy: { assignmentId: '/a/1', definitionId: '/d/1', setDefinitionId: '/s/1', definitionReferenceId: 'ref1' },
    frames: [],
  };
}
const ev = (expression: string, s: Scope = scope()) => evaluateValue(expression, functionsFor(s));
const unknown = (expression: string, pattern: RegExp, s: Scope = scope()) =>
  assert.throws(
    () => ev(expression, s),
    (e: unknown) => e instanceof Unknown && pattern.test((e as Error).message),
  );

describe('string functions (template-functions-string)', () => {
  test('concat of strings and of arrays', () => {
    assert.equal(ev("[concat('prefix', '-', 'suffix')]"), 'prefix-suffix');
    assert.deepEqual(ev("[concat(createArray('1-1', '1-2', '1-3'), createArray('2-1', '2-2'))]"), ['1-1', '1-2', '1-3', '2-1', '2-2']);
  });
  test("padLeft('123', 10, '0') is '0000000123'", () => assert.equal(ev("[padLeft('123', 10, '0')]"), '0000000123'));
  test("base64('one, two, three') and back", () => {
    assert.equal(ev("[base64('one, two, three')]"), 'b25lLCB0d28sIHRocmVl');
    assert.equal(ev("[base64ToString('b25lLCB0d28sIHRocmVl')]"), 'one, two, three');
  });
  test('split by one delimiter and by an array of them', () => {
    assert.deepEqual(ev("[split('one,two,three', ',')]"), ['one', 'two', 'three']);
    assert.deepEqual(ev("[split('one;two,three', createArray(',', ';'))]"), ['one', 'two', 'three']);
  });
  test('substring, replace, trim, toUpper, toLower', () => {
    assert.equal(ev("[substring('one two three', 4, 3)]"), 'two');
    unknown("[substring('one', 2, 5)]", /outside/);
    assert.equal(ev("[replace('123-123-1234', '-', '')]"), '1231231234');
    assert.equal(ev("[replace('123-123-1234', '1234', 'xxxx')]"), '123-123-xxxx');
    assert.equal(ev("[trim('    one two three   ')]"), 'one two three');
    assert.equal(ev("[toUpper('One Two Three')]"), 'ONE TWO THREE');
    assert.equal(ev("[toLower('One Two Three')]"), 'one two three');
  });
  test('startsWith, endsWith, indexOf, lastIndexOf ignore case', () => {
    assert.equal(ev("[startsWith('abcdef', 'ab')]"), true);
    assert.equal(ev("[startsWith('abcdef', 'A')]"), true);
    assert.equal(ev("[startsWith('abcdef', 'e')]"), false);
    assert.equal(ev("[endsWith('abcdef', 'F')]"), true);
    assert.equal(ev("[endsWith('abcdef', 'e')]"), false);
    assert.equal(ev("[indexOf('test', 't')]"), 0);
    assert.equal(ev("[indexOf('abcdef', 'CD')]"), 2);
    assert.equal(ev("[indexOf('abcdef', 'z')]"), -1);
    assert.equal(ev("[lastIndexOf('test', 't')]"), 3);
    assert.equal(ev("[lastIndexOf('abcdef', 'AB')]"), 0);
  });
  test('a string beginning with [[ is the literal, without one bracket', () => assert.equal(ev("[[parameters('x')]"), "[parameters('x')]"));
});

describe('array and object functions (template-functions-array, -object)', () => {
  test('first, last, length, empty, contains', () => {
    assert.equal(ev("[first('One Two Three')]"), 'O');
    assert.equal(ev("[first(createArray('one', 'two', 'three'))]"), 'one');
    assert.equal(ev("[last('One Two Three')]"), 'e');
    assert.equal(ev("[last(createArray('one', 'two', 'three'))]"), 'three');
    assert.equal(ev("[length('One Two Three')]"), 13);
    assert.equal(ev("[length(createArray('a', 'b', 'c'))]"), 3);
    assert.equal(ev("[length(createObject('a', 1, 'b', 2))]"), 2);
    assert.equal(ev("[empty('')]"), true);
    assert.equal(ev('[empty(createArray())]'), true);
    assert.equal(ev('[empty(createObject())]'), true);
    assert.equal(ev("[contains('OneTwoThree', 'e')]"), true);
    assert.equal(ev("[contains('OneTwoThree', 'z')]"), false);
    assert.equal(ev("[contains(createObject('one', 'a', 'two', 'b'), 'one')]"), true);
    assert.equal(ev("[contains(createArray('one', 'two'), 'three')]"), false);
  });
  test('union and intersection of arrays and of objects', () => {
    assert.deepEqual(ev("[union(createArray('one', 'two', 'three'), createArray('three', 'four'))]"), ['one', 'two', 'three', 'four']);
    assert.deepEqual(ev("[intersection(createArray('one', 'two', 'three'), createArray('two', 'three'))]"), ['two', 'three']);
    assert.deepEqual(ev("[union(createObject('a', 'b'), createObject('c', 'd'))]"), { a: 'b', c: 'd' });
    assert.deepEqual(ev("[intersection(createObject('one', 'a', 'two', 'b'), createObject('one', 'a', 'two', 'z'))]"), { one: 'a' });
  });
  test('skip, take, coalesce, json, property and index access', () => {
    assert.equal(ev("[skip('one two three', 4)]"), 'two three');
    assert.deepEqual(ev("[take(createArray('one', 'two', 'three'), 2)]"), ['one', 'two']);
    assert.equal(ev("[coalesce(json('null'), 'default')]"), 'default');
    assert.equal(ev('[json(\'{"a": {"b": [1, 2]}}\').a.b[1]]'), 2);
    assert.equal(ev("[createObject('Key', 'v')['key']]"), 'v');
  });
});

describe('numeric, logical and comparison functions', () => {
  test('add, sub, mul, div (truncated), mod', () => {
    assert.equal(ev('[add(5, 3)]'), 8);
    assert.equal(ev('[sub(7, 3)]'), 4);
    assert.equal(ev('[mul(5, 3)]'), 15);
    assert.equal(ev('[div(8, 3)]'), 2);
    assert.equal(ev('[mod(7, 3)]'), 1);
    unknown('[div(1, 0)]', /by zero/);
  });
  test('true(), false(), null(), range()', () => {
    assert.equal(ev('[true()]'), true);
    assert.equal(ev('[false()]'), false);
    assert.equal(ev('[null()]'), null);
    assert.deepEqual(ev('[range(5, 3)]'), [5, 6, 7]);
  });
  test('int, string, bool', () => {
    assert.equal(ev("[int('4')]"), 4);
    assert.equal(ev('[string(5)]'), '5');
    assert.equal(ev("[bool('true')]"), true);
    assert.equal(ev('[bool(0)]'), false);
  });
  test('if takes only its branch; and, or, not, equals, less...', () => {
    assert.equal(ev("[if(equals(1, 1), 'yes', 'no')]"), 'yes');
    assert.equal(ev("[if(true, 'a', reference('x'))]"), 'a', 'the branch not taken is not evaluated');
    assert.equal(ev('[and(true, false)]'), false);
    assert.equal(ev('[or(true, false)]'), true);
    assert.equal(ev('[not(true)]'), false);
    assert.equal(ev("[equals(createArray('a', 'b'), createArray('a', 'b'))]"), true);
    assert.equal(ev('[less(5, 10)]'), true);
    assert.equal(ev("[greater('bcd', 'abc')]"), true);
    assert.equal(ev('[lessOrEquals(10, 10)]'), true);
    assert.equal(ev("[greaterOrEquals('a', 'b')]"), false);
  });
});

describe('policy functions (definition structure: policy rule, "Policy functions")', () => {
  test("ipRangeContains: IPv4 and IPv6 ranges; mixed families are the service's error", () => {
    assert.equal(ev("[ipRangeContains('10.0.0.0/24', '10.0.0.128/25')]"), true);
    assert.equal(ev("[ipRangeContains('10.0.0.0/24', '10.0.1.1')]"), false);
    assert.equal(ev("[ipRangeContains('10.0.0.0/16', '10.0.0.0/16')]"), true);
    assert.equal(ev("[ipRangeContains('fc00:db8::/32', 'fc00:db8:1::1')]"), true);
    assert.equal(ev("[ipRangeContains('fc00:db8::/32', 'fc00:db9::1')]"), false);
    unknown("[ipRangeContains('10.0.0.0/24', 'fc00::1')]", /IPv4 and an IPv6/);
  });
  test('utcNow is the clock the caller sets, and unknown without one; addDays adds days', () => {
    unknown('[utcNow()]', /needs the clock/);
    assert.equal(ev('[utcNow()]', scope({ now: '2026-03-01T10:00:00Z' })), '2026-03-01T10:00:00Z');
    assert.equal(Date.parse(String(ev("[addDays('2026-01-30T00:00:00Z', 3)]"))), Date.parse('2026-02-02T00:00:00Z'));
    assert.equal(
      Date.parse(String(ev('[addDays(utcNow(), -1)]', scope({ now: '2026-03-01T00:00:00Z' })))),
      Date.parse('2026-02-28T00:00:00Z'),
    );
  });
  test('parameters (case-insensitive), field, policy, requestContext, resourceGroup, subscription', () => {
    const s = scope(
      { apiVersion: '2023-01-01', resourceGroup: { name: 'app-rg', location: 'westeurope' }, subscription: { subscriptionId: 'sub-1' } },
      { TagName: 'owner' },
    );
    assert.equal(ev("[parameters('tagname')]", s), 'owner');
    assert.equal(ev("[field('Microsoft.Storage/storageAccounts/minimumTlsVersion')]", s), 'TLS1_2');
    assert.equal(ev("[field('location')]", s), 'westeurope');
    assert.equal(ev('[policy().definitionReferenceId]', s), 'ref1');
    assert.equal(ev('[requestContext().apiVersion]', s), '2023-01-01');
    assert.equal(ev('[resourceGroup().name]', s), 'app-rg');
    assert.equal(ev('[subscription().subscriptionId]', s), 'sub-1');
    unknown('[resourceGroup().name]', /needs the resource group/);
    unknown("[parameters('missing')]", /has no value/);
  });
  test('functions that need the live service, or that are unknown, are reported by name', () => {
    unknown("[reference('x')]", /'reference\(\)' is not evaluated offline/);
    unknown("[resourceId('a', 'b')]", /'resourceId\(\)' is not evaluated offline/);
    unknown("[frobnicate('x')]", /'frobnicate\(\)' is not supported/);
    unknown("[concat('a']", /cannot be read/);
    assert.equal(ev("[concat('a'"), "[concat('a'", 'without its closing bracket it is no expression');
  });
});

// The trace as a sentence (service/evaluate/explain.ts): hand-built results and traces, each expected sentence
// written out by hand. One test runs the evaluator to check that a condition under `not` is marked so.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, explainResult, type JsonObject, type MemberResult, type TraceEntry } from '#service';

const member = (outcome: MemberResult['outcome'], trace: TraceEntry[], extra: Partial<MemberResult> = {}): MemberResult => ({
  definitionId: 'd',
  effect: 'deny',
  outcome,
  trace,
  ...extra,
});
const typeCheck: TraceEntry = {
  path: 'type',
  value: 'Microsoft.Storage/storageAccounts',
  operator: 'equals',
  expected: 'Microsoft.Storage/storageAccounts',
  result: true,
};
const step = (
  operator: string,
  value: TraceEntry['value'],
  expected: TraceEntry['expected'],
  result: boolean,
  negated = false,
): TraceEntry => ({
  path: 'properties.x',
  ...(value === undefined ? {} : { value }),
  operator,
  expected,
  result,
  ...(negated ? { negated: true as const } : {}),
});

describe('a matched rule: the effect, the value and what compliance expects', () => {
  test('notEquals matched: the value and the expected one (the type check is passed over)', () => {
    const trace: TraceEntry[] = [
      typeCheck,
      { path: 'properties.networkAcls.defaultAction', value: 'Allow', operator: 'notEquals', expected: 'Deny', result: true },
    ];
    assert.equal(
      explainResult(member('nonCompliant', trace)),
      "Deny because `properties.networkAcls.defaultAction` is 'Allow', expected 'Deny'",
    );
  });
  test('a condition under not that is false matched the rule: read as its opposite', () => {
    const trace = [typeCheck, step('equals', 'Allow', 'Deny', false, true)];
    assert.equal(explainResult(member('nonCompliant', trace)), "Deny because `properties.x` is 'Allow', expected 'Deny'");
  });
  const cases: Array<[string, TraceEntry, string]> = [
    ['equals', step('equals', 'Allow', 'Allow', true), "is 'Allow', expected anything but 'Allow'"],
    ['in', step('in', 'TLS1_0', ['TLS1_0', 'TLS1_1'], true), "is 'TLS1_0', expected none of 'TLS1_0', 'TLS1_1'"],
    ['notIn', step('notIn', 'eastus', ['westeurope', 'northeurope'], true), "is 'eastus', expected one of 'westeurope', 'northeurope'"],
    ['notIn of one value', step('notIn', 'eastus', ['westeurope'], true), "is 'eastus', expected 'westeurope'"],
    ['exists false', step('exists', undefined, 'false', true), 'is absent, expected a value'],
    ['exists true', step('exists', 'x', true, true), "is 'x', expected no value"],
    ['like', step('like', 'web-01', 'web-*', true), "is 'web-01', expected not like 'web-*'"],
    ['notLike', step('notLike', 'app-01', 'web-*', true), "is 'app-01', expected like 'web-*'"],
    ['match', step('match', 'ab12', '??##', true), "is 'ab12', expected not matching '??##'"],
    ['notMatch', step('notMatch', 'a1', '??##', true), "is 'a1', expected matching '??##'"],
    ['contains', step('contains', 'allow-all', 'all', true), "is 'allow-all', expected not containing 'all'"],
    ['notContains', step('notContains', 'x', 'y', true), "is 'x', expected containing 'y'"],
    ['notContainsKey', step('notContainsKey', {}, 'owner', true), "is {}, expected with the key 'owner'"],
    ['less', step('less', 'TLS1_0', 'TLS1_2', true), "is 'TLS1_0', expected at least 'TLS1_2'"],
    ['lessOrEquals', step('lessOrEquals', 1, 1, true), 'is 1, expected more than 1'],
    ['greater', step('greater', 10, 5, true), 'is 10, expected at most 5'],
    ['greaterOrEquals', step('greaterOrEquals', 5, 5, true), 'is 5, expected less than 5'],
    ['a boolean', step('equals', false, 'false', true), "is false, expected anything but 'false'"],
  ];
  for (const [name, entry, clause] of cases)
    test(`${name}: ${clause}`, () => {
      assert.equal(explainResult(member('nonCompliant', [entry], { effect: 'audit' })), `Audit because \`properties.x\` ${clause}`);
    });
  test('count: the count of the array', () => {
    const entry: TraceEntry = { path: 'count(properties.ipRules[*])', value: 0, operator: 'less', expected: 1, result: true };
    assert.equal(
      explainResult(member('nonCompliant', [entry])),
      'Deny because the count of `properties.ipRules[*]` is 0, expected at least 1',
    );
  });
  test('an array alias outside count: every member', () => {
    const entry: TraceEntry = { ...step('notEquals', ['a', 'b'], 'c', true), reason: 'every member of the array' };
    assert.equal(explainResult(member('nonCompliant', [entry])), "Deny because `properties.x` has the values 'a', 'b', expected 'c'");
  });
  test('a comparison says more than an exists guard: chosen over it', () => {
    const trace = [typeCheck, step('less', 'TLS1_0', 'TLS1_2', true), { ...step('exists', 'TLS1_0', true, true), path: 'properties.y' }];
    assert.equal(explainResult(member('nonCompliant', trace)), "Deny because `properties.x` is 'TLS1_0', expected at least 'TLS1_2'");
    const kept = [typeCheck, step('exists', 'TLS1_2', 'false', false), step('less', 'TLS1_2', 'TLS1_2', false)];
    assert.equal(
      explainResult(member('compliant', kept)),
      "Compliant because `properties.x` is 'TLS1_2', and the rule looks for less than 'TLS1_2'",
    );
  });
  test('not enforced, and the last matching condition of several', () => {
    const trace = [step('exists', 'x', true, true), { ...step('equals', 'b', 'b', true), path: 'kind' }];
    assert.equal(
      explainResult(member('nonCompliant', trace, { enforced: false })),
      "Deny (not enforced) because `kind` is 'b', expected anything but 'b'",
    );
  });
  test('a long value is cut', () => {
    const sentence = explainResult(member('nonCompliant', [step('equals', 'x'.repeat(200), 'y', false, true)]));
    assert.ok(sentence.length < 160, sentence);
    assert.match(sentence, /…/);
  });
});

describe('a rule that did not match: the condition that kept it from matching', () => {
  test('compliant: the first false condition that is not the type check', () => {
    const trace = [typeCheck, step('notEquals', 'Deny', 'Deny', false), step('exists', 'y', true, true)];
    assert.equal(
      explainResult(member('compliant', trace)),
      "Compliant because `properties.x` is 'Deny', and the rule looks for anything but 'Deny'",
    );
  });
  test('compliant through a not: the condition as the rule tests it', () => {
    const trace = [typeCheck, step('in', 'westeurope', ['westeurope'], true, true)];
    assert.equal(
      explainResult(member('compliant', trace)),
      "Compliant because `properties.x` is 'westeurope', and the rule looks for anything but 'westeurope'",
    );
  });
  test('an IfNotExists rule whose if is false is not applicable, said the same way', () => {
    const trace = [{ ...typeCheck, result: false, value: 'Microsoft.Web/sites' }];
    assert.equal(
      explainResult(member('notApplicable', trace, { effect: 'auditIfNotExists', reason: 'the if condition is false' })),
      "Not applicable because `type` is 'Microsoft.Web/sites', and the rule looks for 'Microsoft.Storage/storageAccounts'",
    );
  });
  test('not applicable by applicability: the reason', () => {
    assert.equal(
      explainResult(member('notApplicable', [], { reason: 'the type, name and kind conditions do not match the resource' })),
      'Not applicable: the type, name and kind conditions do not match the resource',
    );
  });
});

describe('related resources, unknown, exempt, disabled', () => {
  const related = (found: number): TraceEntry => ({
    path: "related Microsoft.Insights/diagnosticSettings named 'default'",
    value: found,
    operator: 'exists',
    expected: true,
    result: found > 0,
    reason: 'looked for among the 3 resources given',
  });
  test('none found', () => {
    assert.equal(
      explainResult(member('nonCompliant', [typeCheck, related(0)], { effect: 'auditIfNotExists', relatedResourcesFound: 0 })),
      "AuditIfNotExists because no related Microsoft.Insights/diagnosticSettings named 'default' was found (looked for among the 3 resources given)",
    );
  });
  test('found, but the existence condition fails: what it expects', () => {
    const trace = [
      typeCheck,
      related(1),
      { ...step('equals', false, true, false), path: 'Microsoft.Insights/diagnosticSettings/logs.enabled' },
    ];
    assert.equal(
      explainResult(member('nonCompliant', trace, { effect: 'deployIfNotExists', relatedResourcesFound: 1 })),
      "DeployIfNotExists because the related Microsoft.Insights/diagnosticSettings named 'default': `Microsoft.Insights/diagnosticSettings/logs.enabled` is false, expected true",
    );
  });
  test('found and satisfying', () => {
    assert.equal(
      explainResult(member('compliant', [typeCheck, related(1)], { effect: 'auditIfNotExists' })),
      "Compliant because a related Microsoft.Insights/diagnosticSettings named 'default' satisfies the existence condition",
    );
  });
  test('unknown: the condition that could not be decided, else the reason', () => {
    const entry: TraceEntry = {
      path: 'Microsoft.Compute/imagePublisher',
      operator: 'equals',
      result: 'unknown',
      reason: 'not of the type',
    };
    assert.equal(
      explainResult(member('unknown', [typeCheck, entry])),
      'Unknown because `Microsoft.Compute/imagePublisher` could not be decided: not of the type',
    );
    assert.equal(
      explainResult(member('unknown', [], { reason: "the definition 'x' was not found" })),
      "Unknown: the definition 'x' was not found",
    );
  });
  test('exempt and disabled: the reason', () => {
    assert.equal(explainResult(member('exempt', [], { reason: "exempted by 'e' (Waiver)" })), "Exempt: exempted by 'e' (Waiver)");
    assert.equal(explainResult(member('disabled', [], { effect: 'disabled', reason: 'off' })), 'Disabled: off');
  });
});

test('the evaluator marks a condition under not (and not one under two), which the sentence reads', () => {
  const definition = {
    name: 'd',
    properties: {
      mode: 'All',
      policyRule: {
        if: {
          allOf: [
            { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
            { not: { field: 'Microsoft.Storage/storageAccounts/networkAcls.defaultAction', equals: 'Deny' } },
            { not: { not: { field: 'location', exists: true } } },
          ],
        },
        then: { effect: 'deny' },
      },
    },
  } as JsonObject;
  const resource = {
    type: 'Microsoft.Storage/storageAccounts',
    name: 's',
    location: 'westeurope',
    properties: { networkAcls: { defaultAction: 'Allow' } },
  };
  const [result] = evaluate({ target: definition, findDefinition: () => undefined, context: {} }, resource as JsonObject);
  assert.equal(result.outcome, 'nonCompliant');
  assert.deepEqual(
    result.trace.map((t) => t.negated ?? false),
    [false, true, false],
  );
  assert.equal(result.trace[2].operator, 'exists');
  // The last matching condition that is not the type check is location's; the negated one reads as notEquals.
  assert.equal(
    explainResult({ ...result, trace: result.trace.slice(0, 2) }),
    "Deny because `Microsoft.Storage/storageAccounts/networkAcls.defaultAction` is 'Allow', expected 'Deny'",
  );
});

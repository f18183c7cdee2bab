// Applicability, modes, effects, sets, assignments and exemptions of the evaluator, each against the page of
// the service's documentation named in its describe. Expected outcomes are worked out by hand from the page.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  evaluate,
  evaluationJson,
  aliasCatalogue,
  resourcesOf,
  type JsonObject,
  type MemberResult,
  type EvaluationContext,
} from '#service';

const SUB = '/subscriptions/11111111-1111-1111-1111-111111111111';
const RG = `${SUB}/resourceGroups/app-rg`;
const storageId = `${RG}/providers/Microsoft.Storage/storageAccounts/acct`;
const storage = (extra: object = {}): JsonObject =>
  ({
    id: storageId,
    type: 'Microsoft.Storage/storageAccounts',
    name: 'acct',
    location: 'westeurope',
    tags: {},
    properties: { minimumTlsVersion: 'TLS1_0' },
    ...extra,
  }) as JsonObject;
const vm = (): JsonObject => ({
  id: `${RG}/providers/Microsoft.Compute/virtualMachines/vm1`,
  type: 'Microsoft.Compute/virtualMachines',
  name: 'vm1',
  location: 'westeurope',
  properties: {},
});

function definition(rule: object, options: { mode?: string; parameters?: object; name?: string } = {}): JsonObject {
  return {
    name: options.name ?? 'def',
    properties: { mode: options.mode ?? 'All', parameters: options.parameters ?? {}, policyRule: rule },
  } as JsonObject;
}
function one(
  target: JsonObject,
  resource: JsonObject,
  extra: { assignment?: object; exemptions?: object[]; context?: EvaluationContext } = {},
): MemberResult {
  return evaluate(
    {
      target,
      findDefinition: () => undefined,
      assignment: extra.assignment as JsonObject,
      exemptions: extra.exemptions as JsonObject[],
      context: extra.context ?? {},
    },
    resource,
  )[0];
}
const tlsRule = (effect: string) => ({
  if: {
    allOf: [
      { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
      { field: 'Microsoft.Storage/storageAccounts/minimumTlsVersion', notEquals: 'TLS1_2' },
    ],
  },
  then: { effect },
});

// https://learn.microsoft.com/en-us/azure/governance/policy/concepts/policy-applicability
describe('applicability (policy applicability)', () => {
  test('other effects: the type condition decides applicability, the rest decides compliance', () => {
    assert.equal(one(definition(tlsRule('deny')), vm()).outcome, 'notApplicable');
    assert.equal(one(definition(tlsRule('deny')), storage()).outcome, 'nonCompliant');
    assert.equal(one(definition(tlsRule('deny')), storage({ properties: { minimumTlsVersion: 'TLS1_2' } })).outcome, 'compliant');
  });
  test('only name conditions: every resource is applicable', () => {
    assert.equal(one(definition({ if: { field: 'name', like: 'prod-*' }, then: { effect: 'audit' } }), storage()).outcome, 'compliant');
  });
  test('type and name conditions only: the type alone decides applicability', () => {
    const rule = {
      if: {
        allOf: [
          { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
          { field: 'name', like: 'prod-*' },
        ],
      },
      then: { effect: 'audit' },
    };
    assert.equal(one(definition(rule), storage()).outcome, 'compliant');
  });
  test('type, name and other conditions: type and name decide applicability', () => {
    const rule = {
      if: {
        allOf: [
          { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
          { field: 'name', like: 'prod-*' },
          { field: 'location', equals: 'westeurope' },
        ],
      },
      then: { effect: 'audit' },
    };
    assert.equal(one(definition(rule), storage()).outcome, 'notApplicable');
    assert.equal(one(definition(rule), storage({ name: 'prod-1' })).outcome, 'nonCompliant');
  });
  test('auditIfNotExists: the whole if decides applicability', () => {
    const rule = {
      if: {
        allOf: [
          { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
          { field: 'location', equals: 'eastus' },
        ],
      },
      then: { effect: 'auditIfNotExists', details: { type: 'Microsoft.Insights/diagnosticSettings' } },
    };
    const result = one(definition(rule), storage(), { context: { relatedResources: [] } });
    assert.equal(result.outcome, 'notApplicable');
  });
});

// https://learn.microsoft.com/en-us/azure/governance/policy/concepts/definition-structure-basics#mode
describe('modes (definition structure basics, "Mode")', () => {
  test('Indexed skips a child resource without location or tags, resource groups and subscriptions; All evaluates them', () => {
    const rule = { if: { field: 'type', equals: 'Microsoft.Network/virtualNetworks/subnets' }, then: { effect: 'audit' } };
    const subnet = { type: 'Microsoft.Network/virtualNetworks/subnets', name: 'vnet/s1', properties: {} };
    assert.equal(one(definition(rule, { mode: 'Indexed' }), subnet).outcome, 'notApplicable');
    assert.equal(one(definition(rule, { mode: 'All' }), subnet).outcome, 'nonCompliant');
    const rgRule = { if: { field: 'type', equals: 'Microsoft.Resources/subscriptions/resourceGroups' }, then: { effect: 'audit' } };
    const rg = { type: 'Microsoft.Resources/subscriptions/resourceGroups', name: 'app-rg', location: 'westeurope', tags: {} };
    assert.equal(one(definition(rgRule, { mode: 'Indexed' }), rg).outcome, 'notApplicable');
    assert.equal(one(definition(rgRule, { mode: 'All' }), rg).outcome, 'nonCompliant');
  });
  test('Indexed evaluates a top-level resource written without location, and says how it took it', () => {
    const result = one(definition(tlsRule('audit'), { mode: 'Indexed' }), {
      type: 'Microsoft.Storage/storageAccounts',
      name: 'a',
      properties: {},
    });
    assert.equal(result.outcome, 'nonCompliant');
    assert.match(result.note ?? '', /no location nor tags/);
  });
  test('a resource provider mode is out of scope, and says so', () => {
    const result = one(
      definition(
        { if: { field: 'type', equals: 'Microsoft.ContainerService/managedClusters' }, then: { effect: 'audit' } },
        { mode: 'Microsoft.Kubernetes.Data' },
      ),
      storage(),
    );
    assert.equal(result.outcome, 'unknown');
    assert.match(result.reason ?? '', /resource provider mode/);
  });
});

// https://learn.microsoft.com/en-us/azure/governance/policy/concepts/effect-basics and the page of each effect
describe('effects (effect basics and each effect page)', () => {
  const effectParameter = { effect: { type: 'String', allowedValues: ['Audit', 'Deny', 'Disabled'], defaultValue: 'Audit' } };
  const byParameter = definition(tlsRule("[parameters('effect')]"), { parameters: effectParameter });
  test('the effect chosen by a parameter, case-insensitively; Disabled is not evaluated', () => {
    assert.equal(one(byParameter, storage()).effect, 'audit');
    assert.equal(one(byParameter, storage(), { assignment: { properties: { parameters: { effect: { value: 'DENY' } } } } }).effect, 'deny');
    const disabled = one(byParameter, storage(), { assignment: { properties: { parameters: { effect: { value: 'Disabled' } } } } });
    assert.equal(disabled.outcome, 'disabled');
  });
  test('append (effect-append): the values it would add', () => {
    const rule = {
      if: { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
      then: {
        effect: 'append',
        details: [{ field: 'Microsoft.Storage/storageAccounts/networkAcls.ipRules', value: [{ action: 'Allow', value: '134.5.0.0/21' }] }],
      },
    };
    const result = one(definition(rule), storage());
    assert.equal(result.outcome, 'nonCompliant');
    assert.deepEqual(result.patch, [
      {
        operation: 'append',
        field: 'Microsoft.Storage/storageAccounts/networkAcls.ipRules',
        value: [{ action: 'Allow', value: '134.5.0.0/21' }],
      },
    ]);
  });
  test('modify (effect-modify): the operations whose condition holds, values evaluated', () => {
    const rule = {
      if: { field: 'tags[environment]', notEquals: "[parameters('tagValue')]" },
      then: {
        effect: 'modify',
        details: {
          roleDefinitionIds: ['/providers/microsoft.authorization/roleDefinitions/b24988ac-6180-42a0-ab88-20f7382dd24c'],
          operations: [
            { operation: 'addOrReplace', field: 'tags[environment]', value: "[parameters('tagValue')]" },
            {
              condition: "[greaterOrEquals(requestContext().apiVersion, '2019-04-01')]",
              operation: 'addOrReplace',
              field: 'Microsoft.Storage/storageAccounts/minimumTlsVersion',
              value: 'TLS1_2',
            },
          ],
        },
      },
    };
    const target = definition(rule, { parameters: { tagValue: { type: 'String', defaultValue: 'prod' } } });
    const old = one(target, storage(), { context: { apiVersion: '2018-01-01' } });
    assert.equal(old.outcome, 'nonCompliant');
    assert.deepEqual(old.patch, [{ operation: 'addOrReplace', field: 'tags[environment]', value: 'prod' }]);
    const recent = one(target, storage(), { context: { apiVersion: '2022-09-01' } });
    assert.equal(recent.patch?.length, 2);
    assert.equal(one(target, storage({ tags: { environment: 'prod' } }), { context: { apiVersion: '2022-09-01' } }).outcome, 'compliant');
  });
  test('auditIfNotExists (effect-audit-if-not-exists): related resources under the resource, existenceCondition, [field()] of the evaluated resource', () => {
    const rule = {
      if: { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
      then: {
        effect: 'auditIfNotExists',
        details: {
          type: 'Microsoft.Insights/diagnosticSettings',
          existenceCondition: {
            allOf: [
              { field: 'Microsoft.Insights/diagnosticSettings/workspaceId', exists: 'true' },
              { field: 'name', equals: "[concat(field('name'), '-diag')]" },
            ],
          },
        },
      },
    };
    const setting = (name: string, parent = storageId, workspace = true): JsonObject => ({
      id: `${parent}/providers/Microsoft.Insights/diagnosticSettings/${name}`,
      type: 'Microsoft.Insights/diagnosticSettings',
      name,
      properties: workspace ? { workspaceId: '/w' } : {},
    });
    assert.equal(one(definition(rule), storage()).outcome, 'unknown', 'no related resources given');
    assert.equal(one(definition(rule), storage(), { context: { relatedResources: [] } }).outcome, 'nonCompliant');
    assert.equal(one(definition(rule), storage(), { context: { relatedResources: [setting('acct-diag')] } }).outcome, 'compliant');
    assert.equal(
      one(definition(rule), storage(), { context: { relatedResources: [setting('other')] } }).outcome,
      'nonCompliant',
      "the name is not field('name')-diag",
    );
    assert.equal(
      one(definition(rule), storage(), {
        context: { relatedResources: [setting('acct-diag', `${RG}/providers/Microsoft.Storage/storageAccounts/other`)] },
      }).outcome,
      'nonCompliant',
      'a setting of another account',
    );
    assert.equal(
      one(definition(rule), storage(), { context: { relatedResources: [setting('acct-diag', storageId, false)] } }).outcome,
      'nonCompliant',
    );
  });
  test('deployIfNotExists (effect-deploy-if-not-exists): a child type of the resource, by name', () => {
    const server = {
      id: `${RG}/providers/Microsoft.Sql/servers/sql1`,
      type: 'Microsoft.Sql/servers',
      name: 'sql1',
      location: 'westeurope',
      properties: {},
    };
    const rule = {
      if: { field: 'type', equals: 'Microsoft.Sql/servers' },
      then: {
        effect: 'deployIfNotExists',
        details: {
          type: 'Microsoft.Sql/servers/auditingSettings',
          name: 'default',
          existenceCondition: { field: 'Microsoft.Sql/servers/auditingSettings/state', equals: 'Enabled' },
        },
      },
    };
    const auditing = (serverName: string, state: string): JsonObject => ({
      id: `${RG}/providers/Microsoft.Sql/servers/${serverName}/auditingSettings/default`,
      type: 'Microsoft.Sql/servers/auditingSettings',
      name: 'default',
      properties: { state },
    });
    assert.equal(one(definition(rule), server, { context: { relatedResources: [auditing('sql1', 'Enabled')] } }).outcome, 'compliant');
    assert.equal(one(definition(rule), server, { context: { relatedResources: [auditing('sql1', 'Disabled')] } }).outcome, 'nonCompliant');
    assert.equal(
      one(definition(rule), server, { context: { relatedResources: [auditing('sql2', 'Enabled')] } }).outcome,
      'nonCompliant',
      "another server's child",
    );
  });
  test('manual (effect-manual): the default state, Unknown without one; denyAction (effect-deny-action): protected', () => {
    const manual = (details?: object) =>
      definition({
        if: { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
        then: { effect: 'manual', ...(details ? { details } : {}) },
      });
    assert.equal(one(manual({ defaultState: 'NonCompliant' }), storage()).outcome, 'nonCompliant');
    assert.equal(one(manual({ defaultState: 'NonCompliant' }), storage()).awaitingAttestation, undefined);
    const unattested = one(manual(), storage());
    assert.equal(unattested.outcome, 'unknown');
    assert.equal(unattested.awaitingAttestation, true, "the service's own Unknown, not a limit of the evaluator");
    assert.deepEqual(evaluationJson([{ resource: storage(), results: [unattested] }]).results[0].awaitingAttestation, true);
    // A manual member whose rule the evaluator cannot decide is unknown for that reason, not awaiting an attestation.
    const undecided = one(
      definition({
        if: { field: 'Microsoft.Storage/storageAccounts/minimumTlsVersion', equals: "[parameters('missing')]" },
        then: { effect: 'manual' },
      }),
      storage(),
    );
    assert.equal(undecided.outcome, 'unknown');
    assert.equal(undecided.awaitingAttestation, undefined);
    assert.equal(evaluationJson([{ resource: storage(), results: [undecided] }]).results[0].awaitingAttestation, undefined);
    const deny = one(
      definition({
        if: { field: 'type', equals: 'Microsoft.Storage/storageAccounts' },
        then: { effect: 'denyAction', details: { actionNames: ['delete'] } },
      }),
      storage(),
    );
    assert.equal(deny.effect, 'denyAction');
    assert.match(deny.note ?? '', /protected/);
  });
});

// https://learn.microsoft.com/en-us/azure/governance/policy/concepts/initiative-definition-structure and assignment-structure
describe('sets and assignments (initiative definition structure, assignment structure)', () => {
  const tagDefinition = definition(
    { if: { field: "[concat('tags[', parameters('tagName'), ']')]", exists: 'false' }, then: { effect: "[parameters('effect')]" } },
    {
      name: 'require-tag',
      mode: 'Indexed',
      parameters: { tagName: { type: 'String' }, effect: { type: 'String', defaultValue: 'Audit' } },
    },
  );
  const set = {
    name: 'tags',
    properties: {
      parameters: { ownerTag: { type: 'String', defaultValue: 'owner' }, tagEffect: { type: 'String', defaultValue: 'Audit' } },
      policyDefinitions: [
        {
          policyDefinitionReferenceId: 'ownerTag',
          policyDefinitionId:
            '/providers/Microsoft.Management/managementGroups/mg/providers/Microsoft.Authorization/policyDefinitions/require-tag',
          parameters: { tagName: { value: "[parameters('ownerTag')]" }, effect: { value: "[parameters('tagEffect')]" } },
        },
        {
          policyDefinitionReferenceId: 'costTag',
          policyDefinitionId:
            '/providers/Microsoft.Management/managementGroups/mg/providers/Microsoft.Authorization/policyDefinitions/require-tag',
          parameters: { tagName: { value: 'costCenter' } },
        },
        {
          policyDefinitionReferenceId: 'missing',
          policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/00000000-0000-0000-0000-000000000000',
        },
      ],
    },
  } as JsonObject;
  const run = (resource: JsonObject, assignment?: object, exemptions?: object[], context: EvaluationContext = {}) =>
    Object.fromEntries(
      evaluate(
        {
          target: set,
          findDefinition: (id) => (id.endsWith('/require-tag') ? tagDefinition : undefined),
          assignment: assignment as JsonObject,
          exemptions: exemptions as JsonObject[],
          context,
        },
        resource,
      ).map((r) => [r.referenceId, r]),
    );

  test('values flow from the assignment (or defaults) through the set into each member', () => {
    const defaults = run(storage({ tags: { owner: 'me' } }));
    assert.equal(defaults.ownerTag.outcome, 'compliant');
    assert.equal(defaults.costTag.outcome, 'nonCompliant');
    assert.equal(defaults.costTag.effect, 'audit', "the member's own default");
    assert.equal(defaults.missing.outcome, 'unknown');
    const assigned = run(storage({ tags: { owner: 'me' } }), {
      properties: { parameters: { ownerTag: { value: 'team' }, tagEffect: { value: 'Deny' } } },
    });
    assert.equal(assigned.ownerTag.outcome, 'nonCompliant');
    assert.equal(assigned.ownerTag.effect, 'deny');
    assert.deepEqual(assigned.ownerTag.trace[0], { path: 'tags[team]', operator: 'exists', expected: 'false', result: true });
  });
  test('overrides: effect by reference ID (in, notIn), the last that matches wins', () => {
    const overrides = [
      { kind: 'policyEffect', value: 'Deny', selectors: [{ kind: 'policyDefinitionReferenceId', notIn: ['ownerTag'] }] },
      { kind: 'policyEffect', value: 'Disabled', selectors: [{ kind: 'policyDefinitionReferenceId', in: ['missing', 'COSTTAG'] }] },
    ];
    const r = run(storage(), { properties: { overrides } });
    assert.equal(r.ownerTag.effect, 'audit');
    assert.equal(r.costTag.outcome, 'disabled');
  });
  test('resourceSelectors, notScopes, scope, enforcementMode', () => {
    const selectors = [{ name: 'eastus only', selectors: [{ kind: 'resourceLocation', in: ['eastus'] }] }];
    assert.equal(run(storage(), { properties: { resourceSelectors: selectors } }).costTag.outcome, 'notApplicable');
    assert.equal(run(storage({ location: 'East US' }), { properties: { resourceSelectors: selectors } }).costTag.outcome, 'nonCompliant');
    assert.equal(run(storage(), { properties: { notScopes: [RG] } }).costTag.outcome, 'notApplicable');
    assert.equal(
      run(storage(), { properties: { notScopes: [`${RG}-2`] } }).costTag.outcome,
      'nonCompliant',
      'app-rg-2 does not hold app-rg',
    );
    assert.equal(run(storage(), { properties: { scope: `${SUB}/resourceGroups/other` } }).costTag.outcome, 'notApplicable');
    const notEnforced = run(storage(), { properties: { enforcementMode: 'DoNotEnforce', parameters: { tagEffect: { value: 'Deny' } } } });
    assert.equal(notEnforced.ownerTag.outcome, 'nonCompliant');
    assert.equal(notEnforced.ownerTag.enforced, false);
  });
  test('exemptions (exemption structure): by assignment, reference IDs, scope and expiry', () => {
    const assignment = { id: `${SUB}/providers/Microsoft.Authorization/policyAssignments/tags`, properties: {} };
    const exemption = (props: object, at = RG): object => ({
      id: `${at}/providers/Microsoft.Authorization/policyExemptions/e1`,
      name: 'e1',
      properties: { policyAssignmentId: assignment.id, exemptionCategory: 'Waiver', ...props },
    });
    const now = { now: '2026-06-01T00:00:00Z' };
    assert.equal(run(storage(), assignment, [exemption({ policyDefinitionReferenceIds: ['costTag'] })], now).costTag.outcome, 'exempt');
    assert.equal(
      run(storage(), assignment, [exemption({ policyDefinitionReferenceIds: ['costTag'] })], now).costTag.effect,
      'audit',
      'the effect is still said',
    );
    assert.equal(
      run(storage(), assignment, [exemption({ policyDefinitionReferenceIds: ['costTag'] })], now).ownerTag.outcome,
      'nonCompliant',
    );
    assert.equal(run(storage(), assignment, [exemption({})], now).ownerTag.outcome, 'exempt', 'no reference IDs: every member');
    assert.equal(
      run(storage(), assignment, [exemption({ expiresOn: '2026-01-01T00:00:00Z' })], now).costTag.outcome,
      'nonCompliant',
      'expired',
    );
    assert.equal(
      run(storage(), assignment, [exemption({ expiresOn: '2027-01-01T00:00:00Z' })], now).costTag.outcome,
      'exempt',
      'not yet expired',
    );
    assert.match(
      run(storage(), assignment, [exemption({ expiresOn: '2027-01-01T00:00:00Z' })]).costTag.reason ?? '',
      /give the clock/,
      'no clock: unknown, never guessed',
    );
    assert.equal(
      run(storage(), assignment, [exemption({}, `${SUB}/resourceGroups/other`)], now).costTag.outcome,
      'nonCompliant',
      'another scope',
    );
    assert.equal(
      run(
        storage(),
        assignment,
        [exemption({ policyAssignmentId: `${SUB}/providers/Microsoft.Authorization/policyAssignments/other` })],
        now,
      ).costTag.outcome,
      'nonCompliant',
      'another assignment',
    );
  });
});

describe('inputs: resource files and alias catalogues', () => {
  test('one resource, an array, a what-if (predictedResources, changes[].after), a template', () => {
    const r = { type: 'Microsoft.Storage/storageAccounts', name: 'a' };
    assert.deepEqual(resourcesOf(r), [r]);
    assert.deepEqual(resourcesOf([r, r]), [r, r]);
    assert.deepEqual(resourcesOf({ properties: { predictedResources: [r] } }), [r]);
    assert.deepEqual(resourcesOf({ changes: [{ changeType: 'Create', after: r }, { changeType: 'Delete' }] }), [r]);
    assert.deepEqual(
      resourcesOf({ contentVersion: '1.0.0.0', resources: [{ ...r, resources: [{ type: 'blobServices', name: 'default' }] }] }),
      [r, { type: 'Microsoft.Storage/storageAccounts/blobServices', name: 'a/default' }],
    );
  });
  test("a catalogue from 'az provider list --expand resourceTypes/aliases', or a map", () => {
    const providers = [
      {
        namespace: 'Microsoft.Compute',
        resourceTypes: [
          {
            resourceType: 'virtualMachines',
            aliases: [
              {
                name: 'Microsoft.Compute/imagePublisher',
                paths: [{ path: 'properties.storageProfile.imageReference.publisher', apiVersions: ['2023-03-01'] }],
                defaultPath: 'properties.storageProfile.imageReference.publisher',
              },
            ],
          },
        ],
      },
    ];
    assert.equal(aliasCatalogue(providers).get('microsoft.compute/imagepublisher'), 'properties.storageProfile.imageReference.publisher');
    assert.equal(aliasCatalogue({ 'Microsoft.X/y/z': 'properties.z' }).get('microsoft.x/y/z'), 'properties.z');
  });
  test("the service's list names an alias under each of its types: each type reads its own path", () => {
    const publisher = (path: string) => ({
      name: 'Microsoft.Compute/imagePublisher',
      paths: [{ path, apiVersions: ['2023-03-01'] }],
      defaultPath: path,
    });
    // The scale set listed last: a catalogue by name alone would read its path on a virtual machine too.
    const aliases = aliasCatalogue([
      {
        namespace: 'Microsoft.Compute',
        resourceTypes: [
          { resourceType: 'virtualMachines', aliases: [publisher('properties.custom.vmPublisher')] },
          { resourceType: 'virtualMachineScaleSets', aliases: [publisher('properties.custom.setPublisher')] },
        ],
      },
    ]);
    const rule = definition({ if: { field: 'Microsoft.Compute/imagePublisher', equals: 'Canonical' }, then: { effect: 'audit' } });
    const machine = (type: string, custom: JsonObject): JsonObject => ({ ...vm(), type, properties: { custom } });
    const vmType = 'Microsoft.Compute/virtualMachines';
    const setType = 'Microsoft.Compute/virtualMachineScaleSets';
    assert.equal(one(rule, machine(vmType, { vmPublisher: 'Canonical' }), { context: { aliases } }).outcome, 'nonCompliant');
    assert.equal(one(rule, machine(vmType, { setPublisher: 'Canonical' }), { context: { aliases } }).outcome, 'compliant');
    assert.equal(one(rule, machine(setType, { setPublisher: 'Canonical' }), { context: { aliases } }).outcome, 'nonCompliant');
    // A type the list does not name reads the path of the alias's name alone (here the last listed).
    assert.equal(
      one(rule, machine('Microsoft.Compute/disks', { setPublisher: 'Canonical' }), { context: { aliases } }).outcome,
      'nonCompliant',
    );
  });
});

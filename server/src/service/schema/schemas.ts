/* eslint-disable @typescript-eslint/no-require-imports -- the schemas are JSON files at the top level, shared with editors */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type AjvClass from 'ajv';

export const SCHEMA_IDS = {
  types: 'policyset:/schemas/policySetTypes.schema.json',
  policySetDefinition: 'policyset:/schemas/policySetDefinition.schema.json',
  policySetDefinitionVersion: 'policyset:/schemas/policySetDefinitionVersion.schema.json',
  workspaceItem: 'policyset:/schemas/workspaceItem.schema.json',
  deploymentPlan: 'policyset:/schemas/deploymentPlan.schema.json',
} as const;

/** The schemas in schemas/, by id: for ajv here and for JSON language services in editors. */
export function loadSchemas(): Record<string, object> {
  return {
    [SCHEMA_IDS.types]: require('../../../../schemas/policySetTypes.schema.json') as object,
    [SCHEMA_IDS.policySetDefinition]: require('../../../../schemas/policySetDefinition.schema.json') as object,
    [SCHEMA_IDS.policySetDefinitionVersion]: require('../../../../schemas/policySetDefinitionVersion.schema.json') as object,
    [SCHEMA_IDS.workspaceItem]: require('../../../../schemas/workspaceItem.schema.json') as object,
    // For editors (the extension's jsonValidation); the quota rules read plans themselves.
    [SCHEMA_IDS.deploymentPlan]: require('../../../../schemas/deploymentPlan.schema.json') as object,
  };
}

export type SchemaTarget = 'policySetDefinition' | 'policySetDefinitionVersion' | 'setProperties' | 'versionProperties' | 'workspaceItem';

export const AJV_OPTIONS = { allErrors: true, strict: true, verbose: true } as const;

export const VALIDATOR_REFS: Record<SchemaTarget, string> = {
  policySetDefinition: SCHEMA_IDS.policySetDefinition,
  policySetDefinitionVersion: SCHEMA_IDS.policySetDefinitionVersion,
  setProperties: `${SCHEMA_IDS.types}#/definitions/PolicySetDefinitionProperties`,
  versionProperties: `${SCHEMA_IDS.types}#/definitions/PolicySetDefinitionVersionProperties`,
  workspaceItem: SCHEMA_IDS.workspaceItem,
};

let validators: Record<SchemaTarget, ValidateFunction> | undefined;

/** Compiles the schemas with ajv in strict mode: a schema that ajv would only warn about fails here. */
export function compileValidators(): Record<SchemaTarget, ValidateFunction> {
  // Loaded here only: validation uses the generated validators, and loading ajv costs a process tens of ms.
  const Ajv = (require('ajv') as { default: typeof AjvClass }).default;
  const ajv = new Ajv(AJV_OPTIONS);
  for (const schema of Object.values(loadSchemas())) ajv.addSchema(schema);
  const get = (ref: string) => {
    const validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`Schema ${ref} is missing`);
    return validate;
  };
  return {
    policySetDefinition: get(VALIDATOR_REFS.policySetDefinition),
    policySetDefinitionVersion: get(VALIDATOR_REFS.policySetDefinitionVersion),
    setProperties: get(VALIDATOR_REFS.setProperties),
    versionProperties: get(VALIDATOR_REFS.versionProperties),
    workspaceItem: get(VALIDATOR_REFS.workspaceItem),
  };
}

/** The validators generated at build time (scripts/build-validators.js), or compiled now when they are missing. */
function compiled(): Record<SchemaTarget, ValidateFunction> {
  if (!validators) {
    try {
      validators = require('./validators.generated.js') as Record<SchemaTarget, ValidateFunction>;
    } catch {
      validators = compileValidators();
    }
  }
  return validators;
}

export function validateAgainst(target: SchemaTarget, value: unknown): ErrorObject[] {
  const validate = compiled()[target];
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  // ajv keeps the last errors on the function, and with them (verbose) the data they are about: the
  // document's value would live until the next validation, long enough to be copied out of V8's young
  // generation and then left in the old one.
  validate.errors = null;
  return errors;
}

/**
 * One self-contained schema for a document kind: the shared definitions inlined, references made local.
 * For JSON language services and tools that do not resolve references across files.
 */
export function bundledSchema(kind: 'policySetDefinition' | 'policySetDefinitionVersion' | 'workspaceItem'): object {
  const schemas = loadSchemas();
  if (kind === 'workspaceItem') return schemas[SCHEMA_IDS.workspaceItem]; // self-contained already
  const types = schemas[SCHEMA_IDS.types] as { definitions: object };
  const localized = JSON.stringify(schemas[SCHEMA_IDS[kind]]).replace(/"policySetTypes\.schema\.json#\/definitions\//g, '"#/definitions/');
  const root = JSON.parse(localized) as Record<string, unknown>;
  return { ...root, definitions: types.definitions };
}

// Documents the definitions rules' tests share (test/rules/).
import { a3, catalog } from '../ruleTester';
import { DefinitionCatalog } from '#service';

export const withCatalog = { definitions: catalog() };

export const gov = { definitions: catalog(), cloud: 'AzureUSGovernment' };

export const cloud = { definitions: catalog(), cloud: 'AzureCloud' };

/** A set with one reference to `id`; `fields` is the rest of the reference object's members. */
export function ref(id: string, fields: string, setParameters = ''): string {
  return a3(`{${setParameters ? `\n    "parameters": { ${setParameters} },` : ''}
    "policyDefinitions": [
      {
        "policyDefinitionId": "${id}"${fields ? `,\n        ${fields}` : ''}
      }
    ]
  }`);
}

export const LOCATIONS = `"listOfLocations": { "value": ["eastus"] }`;

/**
 * A catalogue whose definitions each have two variants (clouds other than the document's: both apply, and
 * every variant must agree), for PS8004: `mixed` declares allowed values in one variant only, `differ`
 * allows other values in each, `types` declares an Integer in one and a String in the other; for PS8002,
 * `p` is required in one variant and has a default (`req-default`) or is not declared (`req-absent`) in the
 * other, or is required in both (`req-both`); for pinned versions, `twelve` is at 12.0.0, `noversion` has no
 * version, `split-major` is at 1.0.0 in one variant and 2.0.0 in the other (each requiring `p`); for PS8008,
 * `casing-split` declares `p` in one variant and `P` in the other; for PS8007, `deprecated-split` is deprecated
 * in one variant only and `deprecated-both` in both; for PS8009, `float` and `date` take a Float and a DateTime, and
 * `flow-split` an Array in one variant and a String in the other.
 */
export const MULTI = '/providers/Microsoft.Authorization/policyDefinitions/';

export function variantsCatalog(): DefinitionCatalog {
  const c = new DefinitionCatalog();
  const entry = (name: string, cloud: string, p: object) => ({
    name,
    id: `${MULTI}${name}`,
    version: '1.0.0',
    versions: ['1.0.0'],
    parameters: { p },
    cloud,
  });
  c.addIndex([
    entry('mixed', 'CloudA', { type: 'String', allowedValues: ['A'] }),
    entry('mixed', 'CloudB', { type: 'String' }),
    entry('differ', 'CloudA', { type: 'String', allowedValues: ['A', 'B'] }),
    entry('differ', 'CloudB', { type: 'String', allowedValues: ['A', 'C'] }),
    entry('types', 'CloudA', { type: 'Integer', allowedValues: [1] }),
    entry('types', 'CloudB', { type: 'String', allowedValues: ['1'] }),
    entry('single', 'CloudA', { type: 'Integer', allowedValues: [1, 2] }),
    entry('list', 'CloudA', { type: 'Array', allowedValues: ['eastus', 'westus'] }),
    entry('req-default', 'CloudA', { type: 'String' }),
    entry('req-default', 'CloudB', { type: 'String', defaultValue: 'x' }),
    entry('req-absent', 'CloudA', { type: 'String' }),
    { ...entry('req-absent', 'CloudB', {}), parameters: {} },
    entry('req-both', 'CloudA', { type: 'String' }),
    entry('req-both', 'CloudB', { type: 'String' }),
    { ...entry('twelve', 'CloudA', { type: 'String' }), version: '12.0.0', versions: ['12.0.0'] },
    { ...entry('noversion', 'CloudA', { type: 'String' }), version: undefined, versions: [] },
    entry('split-major', 'CloudA', { type: 'String' }),
    { ...entry('split-major', 'CloudB', { type: 'String' }), version: '2.0.0', versions: ['2.0.0'] },
    entry('casing-split', 'CloudA', { type: 'String' }),
    { ...entry('casing-split', 'CloudB', {}), parameters: { P: { type: 'String' } } },
    { ...entry('deprecated-split', 'CloudA', { type: 'String', defaultValue: 'x' }), deprecated: true },
    entry('deprecated-split', 'CloudB', { type: 'String', defaultValue: 'x' }),
    { ...entry('deprecated-both', 'CloudA', { type: 'String', defaultValue: 'x' }), deprecated: true },
    { ...entry('deprecated-both', 'CloudB', { type: 'String', defaultValue: 'x' }), deprecated: true },
    entry('float', 'CloudA', { type: 'Float' }),
    entry('date', 'CloudA', { type: 'DateTime' }),
    entry('flow-split', 'CloudA', { type: 'Array' }),
    entry('flow-split', 'CloudB', { type: 'String' }),
  ]);
  return c;
}

export const withVariants = { definitions: variantsCatalog() };

/** The same, with the type check (PS8003, which reports these values itself) off. */
export const withVariantsUntyped = { definitions: withVariants.definitions, severities: { PS8003: 'off' as const } };

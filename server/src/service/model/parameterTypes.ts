/** The parameter types of the spec (A2 ParameterType), shared by the set model and the definitions catalog. */
export const PARAMETER_TYPES = ['String', 'Array', 'Object', 'Boolean', 'Integer', 'Float', 'DateTime'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

const TYPE_BY_LOWER = new Map<string, ParameterType>(PARAMETER_TYPES.map((t) => [t.toLowerCase(), t]));

/** The canonical spelling of a parameter type written in any casing, or undefined for an unknown type. */
export function canonicalParameterType(value: string | undefined): ParameterType | undefined {
  return value === undefined ? undefined : TYPE_BY_LOWER.get(value.toLowerCase());
}

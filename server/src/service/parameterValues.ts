import { jsonTypeOf } from './json';
import type { ParameterType } from './model/policySet';

/** Whether a JSON value fits a parameter type as the service checks it. */
export function fitsParameterType(value: unknown, type: ParameterType): boolean {
  const json = jsonTypeOf(value);
  switch (type) {
    case 'String':
    case 'DateTime':
      return json === 'string';
    case 'Integer':
      return json === 'integer';
    case 'Float':
      return json === 'integer' || json === 'number';
    case 'Boolean':
      return json === 'boolean';
    case 'Array':
      return json === 'array';
    case 'Object':
      return json === 'object';
  }
}

function looseEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => looseEquals(x, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => looseEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Whether a value is allowed: equal to an allowed value (strings case-insensitively), or, for an array,
 * every element allowed (allowedValues of Array parameters list the elements).
 */
export function isAllowedValue(value: unknown, allowed: unknown[]): boolean {
  if (allowed.includes(value) || allowed.some((a) => looseEquals(a, value))) return true;
  if (!Array.isArray(value)) return false;
  const exact = new Set(allowed);
  return value.every((element) => exact.has(element) || allowed.some((a) => looseEquals(a, element)));
}

export function shortJson(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

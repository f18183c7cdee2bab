// The condition operators with the service's comparison rules: strings compared case-insensitively (but
// match), booleans and numbers compared with their string forms, like with '*', match with '#' and '?'.
import { Unknown, isObject, type Json } from './types';
import { describe, parseDate } from './values';

const scalarText = (value: Json): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

/** Equality as the conditions use it: scalars by their text, case-insensitively; arrays and objects member by member. */
export function deepEquals(a: Json | undefined, b: Json | undefined, ignoreCase = true): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a === null || b === null) return a === b;
  const sa = scalarText(a);
  const sb = scalarText(b);
  if (sa !== undefined || sb !== undefined) {
    if (sa === undefined || sb === undefined) return false;
    if (!ignoreCase) return typeof a === typeof b && sa === sb;
    return sa.toLowerCase() === sb.toLowerCase();
  }
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEquals(x, b[i], ignoreCase));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (!isObject(a) || !isObject(b) || ka.length !== kb.length) return false;
  return ka.every((k) => {
    const other = kb.find((x) => (ignoreCase ? x.toLowerCase() === k.toLowerCase() : x === k));
    return other !== undefined && deepEquals(a[k], b[other], ignoreCase);
  });
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function like(value: string, pattern: string): boolean {
  return new RegExp(`^${pattern.split('*').map(escapeRegex).join('[\\s\\S]*')}$`, 'i').test(value);
}

/** match: '#' a digit, '?' a letter, '.' any character, anything else itself. */
export function matchPattern(value: string, pattern: string, ignoreCase: boolean): boolean {
  const source = [...pattern].map((c) => (c === '#' ? '[0-9]' : c === '?' ? '[A-Za-z]' : c === '.' ? '[\\s\\S]' : escapeRegex(c))).join('');
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '').test(value);
}

/** The ordering of less/greater: numbers, dates, or strings compared case-insensitively; anything else is an error in the service. */
export function order(value: Json | undefined, expected: Json): number {
  if (typeof value === 'number' && typeof expected === 'number') return value - expected;
  if (typeof value === 'string' && typeof expected === 'string') {
    const [dv, de] = [parseDate(value), parseDate(expected)];
    if (dv !== undefined && de !== undefined) return dv - de;
    const [a, b] = [value.toLowerCase(), expected.toLowerCase()];
    return a < b ? -1 : a > b ? 1 : 0;
  }
  throw new Unknown(`cannot order ${describe(value)} against ${describe(expected)}: the service fails such a comparison`);
}

const asText = (value: Json | undefined): string | undefined => (value === undefined ? undefined : scalarText(value));

/** One condition's operator on a value read (undefined: absent). Throws Unknown when the service would fail. */
export function applyOperator(operator: string, value: Json | undefined, expected: Json): boolean {
  switch (operator) {
    case 'equals':
      return value !== undefined && deepEquals(value, expected);
    case 'notequals':
      return !(value !== undefined && deepEquals(value, expected));
    case 'like':
    case 'notlike': {
      const text = asText(value);
      const hit = text !== undefined && like(text, expectText(expected, operator));
      return operator === 'like' ? hit : !hit;
    }
    case 'match':
    case 'notmatch':
    case 'matchinsensitively':
    case 'notmatchinsensitively': {
      const text = asText(value);
      const hit = text !== undefined && matchPattern(text, expectText(expected, operator), operator.endsWith('insensitively'));
      return operator.startsWith('not') ? !hit : hit;
    }
    case 'contains':
    case 'notcontains': {
      let hit = false;
      if (typeof value === 'string') hit = value.toLowerCase().includes(expectText(expected, operator).toLowerCase());
      else if (Array.isArray(value)) hit = value.some((x) => deepEquals(x, expected));
      return operator === 'contains' ? hit : !hit;
    }
    case 'in':
    case 'notin': {
      if (!Array.isArray(expected)) throw new Unknown(`'${operator}' expects an array, got ${describe(expected)}`);
      const hit = value !== undefined && expected.some((x) => deepEquals(value, x));
      return operator === 'in' ? hit : !hit;
    }
    case 'containskey':
    case 'notcontainskey': {
      const key = expectText(expected, operator).toLowerCase();
      const hit = isObject(value) && Object.keys(value).some((k) => k.toLowerCase() === key);
      return operator === 'containskey' ? hit : !hit;
    }
    case 'less':
      return order(value, expected) < 0;
    case 'lessorequals':
      return order(value, expected) <= 0;
    case 'greater':
      return order(value, expected) > 0;
    case 'greaterorequals':
      return order(value, expected) >= 0;
    case 'exists': {
      const want =
        typeof expected === 'boolean'
          ? expected
          : typeof expected === 'string' && /^(true|false)$/i.test(expected)
            ? expected.toLowerCase() === 'true'
            : undefined;
      if (want === undefined) throw new Unknown(`'exists' expects true or false, got ${describe(expected)}`);
      return (value !== undefined && value !== null) === want;
    }
  }
  throw new Unknown(`the condition '${operator}' is not a condition the service knows`);
}

function expectText(expected: Json, operator: string): string {
  const text = scalarText(expected);
  if (text === undefined) throw new Unknown(`'${operator}' expects a string, got ${describe(expected)}`);
  return text;
}

export const OPERATORS = [
  'equals',
  'notEquals',
  'like',
  'notLike',
  'match',
  'matchInsensitively',
  'notMatch',
  'notMatchInsensitively',
  'contains',
  'notContains',
  'in',
  'notIn',
  'containsKey',
  'notContainsKey',
  'less',
  'lessOrEquals',
  'greater',
  'greaterOrEquals',
  'exists',
];

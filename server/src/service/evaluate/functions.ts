// The template functions a policy rule may call, evaluated offline. The scope's own functions (parameters,
// field, current, policy, requestContext, resourceGroup, subscription, utcNow) come from scope.ts.
// A function that is not here is reported as unknown with its name: never guessed.
import { Unknown, isObject, type Json, type JsonObject } from './types';
import { deepEquals } from './compare';
import { ipRangeContains } from './ipRange';
import { describe, parseDate } from './values';

type Fn = (args: Json[]) => Json;

const str = (value: Json, fn: string): string => {
  if (typeof value !== 'string') throw new Unknown(`${fn}() expects a string, got ${describe(value)}`);
  return value;
};
const int = (value: Json, fn: string): number => {
  if (typeof value !== 'number') throw new Unknown(`${fn}() expects a number, got ${describe(value)}`);
  return value;
};
const arity = (args: Json[], fn: string, min: number, max = min): void => {
  if (args.length < min || args.length > max)
    throw new Unknown(`${fn}() takes ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length}`);
};
const truncate = (n: number): number => Math.trunc(n);

function compareValues(a: Json, b: Json, fn: string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new Unknown(`${fn}() compares two numbers or two strings, got ${describe(a)} and ${describe(b)}`);
}

function emptyOf(value: Json): boolean {
  if (value === null) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.keys(value).length === 0;
  throw new Unknown(`empty() expects a string, an array or an object, got ${describe(value)}`);
}

function lengthOf(value: Json): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (isObject(value)) return Object.keys(value).length;
  throw new Unknown(`length() expects a string, an array or an object, got ${describe(value)}`);
}

function containsOf(container: Json, item: Json): boolean {
  // The template function: case-sensitive for strings, equality for array items, key for objects.
  if (typeof container === 'string') return container.includes(String(item));
  if (Array.isArray(container)) return container.some((x) => deepEquals(x, item, false));
  if (isObject(container)) return typeof item === 'string' && Object.keys(container).some((k) => k.toLowerCase() === item.toLowerCase());
  throw new Unknown(`contains() expects a string, an array or an object, got ${describe(container)}`);
}

function union(args: Json[]): Json {
  if (args.every(Array.isArray)) {
    const out: Json[] = [];
    for (const a of args as Json[][]) for (const x of a) if (!out.some((y) => deepEquals(x, y, false))) out.push(x);
    return out;
  }
  if (args.every(isObject)) return Object.assign({}, ...(args as JsonObject[])) as JsonObject;
  throw new Unknown('union() takes arrays or objects, all of one kind');
}

function intersection(args: Json[]): Json {
  if (args.every(Array.isArray)) {
    const [first, ...rest] = args as Json[][];
    return first.filter(
      (x, i) => first.findIndex((y) => deepEquals(x, y, false)) === i && rest.every((a) => a.some((y) => deepEquals(x, y, false))),
    );
  }
  if (args.every(isObject)) {
    const [first, ...rest] = args as JsonObject[];
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(first)) if (rest.every((o) => k in o && deepEquals(o[k], v, false))) out[k] = v;
    return out;
  }
  throw new Unknown('intersection() takes arrays or objects, all of one kind');
}

function toInt(value: Json): number {
  if (typeof value === 'number') return truncate(value);
  if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return Number(value);
  throw new Unknown(`int() cannot convert ${describe(value)}`);
}

function toBool(value: Json): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new Unknown(`bool() cannot convert ${describe(value)}`);
}

function toStringValue(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

const utf8 = (text: string): number[] => Array.from(new TextEncoder().encode(text));
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function base64(text: string): string {
  const bytes = utf8(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (b === undefined ? '=' : B64[(n >> 6) & 63]) + (c === undefined ? '=' : B64[n & 63]);
  }
  return out;
}
function base64ToString(text: string): string {
  const clean = text.replace(/=+$/, '');
  const bytes: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of clean) {
    const v = B64.indexOf(ch);
    if (v < 0) throw new Unknown('base64ToString() got a string that is not base64');
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 255);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function addDays(args: Json[]): Json {
  arity(args, 'addDays', 2, 3);
  if (args.length === 3) throw new Unknown('addDays() with a format is not evaluated offline');
  const time = parseDate(str(args[0], 'addDays'));
  if (time === undefined) throw new Unknown(`addDays() cannot read the date '${String(args[0])}'`);
  return new Date(time + int(args[1], 'addDays') * 86_400_000).toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
}

export const FUNCTIONS: Record<string, Fn> = {
  concat: (a) =>
    a.every(Array.isArray) && a.length
      ? (a as Json[][]).flat()
      : a
          .map((x) => (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' ? toStringValue(x) : JSON.stringify(x)))
          .join(''),
  if: (a) => (arity(a, 'if', 3), toBool(a[0]) ? a[1] : a[2]),
  equals: (a) => (arity(a, 'equals', 2), deepEquals(a[0], a[1], false)),
  empty: (a) => (arity(a, 'empty', 1), emptyOf(a[0])),
  first: (a) => {
    arity(a, 'first', 1);
    const v = a[0];
    if (typeof v === 'string') return v.slice(0, 1);
    if (Array.isArray(v)) return v.length ? v[0] : null;
    throw new Unknown(`first() expects a string or an array, got ${describe(v)}`);
  },
  last: (a) => {
    arity(a, 'last', 1);
    const v = a[0];
    if (typeof v === 'string') return v.slice(-1);
    if (Array.isArray(v)) return v.length ? v[v.length - 1] : null;
    throw new Unknown(`last() expects a string or an array, got ${describe(v)}`);
  },
  length: (a) => (arity(a, 'length', 1), lengthOf(a[0])),
  split: (a) => {
    arity(a, 'split', 2);
    const text = str(a[0], 'split');
    const delimiters = Array.isArray(a[1]) ? a[1].map((d) => str(d, 'split')) : [str(a[1], 'split')];
    let parts = [text];
    for (const d of delimiters) parts = parts.flatMap((p) => p.split(d));
    return parts;
  },
  replace: (a) => (arity(a, 'replace', 3), str(a[0], 'replace').split(str(a[1], 'replace')).join(str(a[2], 'replace'))),
  tolower: (a) => (arity(a, 'toLower', 1), str(a[0], 'toLower').toLowerCase()),
  toupper: (a) => (arity(a, 'toUpper', 1), str(a[0], 'toUpper').toUpperCase()),
  substring: (a) => {
    arity(a, 'substring', 1, 3);
    const text = str(a[0], 'substring');
    const start = a.length > 1 ? int(a[1], 'substring') : 0;
    const length = a.length > 2 ? int(a[2], 'substring') : text.length - start;
    if (start < 0 || length < 0 || start + length > text.length)
      throw new Unknown(`substring() range ${start}+${length} is outside '${text}' (the service fails the evaluation)`);
    return text.substr(start, length);
  },
  contains: (a) => (arity(a, 'contains', 2), containsOf(a[0], a[1])),
  createarray: (a) => a,
  array: (a) => (arity(a, 'array', 1), Array.isArray(a[0]) ? a[0] : [a[0]]),
  createobject: (a) => {
    if (a.length % 2) throw new Unknown('createObject() takes pairs of key and value');
    const out: JsonObject = {};
    for (let i = 0; i < a.length; i += 2) out[str(a[i], 'createObject')] = a[i + 1];
    return out;
  },
  union: (a) => union(a),
  intersection: (a) => intersection(a),
  int: (a) => (arity(a, 'int', 1), toInt(a[0])),
  string: (a) => (arity(a, 'string', 1), toStringValue(a[0])),
  bool: (a) => (arity(a, 'bool', 1), toBool(a[0])),
  json: (a) => {
    arity(a, 'json', 1);
    try {
      return JSON.parse(str(a[0], 'json')) as Json;
    } catch {
      throw new Unknown('json() got text that is not JSON');
    }
  },
  base64: (a) => (arity(a, 'base64', 1), base64(str(a[0], 'base64'))),
  base64tostring: (a) => (arity(a, 'base64ToString', 1), base64ToString(str(a[0], 'base64ToString'))),
  padleft: (a) => {
    arity(a, 'padLeft', 2, 3);
    const pad = a.length > 2 ? str(a[2], 'padLeft') : ' ';
    if (pad.length !== 1) throw new Unknown('padLeft() pads with one character');
    return toStringValue(a[0]).padStart(int(a[1], 'padLeft'), pad);
  },
  add: (a) => (arity(a, 'add', 2), int(a[0], 'add') + int(a[1], 'add')),
  sub: (a) => (arity(a, 'sub', 2), int(a[0], 'sub') - int(a[1], 'sub')),
  mul: (a) => (arity(a, 'mul', 2), int(a[0], 'mul') * int(a[1], 'mul')),
  div: (a) => {
    arity(a, 'div', 2);
    if (int(a[1], 'div') === 0) throw new Unknown('div() by zero');
    return truncate(int(a[0], 'div') / int(a[1], 'div'));
  },
  mod: (a) => {
    arity(a, 'mod', 2);
    if (int(a[1], 'mod') === 0) throw new Unknown('mod() by zero');
    return int(a[0], 'mod') % int(a[1], 'mod');
  },
  min: (a) => Math.min(...(a.length === 1 && Array.isArray(a[0]) ? a[0] : a).map((x) => int(x, 'min'))),
  max: (a) => Math.max(...(a.length === 1 && Array.isArray(a[0]) ? a[0] : a).map((x) => int(x, 'max'))),
  less: (a) => (arity(a, 'less', 2), compareValues(a[0], a[1], 'less') < 0),
  lessorequals: (a) => (arity(a, 'lessOrEquals', 2), compareValues(a[0], a[1], 'lessOrEquals') <= 0),
  greater: (a) => (arity(a, 'greater', 2), compareValues(a[0], a[1], 'greater') > 0),
  greaterorequals: (a) => (arity(a, 'greaterOrEquals', 2), compareValues(a[0], a[1], 'greaterOrEquals') >= 0),
  and: (a) => a.map(toBool).every(Boolean),
  or: (a) => a.map(toBool).some(Boolean),
  not: (a) => (arity(a, 'not', 1), !toBool(a[0])),
  coalesce: (a) => a.find((x) => x !== null) ?? null,
  indexof: (a) => (
    arity(a, 'indexOf', 2),
    Array.isArray(a[0])
      ? a[0].findIndex((x) => deepEquals(x, a[1], false))
      : str(a[0], 'indexOf').toLowerCase().indexOf(str(a[1], 'indexOf').toLowerCase())
  ),
  lastindexof: (a) => (
    arity(a, 'lastIndexOf', 2),
    str(a[0], 'lastIndexOf').toLowerCase().lastIndexOf(str(a[1], 'lastIndexOf').toLowerCase())
  ),
  trim: (a) => (arity(a, 'trim', 1), str(a[0], 'trim').trim()),
  startswith: (a) => (arity(a, 'startsWith', 2), str(a[0], 'startsWith').toLowerCase().startsWith(str(a[1], 'startsWith').toLowerCase())),
  endswith: (a) => (arity(a, 'endsWith', 2), str(a[0], 'endsWith').toLowerCase().endsWith(str(a[1], 'endsWith').toLowerCase())),
  skip: (a) => (
    arity(a, 'skip', 2),
    Array.isArray(a[0]) ? a[0].slice(Math.max(0, int(a[1], 'skip'))) : str(a[0], 'skip').slice(Math.max(0, int(a[1], 'skip')))
  ),
  take: (a) => (
    arity(a, 'take', 2),
    Array.isArray(a[0]) ? a[0].slice(0, Math.max(0, int(a[1], 'take'))) : str(a[0], 'take').slice(0, Math.max(0, int(a[1], 'take')))
  ),
  adddays: addDays,
  true: (a) => (arity(a, 'true', 0), true),
  false: (a) => (arity(a, 'false', 0), false),
  null: (a) => (arity(a, 'null', 0), null),
  range: (a) => {
    arity(a, 'range', 2);
    const [start, count] = [int(a[0], 'range'), int(a[1], 'range')];
    if (count < 0 || count > 10000) throw new Unknown('range() count must be 0 to 10000');
    return Array.from({ length: count }, (_, i) => start + i);
  },
  iprangecontains: (a) => (arity(a, 'ipRangeContains', 2), ipRangeContains(str(a[0], 'ipRangeContains'), str(a[1], 'ipRangeContains'))),
};

/** Functions the service documents as not usable in policy rules, or that need the live service. */
export const NOT_OFFLINE = new Set([
  'reference',
  'resourceid',
  'subscriptionresourceid',
  'tenantresourceid',
  'extensionresourceid',
  'deployment',
  'environment',
  'variables',
  'listkeys',
  'listsecrets',
  'listaccountsas',
  'newguid',
  'pickzones',
  'providers',
  'managementgroup',
  'tenant',
  'copyindex',
  'lambda',
  'datetimeadd',
  'datetimefromepoch',
  'datetimetoepoch',
]);

// The minimal resource a definition is evaluated on in the evaluate bench: the type its rule names (the
// first `field: type` with equals, or the first of its `in`), a location, no properties.
import type { Json, JsonObject } from '#server/service/evaluate/index';

const SUB = '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg';

function typeOf(node: Json | undefined): string | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const t = typeOf(n);
      if (t) return t;
    }
    return undefined;
  }
  if (!node || typeof node !== 'object') return undefined;
  const field = node.field;
  if (typeof field === 'string' && field.toLowerCase() === 'type') {
    if (typeof node.equals === 'string' && !node.equals.startsWith('[')) return node.equals;
    if (Array.isArray(node.in) && typeof node.in[0] === 'string') return node.in[0];
    if (typeof node.like === 'string' && !node.like.includes('*')) return node.like;
  }
  for (const key of ['allOf', 'anyOf']) {
    const t = typeOf(node[key]);
    if (t) return t;
  }
  return undefined;
}

export function minimalResourceFor(properties: JsonObject): JsonObject {
  const rule = properties.policyRule as JsonObject;
  const type = typeOf(rule.if) ?? 'Microsoft.Resources/resourceGroups';
  const name = 'example';
  const [namespace, ...types] = type.split('/');
  const names = types.map((_, i) => (i === types.length - 1 ? name : `parent${i}`));
  const id = `${SUB}/providers/${namespace}/${types.map((t, i) => `${t}/${names[i]}`).join('/')}`;
  return { id, name, type, location: 'westeurope', tags: {}, properties: {} };
}

/** Every parameter its default; one without a default gets an allowed value or a value of its type; a Disabled effect a live one. */
export function benchParameters(properties: JsonObject): JsonObject {
  const out: JsonObject = {};
  const declared = (properties.parameters ?? {}) as JsonObject;
  for (const [name, raw] of Object.entries(declared)) {
    const p = raw as JsonObject;
    const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : undefined;
    let value: Json | undefined = p.defaultValue;
    if (typeof value === 'string' && value.toLowerCase() === 'disabled' && allowed)
      value = allowed.find((a) => typeof a === 'string' && a.toLowerCase() !== 'disabled') ?? value;
    if (value === undefined && allowed?.length) value = allowed[0];
    if (value === undefined) {
      const type = String(p.type ?? 'string').toLowerCase();
      value =
        type === 'array'
          ? []
          : type === 'object'
            ? {}
            : type === 'boolean'
              ? false
              : type === 'integer' || type === 'float'
                ? 0
                : 'example';
    }
    out[name] = { value };
  }
  return out;
}

// The functions that read the evaluation's scope: parameters(), field(), current(), policy(), requestContext(),
// resourceGroup(), subscription(), utcNow(); the rest come from functions.ts. `if` is lazy, as in templates.
import { evaluateValue, type Expr, type Functions } from './expression';
import { FUNCTIONS, NOT_OFFLINE } from './functions';
import { readField, readPath, resolveField, type Path } from './aliases';
import { Unknown, isObject, type EvaluationContext, type Json, type JsonObject, type Resource } from './types';

/** An array member being counted: `current()` reads it, and fields under the count's array are read from it. */
export interface CountFrame {
  /** A value count's name. */
  name?: string;
  /** A field count's alias as written (lowercased) and the path it resolved to. */
  alias?: string;
  path?: Path;
  value: Json | undefined;
}

export interface Scope {
  resource: Resource;
  context: EvaluationContext;
  /** Parameter values by lowercased name. */
  parameters: Map<string, Json>;
  /** policy(): assignmentId, definitionId, setDefinitionId, definitionReferenceId. */
  policy: JsonObject;
  frames: CountFrame[];
  /** In an existenceCondition: the resource that field() in expressions reads (conditions read the related one). */
  fieldFunctionResource?: Resource;
}

const startsWithPath = (path: Path, prefix: Path) =>
  prefix.length <= path.length && prefix.every((p, i) => p.toLowerCase() === path[i].toLowerCase());

/** Reads a field, from the member being counted when the field lies under a count's array. */
export function readFieldIn(scope: Scope, field: string): { multi: boolean; values: Array<Json | undefined>; how: string } {
  const resolved = resolveField(field, scope.resource, scope.context.aliases);
  if (resolved.path) {
    for (let i = scope.frames.length - 1; i >= 0; i--) {
      const frame = scope.frames[i];
      if (frame.path && startsWithPath(resolved.path, frame.path)) {
        return {
          ...readPath(frame.value, resolved.path.slice(frame.path.length), resolved.how === 'top-level' ? Infinity : 0),
          how: `${resolved.how}, in the counted member`,
        };
      }
    }
  }
  return { ...readField(resolved, scope.resource), how: resolved.how };
}

function current(scope: Scope, args: Json[]): Json {
  if (!scope.frames.length) throw new Unknown('current() is used outside a count');
  if (!args.length) return scope.frames[scope.frames.length - 1].value ?? null;
  const key = String(args[0]).toLowerCase();
  for (let i = scope.frames.length - 1; i >= 0; i--) {
    const frame = scope.frames[i];
    if (frame.name?.toLowerCase() === key || frame.alias === key) return frame.value ?? null;
  }
  throw new Unknown(`current('${String(args[0])}') names no enclosing count`);
}

function utcNow(scope: Scope, args: Json[]): Json {
  if (!scope.context.now) throw new Unknown('utcNow() needs the clock: give it (--now, or "now" in a fixture)');
  if (args.length && !['u', 's', 'o'].includes(String(args[0])))
    throw new Unknown(`utcNow('${String(args[0])}') with a custom format is not evaluated offline`);
  return scope.context.now;
}

function contextObject(value: JsonObject | undefined, fn: string): Json {
  if (!value)
    throw new Unknown(`${fn}() needs the ${fn === 'resourceGroup' ? 'resource group' : 'subscription'} of the evaluation (a context)`);
  return value;
}

/** The functions table for a scope. */
export function functionsFor(scope: Scope): Functions {
  const own: Record<string, (args: Json[]) => Json> = {
    parameters: (args) => {
      const name = String(args[0]);
      const value = scope.parameters.get(name.toLowerCase());
      if (value === undefined) throw new Unknown(`the parameter '${name}' has no value (none given, no default)`);
      return value;
    },
    field: (args) => {
      const from = scope.fieldFunctionResource
        ? { ...scope, resource: scope.fieldFunctionResource, frames: [], fieldFunctionResource: undefined }
        : scope;
      const read = readFieldIn(from, String(args[0]));
      if (read.multi) return read.values.map((v) => v ?? null);
      return read.values[0] ?? null;
    },
    current: (args) => current(scope, args),
    policy: () => scope.policy,
    requestcontext: () => {
      if (!scope.context.apiVersion) throw new Unknown('requestContext() needs the request\'s API version (a context "apiVersion")');
      return { apiVersion: scope.context.apiVersion };
    },
    resourcegroup: () => contextObject(scope.context.resourceGroup, 'resourceGroup'),
    subscription: () => contextObject(scope.context.subscription, 'subscription'),
    utcnow: (args) => utcNow(scope, args),
  };
  const functions: Functions = {
    call(name, args: Expr[], evaluate) {
      const lower = name.toLowerCase();
      if (lower === 'if') {
        if (args.length !== 3) throw new Unknown(`if() takes 3 arguments, got ${args.length}`);
        const test = evaluate(args[0]);
        if (typeof test !== 'boolean') throw new Unknown('if() expects a boolean condition');
        return evaluate(test ? args[1] : args[2]);
      }
      const fn = own[lower] ?? FUNCTIONS[lower];
      if (fn) return fn(args.map(evaluate));
      if (NOT_OFFLINE.has(lower)) throw new Unknown(`the function '${name}()' is not evaluated offline`);
      throw new Unknown(`the function '${name}()' is not supported by the evaluator`);
    },
  };
  return functions;
}

/** A value of the rule (a string expression or a literal) evaluated in a scope. */
export function valueIn(scope: Scope, value: Json): Json {
  return evaluateValue(value, functionsFor(scope));
}

/** Values of an object evaluated recursively (details, operations): strings that are expressions are evaluated. */
export function deepValueIn(scope: Scope, value: Json): Json {
  if (typeof value === 'string') return valueIn(scope, value);
  if (Array.isArray(value)) return value.map((v) => deepValueIn(scope, v));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepValueIn(scope, v)]));
  return value;
}

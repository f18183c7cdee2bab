import { items, property, valueOf, type Node } from '../json';
import { compileParameterSchema, type CompiledParameterSchema } from '../schema/parameterSchema';
import type { ParameterDecl } from '../model/policySet';
import type { SetRuleContext } from './types';
import { isLiteral } from './literal';

export interface ParameterSchemaInfo {
  parameter: ParameterDecl;
  schemaNode: Node;
  compiled: CompiledParameterSchema;
}

const cache = new WeakMap<SetRuleContext['set'], ParameterSchemaInfo[]>();

/** The compiled `schema` of each Object parameter that has one (compiled once per set, cached per schema text). */
export function parameterSchemas(ctx: SetRuleContext): ParameterSchemaInfo[] {
  let result = cache.get(ctx.set);
  if (!result) {
    result = [];
    for (const parameter of ctx.set.parameters) {
      const schemaNode = property(parameter.node, 'schema');
      if (!schemaNode || schemaNode.type === 'null' || !isLiteral(ctx.set, schemaNode)) continue;
      if (parameter.type && parameter.type !== 'Object') continue;
      const source = ctx.text.slice(schemaNode.offset, schemaNode.offset + schemaNode.length);
      result.push({ parameter, schemaNode, compiled: compileParameterSchema(valueOf(schemaNode), source) });
    }
    cache.set(ctx.set, result);
  }
  return result;
}

/** defaultValue and every allowedValues entry of a parameter, as nodes. */
export function declaredValues(parameter: ParameterDecl): Node[] {
  const values: Node[] = [];
  const defaultValue = property(parameter.node, 'defaultValue');
  if (defaultValue) values.push(defaultValue);
  values.push(...items(property(parameter.node, 'allowedValues')));
  return values;
}

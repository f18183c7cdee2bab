// policySet/evaluate: the offline evaluator over documents the client sends (docs/evaluate.md). Pure work on
// the params: the Node and the Web Worker servers answer alike. Wrong params answer InvalidParams.
import {
  aliasCatalogue,
  evaluate,
  evaluationJson,
  namedBy,
  relatedIn,
  resourcesOf,
  type EvaluationContext,
  type JsonObject,
} from '../service';
import type { EvaluateParams } from './protocol';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export function evaluateRequest(params: EvaluateParams): ReturnType<typeof evaluationJson> {
  if (!params || !isObject(params.target)) throw new Error('give target (a set or definition document) and resources');
  const resources = resourcesOf((params.resources ?? null) as never);
  if (!resources.length) throw new Error('resources holds no resource');
  const definitions = (Array.isArray(params.definitions) ? params.definitions : []).filter(isObject);
  const target = params.target;
  const context: EvaluationContext = {};
  if (isObject(params.context)) {
    const c = params.context;
    if (isObject(c.subscription)) context.subscription = c.subscription;
    if (isObject(c.resourceGroup)) context.resourceGroup = c.resourceGroup;
    if (typeof c.apiVersion === 'string') context.apiVersion = c.apiVersion;
    if (typeof c.now === 'string') context.now = c.now;
  }
  // auditIfNotExists and deployIfNotExists look among every resource given, as the CLI's.
  context.relatedResources = [
    ...resources,
    ...relatedIn((params.resources ?? null) as never),
    ...(params.related !== undefined ? resourcesOf((params.related ?? null) as never) : []),
  ];
  if (params.aliases !== undefined) context.aliases = aliasCatalogue(params.aliases);
  const findDefinition = (id: string) => [...definitions, target].find((d) => namedBy(d, id));
  const assignment = isObject(params.assignment) ? params.assignment : undefined;
  const exemptions = (Array.isArray(params.exemptions) ? params.exemptions : []).filter(isObject);
  return evaluationJson(
    resources.map((resource) => ({ resource, results: evaluate({ target, findDefinition, assignment, exemptions, context }, resource) })),
  );
}

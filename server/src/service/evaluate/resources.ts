// The resources of an input file: one resource, an array, an ARM template's `resources` (nested ones too),
// a deployment what-if/snapshot's `predictedResources` (or its `changes[].after`), or `{ "resource" | "resources",
// "relatedResources" }` (the related ones read by relatedIn).
import { getIgnoreCase, isObject, type Json, type Resource } from './types';

function templateResources(list: Json[], parent: Resource | undefined, out: Resource[]): void {
  for (const item of list) {
    if (!isObject(item)) continue;
    let resource: Resource = item;
    // A nested resource's type and name are relative to its parent's: its type does not start with a namespace.
    if (parent && typeof item.type === 'string' && !item.type.split('/')[0].includes('.') && typeof parent.type === 'string') {
      resource = { ...item, type: `${parent.type}/${item.type}`, name: `${String(parent.name)}/${String(item.name)}` };
    }
    const { resources: children, ...own } = resource;
    out.push(own);
    if (Array.isArray(children)) templateResources(children, own, out);
  }
}

export function resourcesOf(document: Json): Resource[] {
  if (Array.isArray(document)) return document.filter(isObject);
  if (!isObject(document)) return [];
  const predicted =
    getIgnoreCase(document, 'predictedResources') ??
    (isObject(document.properties) ? getIgnoreCase(document.properties, 'predictedResources') : undefined);
  if (Array.isArray(predicted)) return predicted.filter(isObject);
  const changes =
    getIgnoreCase(document, 'changes') ?? (isObject(document.properties) ? getIgnoreCase(document.properties, 'changes') : undefined);
  if (Array.isArray(changes)) return changes.flatMap((c) => (isObject(c) && isObject(c.after) ? [c.after] : []));
  const resources = getIgnoreCase(document, 'resources');
  const single = getIgnoreCase(document, 'resource');
  if (isObject(single) && typeof document.type !== 'string') return [single];
  if (
    Array.isArray(resources) &&
    (typeof document.type !== 'string' ||
      getIgnoreCase(document, '$schema') !== undefined ||
      getIgnoreCase(document, 'contentVersion') !== undefined)
  ) {
    const out: Resource[] = [];
    templateResources(resources, undefined, out);
    return out;
  }
  if (isObject(resources)) return Object.values(resources).filter(isObject); // a symbolic-name template
  return [document];
}

/** The related resources a wrapper names beside its resources (`relatedResources` or `related`). */
export function relatedIn(document: Json): Resource[] {
  if (!isObject(document) || typeof document.type === 'string') return [];
  const related = getIgnoreCase(document, 'relatedResources') ?? getIgnoreCase(document, 'related');
  return Array.isArray(related) ? related.flatMap((r) => resourcesOf(r)) : [];
}

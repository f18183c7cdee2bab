// Where consumers name a set's parameters and members: what a change to the set breaks (`policyset diff
// --consumers`), and what renaming a parameter or a reference ID must edit.
import { normalizeDefinitionId } from '../definitionIds';
import type { Node } from '../json';
import type { ConsumerModel } from './model';

export interface ConsumerUse {
  what: 'parameter' | 'referenceId';
  /** The name as the consumer writes it. */
  name: string;
  /** The parameter's key, or the reference ID's string. */
  node: Node;
}

/** A set as its consumers name it: by its name (the last segment of an ID at any scope) or its full ID. */
export interface SetIdentity {
  name: string;
  id?: string;
}

/** Whether a consumer assigns the set (one of its targets names it; a target that is an unread expression does not). */
export function assignsSet(
  consumer: { targets: ReadonlyArray<Pick<ConsumerModel['targets'][number], 'kind' | 'text'>> },
  set: SetIdentity,
): boolean {
  const name = set.name.toLowerCase();
  return consumer.targets.some((target) => {
    if (target.kind !== 'set' || target.text === undefined) return false;
    if (!target.text.includes('/')) return target.text.toLowerCase() === name;
    if (set.id && normalizeDefinitionId(set.id) === normalizeDefinitionId(target.text)) return true;
    return target.text.slice(target.text.lastIndexOf('/') + 1).toLowerCase() === name;
  });
}

/** Every place the consumers that assign `set` name one of its parameters or members. */
export function usesOfSet(consumers: ConsumerModel[], set: SetIdentity): ConsumerUse[] {
  const uses: ConsumerUse[] = [];
  for (const consumer of consumers) {
    if (!assignsSet(consumer, set)) continue;
    for (const parameter of consumer.parameters) uses.push({ what: 'parameter', name: parameter.name, node: parameter.keyNode });
    for (const reference of consumer.referenceIds) uses.push({ what: 'referenceId', name: reference.value, node: reference.node });
  }
  return uses;
}

/** The uses of one parameter or member (names compare case-insensitively, as the service compares them). */
export function usesOfName(consumers: ConsumerModel[], set: SetIdentity, what: ConsumerUse['what'], name: string): ConsumerUse[] {
  const lower = name.toLowerCase();
  return usesOfSet(consumers, set).filter((use) => use.what === what && use.name.toLowerCase() === lower);
}

// The code lens on a set: where the workspace assigns (and exempts from) it, with a command that opens those
// places (docs/consumers.md, "Code lens"). A consumer is matched to the set as the consumer rules resolve it.
import type { CodeLens, Location } from 'vscode-languageserver-types';
import { normalizeDefinitionId, type DefinitionCatalog } from '../definitions';
import { assignsSet, type ConsumerModel, type ConsumerTarget, type SetIdentity } from '../consumers';
import { stringContent } from '../json';
import type { PolicyDocument } from '../validate';
import { identityOf, type ConsumerDocument } from './consumerEdits';

export interface CodeLensOptions {
  definitions?: DefinitionCatalog;
  /** The client command the lens runs with `(uri, position, locations)`: the extension's, which shows them as references. */
  command: string;
}

const EXEMPTIONS = new Set<ConsumerModel['shape']>(['exemption', 'epacExemption']);

/**
 * Whether a target means the set, as the consumer rules resolve it (DefinitionCatalog.lookupSets): the set of
 * that exact ID when one is known, else every set of its name at any scope.
 */
function targetMeans(target: ConsumerTarget, set: SetIdentity, catalog: DefinitionCatalog | undefined): boolean {
  if (target.kind !== 'set' || target.text === undefined) return false;
  if (catalog && target.text.includes('/')) {
    const wanted = normalizeDefinitionId(target.text);
    const exact = catalog.lookupSets(target.text).find((info) => info.id && normalizeDefinitionId(info.id) === wanted);
    if (exact) return !!set.id && normalizeDefinitionId(set.id) === wanted;
  }
  return assignsSet({ targets: [target] }, set);
}

/**
 * One lens per set of a set document (not a set kept in a deployment template, which no consumer resolves
 * to): "assigned in N places" (and ", exempted in M") over the set's first line; its command lists the
 * consumers' `policyDefinitionId`/`policySetName`/`policySetDefinitionId` values. When nothing in the workspace
 * names the set: "not assigned in this workspace", if the workspace has consumers at all (in a folder of
 * sets alone the lens would say nothing worth a line), else no lens.
 */
export function getCodeLenses(document: PolicyDocument, uri: string, consumers: ConsumerDocument[], options: CodeLensOptions): CodeLens[] {
  if (document.kind !== 'policySetDefinition' && document.kind !== 'policySetDefinitionVersion') return [];
  const lenses: CodeLens[] = [];
  for (const set of document.sets) {
    const identity = identityOf(set);
    if (!identity) continue;
    const assigned: Location[] = [];
    const exempted: Location[] = [];
    for (const consumer of consumers) {
      for (const model of consumer.document.consumers) {
        for (const target of model.targets) {
          if (!targetMeans(target, identity, options.definitions)) continue;
          const { start, end } = stringContent(consumer.document.parsed.text, target.node);
          (EXEMPTIONS.has(model.shape) ? exempted : assigned).push({
            uri: consumer.uri,
            range: consumer.document.lines.rangeOf(start, end),
          });
        }
      }
    }
    const position = document.lines.rangeOf(set.resource.offset, set.resource.offset).start;
    const range = { start: position, end: position };
    if (!assigned.length && !exempted.length) {
      if (consumers.length) lenses.push({ range, command: { title: 'not assigned in this workspace', command: '' } });
      continue;
    }
    const places = (n: number) => `${n} place${n === 1 ? '' : 's'}`;
    const title = [
      assigned.length ? `assigned in ${places(assigned.length)}` : 'not assigned',
      ...(exempted.length ? [`exempted in ${places(exempted.length)}`] : []),
    ].join(', ');
    lenses.push({ range, command: { title, command: options.command, arguments: [uri, position, [...assigned, ...exempted]] } });
  }
  return lenses;
}

// A set's parameters and members as its consumers name them: the edits a rename makes in every consumer of the
// workspace, and the places find-references lists (docs/consumers.md).
import type { Location, TextEdit } from 'vscode-languageserver-types';
import { property, stringContent, stringValue } from '../json';
import { usesOfName, type ConsumerUse, type SetIdentity } from '../consumers';
import type { SetModel } from '../model/policySet';
import type { PolicyDocument } from '../validate';
import { targetAt } from './locate';

/** A consumer document of the workspace (open or read from disk), parsed. */
export interface ConsumerDocument {
  uri: string;
  document: PolicyDocument;
}

/** What a rename or find-references at a set's parameter or member is about, for its consumers. */
export interface ConsumerSubject {
  set: SetIdentity;
  what: ConsumerUse['what'];
  name: string;
}

/** The name consumers know a set by: its resource's name (the set part of '<set>/<version>'), else its ID's last segment. */
export function identityOf(set: SetModel): SetIdentity | undefined {
  const id = stringValue(property(set.resource, 'id'));
  const name = stringValue(property(set.resource, 'name'))?.split('/')[0] ?? id?.slice(id.lastIndexOf('/') + 1);
  if (!name || name.startsWith('[')) return undefined;
  return { name, ...(id ? { id } : {}) };
}

/** The set parameter (its declaration or a use) or the member's reference ID at the offset, as consumers name it. */
export function consumerSubjectAt(document: PolicyDocument, offset: number): ConsumerSubject | undefined {
  const target = targetAt(document, offset);
  if (!target || (target.type !== 'parameter' && target.type !== 'referenceId')) return undefined;
  if (target.type === 'parameter' && !target.declaration) return undefined;
  const set = identityOf(target.set);
  if (!set) return undefined;
  return {
    set,
    what: target.type === 'parameter' ? 'parameter' : 'referenceId',
    name: target.type === 'parameter' ? target.declaration!.name : target.name,
  };
}

/** Every consumer's place that names the subject: a parameter's key, a reference ID's string. */
export function consumerLocations(consumers: ConsumerDocument[], subject: ConsumerSubject): Location[] {
  const locations: Location[] = [];
  for (const { uri, document } of consumers) {
    for (const use of usesOfName(document.consumers, subject.set, subject.what, subject.name)) {
      const { start, end } = stringContent(document.parsed.text, use.node);
      locations.push({ uri, range: document.lines.rangeOf(start, end) });
    }
  }
  return locations;
}

/** The edits that rename the subject in every consumer that names it, by URI (none for consumers that do not). */
export function consumerRenameEdits(consumers: ConsumerDocument[], subject: ConsumerSubject, newName: string): Record<string, TextEdit[]> {
  const changes: Record<string, TextEdit[]> = {};
  const newText = JSON.stringify(newName).slice(1, -1);
  for (const location of consumerLocations(consumers, subject)) (changes[location.uri] ??= []).push({ range: location.range, newText });
  return changes;
}

import { compareSets, pairSides, readSides, versionOf, type SetSide } from '../versions';
import { checkVersions } from '../versions/version';
import { propertyIgnoreCase, stringValue } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import { replaceNode } from './support/edits';
import { nodeAt, setAt, stringData } from './support/fixes';
import { STRICT_VERSION } from './util';
import { breaksOf, type ConsumerBreak, type ConsumerSite } from '../consumers/breaks';
import type { Change } from '../versions';

/** The consumer places the changes break (those that take away a parameter or reference ID the consumers name). */
function consumerBreaks(changes: Change[], setName: string | undefined, sites: ConsumerSite[] | undefined): ConsumerBreak[] {
  if (!sites?.length || !setName) return [];
  const seen = new Set<string>();
  return changes
    .flatMap((change) => (change.subject ? breaksOf(change.subject, { name: setName }, sites) : []))
    .filter((b) => !seen.has(`${b.file}:${b.line}`) && !!seen.add(`${b.file}:${b.line}`));
}

/** " It breaks 2 assignments: a.json:16, b.json:4." (the places, at most five), or nothing. */
function describeBreaks(breaks: ConsumerBreak[]): string {
  if (!breaks.length) return '';
  const assignments = new Set(breaks.map((b) => `${b.consumer}:${b.file}`)).size;
  const places = breaks.slice(0, 5).map((b) => `${b.file}:${b.line}`);
  const more = breaks.length > 5 ? `, and ${breaks.length - 5} more` : '';
  return ` It breaks ${assignments} assignment${assignments === 1 ? '' : 's'}: ${places.join(', ')}${more}.`;
}

/** The set as this document has it, for the change model: locations are the rule runner's, so none are made here. */
function sideOf(ctx: Parameters<SetRule['check']>[0]): SetSide {
  const set = ctx.set;
  return {
    file: ctx.options.uri ?? 'document',
    set,
    name: stringValue(propertyIgnoreCase(set.resource, 'name')),
    version: versionOf(set),
    locate: () => ({
      file: ctx.options.uri ?? 'document',
      pointer: '',
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    }),
  };
}

export const versionNotBumped: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3006',
    name: 'version-not-bumped',
    description:
      'With an earlier version of the set to compare with (`policyset lint --against <git revision>`, or the committed text in the editor), the version must be greater than the earlier one and bumped at least as far as the changes require: major when assignments break, minor when they keep working, patch for words and metadata. See docs/versions.md.',
    fixable: 'version',
    defaultSeverity: 'error',
    messages: {
      tooLittle:
        "Version '{{value}}' is not bumped enough for the changes since {{against}} ({{old}}): they need a {{required}} version ({{changes}}); use '{{suggested}}'.{{breaks}}",
      notGreater:
        "Version '{{value}}' must be greater than '{{old}}' ({{against}}): the set changed ({{changes}}); use '{{suggested}}'.{{breaks}}",
      lower:
        "Version '{{value}}' is lower than '{{old}}' ({{against}}), and nothing changed that needs a new version: use '{{suggested}}'.",
    },
  },
  check(ctx) {
    const previous = ctx.options.previous;
    if (!previous) return;
    const read = readSides(previous.label, previous.text);
    // An earlier text that is no set (or not JSON) has nothing to compare with: not this rule's to report.
    if (!read.ok) return;
    const side = sideOf(ctx);
    const pair = pairSides(read.sides, [side]).find(([, next]) => next === side);
    const old = pair?.[0];
    if (!old?.version || !side.version || ctx.set.isDynamic(side.version.node)) return;
    const report = compareSets(old, side, { referenceAdded: previous.referenceAdded, referenceRemoved: previous.referenceRemoved });
    const check = checkVersions(old.version.text, side.version.text, report.requiredBump);
    // An odd version string is invalid-version's to report; a missing one has nothing to check.
    if (check.ok !== false || !check.suggested || !/^\d+\.\d+\.\d+$/.test(side.version.text)) return;
    const kinds = [...new Set(report.changes.filter((c) => c.bump === report.requiredBump).map((c) => c.kind))];
    const changes = kinds.slice(0, 3).join(', ') + (kinds.length > 3 ? ', ...' : '');
    const greater = check.reason === 'notGreater';
    const messageId = !kinds.length
      ? 'lower'
      : greater && report.requiredBump !== 'major' && report.requiredBump !== 'minor'
        ? 'notGreater'
        : 'tooLittle';
    // With the consumers known (lint --against), the places the changes break: in the message, as related information and in data.
    const breaks = messageId === 'lower' ? [] : consumerBreaks(report.changes, old.name, previous.consumers);
    ctx.report({
      node: side.version.node,
      messageId,
      data: {
        value: side.version.text,
        old: old.version.text,
        against: previous.label,
        required: report.requiredBump,
        suggested: check.suggested,
        changes,
        breaks: describeBreaks(breaks),
        ...(previous.consumers ? { consumerBreaks: breaks.map((b) => ({ file: b.file, line: b.line })) } : {}),
      },
      related: breaks.map((b) => ({
        location: { uri: b.file, line: b.line - 1, character: 0 },
        message: 'An assignment this change breaks',
      })),
    });
  },
  fix: writeSuggestedVersion,
};

/** version-not-bumped: writes the smallest version the changes allow (the rule's `suggested`). */
function writeSuggestedVersion(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  const node = nodeAt(ctx, 'string');
  const suggested = stringData(ctx, 'suggested');
  if (!found || !node || !suggested || !STRICT_VERSION.test(suggested) || found.set.isDynamic(node)) return [];
  const current = node.value as string;
  // A template's version resource is named '<set>/<version>': only the version changes.
  const segments = current.split('/');
  segments[segments.length - 1] = suggested;
  const version = segments.join('/');
  if (version === current) return [];
  return [
    {
      key: `${ctx.start}`,
      title: `Change the version to '${suggested}'`,
      edits: [replaceNode(node, version)],
      preferred: true,
      safe: true,
    },
  ];
}

import { compareSets, pairSides, readSides, versionOf, type SetSide } from '../versions';
import { checkVersions } from '../versions/version';
import { propertyIgnoreCase, stringValue } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import { replaceNode } from './support/edits';
import { nodeAt, setAt, stringData } from './support/fixes';
import { STRICT_VERSION } from './util';

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
        "Version '{{value}}' is not bumped enough for the changes since {{against}} ({{old}}): they need a {{required}} version ({{changes}}); use '{{suggested}}'.",
      notGreater: "Version '{{value}}' must be greater than '{{old}}' ({{against}}): the set changed ({{changes}}); use '{{suggested}}'.",
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
      },
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

import type { Node } from '../../json';
import type { Fix, FixContext } from '../types';
import { replaceNode } from './edits';

/** What the fixes of the version rules (invalid-version-name, invalid-version, invalid-definition-version) share. Pure. */

export const SUFFIX = /(-[0-9A-Za-z][0-9A-Za-z.-]*)$/;

/** `#.#.#` from a version with a `v` prefix or fewer components; `exact` when nothing but those was changed. */
export function normalizedVersion(value: string, keepSuffix: boolean): { version: string; exact: boolean } | undefined {
  const trimmed = value.trim();
  const suffix = keepSuffix ? (SUFFIX.exec(trimmed)?.[1] ?? '') : '';
  const core = suffix ? trimmed.slice(0, -suffix.length) : trimmed;
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/i.exec(core);
  if (!match) return undefined;
  return { version: `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}${suffix}`, exact: match[0].length === core.length };
}

export function versionFix(ctx: FixContext, node: Node, version: string, exact: boolean, current: string): Fix[] {
  if (version === current) return [];
  // Safe only when nothing but a `v` prefix or missing components was written: a version cut short is a person's choice.
  return [{ key: `${ctx.start}`, title: `Change to '${version}'`, edits: [replaceNode(node, version)], preferred: exact, safe: exact }];
}

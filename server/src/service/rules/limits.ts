/** Documented service limits. */
export const LIMITS = {
  references: 1000,
  parameters: 400,
  requestBytes: 1024 * 1024,
  displayName: 128,
  description: 512,
} as const;

import { property } from '../json';
import type { SetRule } from './types';

/** A rule for a set property whose text has a documented maximum length. */
export function lengthLimitRule(meta: { code: string; name: string; property: 'displayName' | 'description'; limit: number }): SetRule {
  return {
    scope: 'set',
    meta: {
      code: meta.code,
      name: meta.name,
      description: `A policy set's ${meta.property} may be at most ${meta.limit} characters.`,
      defaultSeverity: 'warning',
      messages: { tooLong: `${meta.property} is {{length}} characters; the limit is ${meta.limit}.` },
    },
    check(ctx) {
      const node = property(ctx.set.properties, meta.property);
      if (node?.type === 'string' && !ctx.set.isDynamic(node) && (node.value as string).length > meta.limit) {
        ctx.report({ node, messageId: 'tooLong', data: { length: (node.value as string).length } });
      }
    },
  };
}

const encoder = new TextEncoder();
/** UTF-8 is counted a chunk at a time: a buffer of a fixed size, not three bytes per character of the largest document for as long as the process lives. */
const CHUNK = 65536;
const scratch = new Uint8Array(CHUNK * 3);

/** UTF-8 length of a part of the text, encoded natively into a buffer that is reused. */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let at = start; at < end;) {
    let stop = Math.min(end, at + CHUNK);
    // Never between the two halves of a surrogate pair: each half alone would count as a replacement character.
    if (stop < end && (text.charCodeAt(stop - 1) & 0xfc00) === 0xd800) stop--;
    bytes += encoder.encodeInto(at === 0 && stop === text.length ? text : text.slice(at, stop), scratch).written;
    at = stop;
  }
  return bytes;
}

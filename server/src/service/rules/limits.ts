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
let scratch = new Uint8Array(0);

/** UTF-8 length of a part of the text, encoded natively into a buffer that is reused. */
export function utf8Length(text: string, start = 0, end = text.length): number {
  const part = start === 0 && end === text.length ? text : text.slice(start, end);
  if (scratch.length < part.length * 3) scratch = new Uint8Array(part.length * 3);
  return encoder.encodeInto(part, scratch).written;
}

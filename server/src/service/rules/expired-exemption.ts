import { stringValue } from '../json';
import { isPlaceholderValue } from '../consumers';
import type { ConsumerRule } from './types';

export const expiredExemption: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9208',
    name: 'expired-exemption',
    description:
      "An exemption whose `expiresOn` is in the past: it no longer exempts anything, and resources it covered are evaluated again. Renew it or remove it. The time compared with is the caller's (the current time by default).",
    defaultSeverity: 'warning',
    messages: {
      expired: "This exemption expired on {{date}}: it exempts nothing any more. Renew it (a later 'expiresOn') or remove it.",
    },
  },
  check(ctx) {
    const now = ctx.options.now ?? Date.now();
    for (const consumer of ctx.consumers) {
      const text = stringValue(consumer.expiresOn);
      if (!consumer.expiresOn || text === undefined || isPlaceholderValue(text)) continue;
      const at = Date.parse(text);
      if (Number.isNaN(at) || at >= now) continue;
      ctx.report({ node: consumer.expiresOn, messageId: 'expired', data: { date: text } });
    }
  },
};

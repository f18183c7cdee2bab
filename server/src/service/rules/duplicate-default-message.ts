import { property } from '../json';
import type { ConsumerRule } from './types';

export const duplicateDefaultMessage: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9207',
    name: 'duplicate-default-message',
    description:
      "More than one entry of an assignment's `nonComplianceMessages` without a `policyDefinitionReferenceId`: each is the assignment's default message, and the service takes only one.",
    defaultSeverity: 'error',
    messages: {
      duplicate:
        'A second default non-compliance message (no policyDefinitionReferenceId): an assignment has one default message; give this one the reference ID of the member it is about, or remove it.',
    },
  },
  check(ctx) {
    for (const consumer of ctx.consumers) {
      for (const list of consumer.defaultMessages)
        for (const extra of list.slice(1)) ctx.report({ node: property(extra, 'message') ?? extra, on: 'key', messageId: 'duplicate' });
    }
  },
};

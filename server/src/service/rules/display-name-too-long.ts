import { LIMITS, lengthLimitRule } from './limits';

export const displayNameTooLong = lengthLimitRule({
  code: 'PS9004',
  name: 'display-name-too-long',
  property: 'displayName',
  limit: LIMITS.displayName,
});

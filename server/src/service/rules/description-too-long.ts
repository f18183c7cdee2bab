import { LIMITS, lengthLimitRule } from './limits';

export const descriptionTooLong = lengthLimitRule({
  code: 'PS9005',
  name: 'description-too-long',
  property: 'description',
  limit: LIMITS.description,
});

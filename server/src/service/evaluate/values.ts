// Reading values for messages and dates: shared by the functions and the operators.
import type { Json } from './types';

export const describe = (value: Json | undefined): string =>
  value === undefined
    ? 'nothing'
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : `${typeof value} '${String(value)}'`;

/** A date-time the functions read: ISO 8601 only (other forms are not guessed). */
export function parseDate(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined;
  const time = Date.parse(/T|\s/.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value}Z` : value);
  return Number.isNaN(time) ? undefined : time;
}

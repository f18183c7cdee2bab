/** Documented service limits. */
export const LIMITS = {
  references: 1000,
  parameters: 400,
  requestBytes: 1024 * 1024,
  displayName: 128,
  description: 512,
} as const;

const encoder = new TextEncoder();

/** UTF-8 length of a part of the text. */
export function utf8Length(text: string, start = 0, end = text.length): number {
  return encoder.encode(text.slice(start, end)).length;
}

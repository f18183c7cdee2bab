/** Documented service limits. */
export const LIMITS = {
  references: 1000,
  parameters: 400,
  requestBytes: 1024 * 1024,
  displayName: 128,
  description: 512,
} as const;

const encoder = new TextEncoder();
let scratch = new Uint8Array(0);

/** UTF-8 length of a part of the text, encoded natively into a buffer that is reused. */
export function utf8Length(text: string, start = 0, end = text.length): number {
  const part = start === 0 && end === text.length ? text : text.slice(start, end);
  if (scratch.length < part.length * 3) scratch = new Uint8Array(part.length * 3);
  return encoder.encodeInto(part, scratch).written;
}

import { safeText } from '#api';

/**
 * A message on one line of sane length: a long run without spaces (a 100 KB argument quoted back) is cut
 * with its length said; line breaks become spaces.
 */
export function shortMessage(message: string): string {
  // Messages quote file names, config keys and names from documents: what is left of their control
  // characters after the line breaks is escaped by the one sanitiser (no forged line, no escape sequence).
  const cut = message
    .replace(/[^\s']{120,}/g, (run) => `${run.slice(0, 60)}… (${run.length.toLocaleString('en-US')} characters)`)
    .replace(/\s*[\r\n]+\s*/g, ' ');
  return safeText(cut, { max: Number.POSITIVE_INFINITY });
}

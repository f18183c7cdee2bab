/**
 * A message on one line of sane length: a long run without spaces (a 100 KB argument quoted back) is cut
 * with its length said; line breaks become spaces.
 */
export function shortMessage(message: string): string {
  return message.replace(/[^\s']{120,}/g, (run) => `${run.slice(0, 60)}… (${run.length.toLocaleString('en-US')} characters)`).replace(/\s*[\r\n]+\s*/g, ' ');
}

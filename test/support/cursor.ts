import { validateText, type ValidateOptions } from '#service';

/** Diagnostics of one code in a document, as [line (1-based), code] pairs and full diagnostics. */
export function diagnosticsOf(text: string, options: ValidateOptions = {}) {
  const result = validateText(text, options);
  if (result.internalErrors.length) throw new Error(`internal errors: ${JSON.stringify(result.internalErrors)}`);
  return result.diagnostics;
}

/** Text between the first pair of `|` markers, with the markers removed: [text, start offset, end offset]. */
export function marked(source: string): [string, number, number] {
  const start = source.indexOf('|');
  const end = source.indexOf('|', start + 1);
  if (start < 0 || end < 0) throw new Error('two | markers expected');
  return [source.slice(0, start) + source.slice(start + 1, end) + source.slice(end + 1), start, end - 1];
}

/** Text with every `|` marker removed, and the offset of each marker in that text (the text holds no other `|`). */
export function cursors(source: string): [string, number[]] {
  const [first, ...rest] = source.split('|');
  let text = first;
  const offsets: number[] = [];
  for (const part of rest) {
    offsets.push(text.length);
    text += part;
  }
  return [text, offsets];
}

// The value of a definition or set file, read from its text: pure, for the Node tools and the browser's server alike.
// What the value is (a definition, a set) is model/documentKind.ts's isPolicyDefinition and isPolicySet.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * The value of a definition or set file: strict JSON, or JSON with comments and trailing commas (the
 * policy-as-code framework keeps its files as .jsonc, and templates take comments). Throws on anything else.
 */
export function parseDocumentText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch {
    const errors: ParseError[] = [];
    const value = parseJsonc(body, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
    // Where, not what: JSON.parse's own message quotes the text, which may be any file (a secret).
    if (errors.length) throw new Error(`${printParseErrorCode(errors[0].error)} at ${lineAndColumn(body, errors[0].offset)}`);
    return value;
  }
}

function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `line ${line}, column ${offset - start + 1}`;
}

/** Decodes file bytes as UTF-8 the way an editor shows them, and says where the first invalid sequence is. */
export interface DecodedText {
  text: string;
  encodingProblem?: { offset: number; byteOffset: number; byte: number };
  /**
   * The file is in an encoding other than plain UTF-8 that is known by its first bytes, and was decoded as
   * such: UTF-8 with a byte order mark, or UTF-16 (with a byte order mark, or without one, known by the
   * zero bytes of its ASCII first characters, as RFC 4627 reads JSON). The service expects UTF-8 without one.
   */
  encoding?: TextEncodingName;
}

export type TextEncodingName =
  'UTF-8 with a byte order mark' | 'UTF-16LE with a byte order mark' | 'UTF-16BE with a byte order mark' | 'UTF-16LE' | 'UTF-16BE';

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= bytes.length) return i;
    let code = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    // Invalid somewhere: find where, and read the rest as an editor would (U+FFFD for bad bytes).
  }
  const text = lenient.decode(bytes);
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return { text };
  // The text offset of the bad byte: decode the valid prefix.
  const prefix = lenient.decode(bytes.subarray(0, bad));
  const offset = prefix.charCodeAt(0) === 0xfeff ? prefix.length - 1 : prefix.length;
  return { text, encodingProblem: { offset, byteOffset: bad, byte: bytes[bad] } };
}

const utf16le = new TextDecoder('utf-16le', { ignoreBOM: true });
const utf16be = new TextDecoder('utf-16be', { ignoreBOM: true });

/** The encoding the first bytes show, when it is not plain UTF-8 (see DecodedText.encoding). */
export function encodingOf(bytes: Uint8Array): TextEncodingName | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return 'UTF-8 with a byte order mark';
  if (a === 0xff && b === 0xfe) return 'UTF-16LE with a byte order mark';
  if (a === 0xfe && b === 0xff) return 'UTF-16BE with a byte order mark';
  // JSON begins with an ASCII character: in UTF-16 one of its two bytes is zero (RFC 4627, section 3).
  // Two ASCII characters, so that a UTF-8 file of one character and a zero byte is not taken for it.
  if (bytes.length >= 4 && a !== 0 && b === 0 && c !== 0 && d === 0) return 'UTF-16LE';
  if (bytes.length >= 4 && a === 0 && b !== 0 && c === 0 && d !== 0) return 'UTF-16BE';
  return undefined;
}

/**
 * Decodes a file's bytes: UTF-8, with or without a byte order mark, or UTF-16 known by its first bytes (see
 * encodingOf), which is then named in `encoding`. Anything else is read as UTF-8 (see decodeUtf8).
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const encoding = encodingOf(bytes);
  if (!encoding) return decodeUtf8(bytes);
  if (encoding === 'UTF-8 with a byte order mark') {
    const decoded = decodeUtf8(bytes.subarray(3));
    if (decoded.encodingProblem) decoded.encodingProblem.byteOffset += 3;
    return { ...decoded, encoding };
  }
  const bom = encoding.endsWith('mark') ? 2 : 0;
  const body = bytes.subarray(bom);
  // An odd last byte is dropped by the decoder: it cannot be a character of its own.
  const text = (encoding.startsWith('UTF-16LE') ? utf16le : utf16be).decode(body);
  return { text, encoding };
}

const utf8Encoder = new TextEncoder();

/**
 * A text as the bytes of a file in `encoding` (undefined: UTF-8 without a byte order mark), the inverse of
 * decodeText for text it decoded without a problem: a fixed file is written back as it was read. Pure.
 */
export function encodeText(text: string, encoding: TextEncodingName | undefined): Uint8Array {
  if (!encoding) return utf8Encoder.encode(text);
  if (encoding === 'UTF-8 with a byte order mark') {
    const body = utf8Encoder.encode(text);
    const bytes = new Uint8Array(body.length + 3);
    bytes.set([0xef, 0xbb, 0xbf]);
    bytes.set(body, 3);
    return bytes;
  }
  const bom = encoding.endsWith('mark') ? 2 : 0;
  const little = encoding.startsWith('UTF-16LE');
  const bytes = new Uint8Array(bom + text.length * 2);
  if (bom) bytes.set(little ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[bom + 2 * i + (little ? 0 : 1)] = unit & 0xff;
    bytes[bom + 2 * i + (little ? 1 : 0)] = unit >> 8;
  }
  return bytes;
}

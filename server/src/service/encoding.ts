/** Decodes file bytes as UTF-8 the way an editor shows them, and says where the first invalid sequence is. */
export interface DecodedText {
  text: string;
  encodingProblem?: { offset: number; byteOffset: number; byte: number };
}

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

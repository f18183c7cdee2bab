// A CSV reader after RFC 4180, as the policy-as-code framework's parameter files are written (and as
// PowerShell's ConvertFrom-Csv reads them): fields separated by commas, quoted fields that may hold commas,
// line breaks and doubled quotes, records ended by CRLF, LF or CR. Every cell keeps its offsets in the text,
// so that a diagnostic marks the cell itself.

export interface CsvCell {
  /** The field's value: quotes removed, doubled quotes made single. */
  value: string;
  /** Offsets of the field in the text, quotes included. */
  start: number;
  end: number;
}

export interface CsvRecord {
  cells: CsvCell[];
  /** Offsets of the record in the text, without its line break. */
  start: number;
  end: number;
}

export interface ParsedCsv {
  text: string;
  /** The first record (the column headers), then the rows; records that are empty lines are left out. */
  records: CsvRecord[];
  /** Where a quoted field is not closed before the end of the text, when one is not. */
  unclosedQuote?: number;
}

/** Reads a CSV text (a byte order mark at its start is not part of the first header). */
export function parseCsv(text: string): ParsedCsv {
  const records: CsvRecord[] = [];
  let unclosedQuote: number | undefined;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const length = text.length;
  while (i < length) {
    const recordStart = i;
    const cells: CsvCell[] = [];
    for (;;) {
      const start = i;
      let value = '';
      if (text[i] === '"') {
        i++;
        let closed = false;
        while (i < length) {
          const quote = text.indexOf('"', i);
          if (quote === -1) {
            value += text.slice(i);
            i = length;
            break;
          }
          value += text.slice(i, quote);
          if (text[quote + 1] === '"') {
            value += '"';
            i = quote + 2;
          } else {
            i = quote + 1;
            closed = true;
            break;
          }
        }
        if (!closed) unclosedQuote ??= start;
        // Text after the closing quote and before the separator is kept, as lenient readers keep it.
        while (i < length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') value += text[i++];
      } else {
        while (i < length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') i++;
        value = text.slice(start, i);
      }
      cells.push({ value, start, end: i });
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    const recordEnd = i;
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    // An empty line is no record (ConvertFrom-Csv skips it).
    if (!(cells.length === 1 && recordEnd === recordStart)) records.push({ cells, start: recordStart, end: recordEnd });
  }
  return { text, records, ...(unclosedQuote !== undefined ? { unclosedQuote } : {}) };
}

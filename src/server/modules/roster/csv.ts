/** CSV as spreadsheets write it (RFC 4180): commas, double quotes, "" inside quotes, LF or CRLF. */

export interface CsvRecord {
  /** Line on which the record starts (1-based); a quoted field may run over several lines. */
  line: number;
  fields: string[];
  /** Set when the record is malformed; its fields are then not to be trusted. */
  error?: string;
}

export function parseCsv(input: string): CsvRecord[] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let error: string | undefined;
  let i = 0;

  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(error ? { line: recordLine, fields, error } : { line: recordLine, fields });
    fields = [];
    error = undefined;
  };

  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' && field === '') {
      // A quoted field: read to the closing quote, which must end the field.
      const openedOn = line;
      i += 1;
      let closed = false;
      while (i < text.length) {
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          closed = true;
          i += 1;
          break;
        }
        if (c === '\n') line += 1;
        field += c;
        i += 1;
      }
      if (!closed) {
        error ??= `the quote opened on line ${openedOn} is never closed`;
        break;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        error ??= 'text after a closing quote; write a quote inside a quoted field as ""';
        while (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') i += 1;
      }
      continue;
    }
    if (ch === ',') {
      endField();
      i += 1;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
    } else {
      if (ch === '"') error ??= 'a quote inside an unquoted field; quote the whole field and double the quote';
      field += ch;
      i += 1;
    }
  }
  // The last record, unless the input ended with a line break.
  if (field !== '' || fields.length > 0 || error) endRecord();
  return records;
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

function formatField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function formatCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(formatField).join(',')).join('\n') + (rows.length > 0 ? '\n' : '');
}

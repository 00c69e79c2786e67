/**
 * CSV as spreadsheets read and write it (RFC 4180): commas, double quotes, "" inside quotes, LF or
 * CRLF. Every CSV the portal writes (reports, the audit trail, the roster's export) and reads (the
 * roster and timetable imports) goes through here, with the guard against spreadsheet formulas.
 */

export type CsvCell = string | number;

/** A byte order mark, so that spreadsheet programs read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** How text that a spreadsheet would run as a formula starts: =, +, -, @, tab or carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text for a CSV file that people open in a spreadsheet: text that would run as a formula gets a
 * leading apostrophe, which spreadsheets take as "this is text" and do not show. A downloaded file
 * must never run code on the computer of whoever opens it.
 */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** `guardFormula` undone, for a file the portal wrote and reads again (the roster's export). */
export function unguardFormula(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** What must be quoted: a comma, a quote or a line break, and space at either end, which some readers trim. */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One CSV field (RFC 4180), guarded against formulas: names come from the roster. */
export function csvField(cell: CsvCell): string {
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const safe = guardFormula(cell);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A header row and data rows as CSV text, each line ended by `lineEnd` (CRLF unless asked; no BOM). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[], lineEnd = '\r\n'): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join(lineEnd) + lineEnd;
}

export interface CsvRecord {
  /** Line on which the record starts (1-based); a quoted field may run over several lines. */
  line: number;
  fields: string[];
  /** Set when the record is malformed; its fields are then not to be trusted. */
  error?: string;
}

/** Reads CSV text (a leading BOM dropped) into records, each with its line and any problem of its quoting. */
export function parseCsv(input: string): CsvRecord[] {
  const text = input.startsWith(CSV_BOM) ? input.slice(1) : input;
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

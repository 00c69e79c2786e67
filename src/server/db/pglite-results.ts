import type { QueryOptions, Results } from '@electric-sql/pglite';

type Parsers = NonNullable<QueryOptions['parsers']>;

/** PostgreSQL's backend message types that the result of one Bind, Describe, Execute, Sync holds. */
const ROW_DESCRIPTION = 0x54; // 'T'
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const ERROR_RESPONSE = 0x45; // 'E'
const NOTIFICATION = 0x41; // 'A'

/** Commands whose tag's count PGlite adds to `affectedRows`. */
const AFFECTING = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

interface Field {
  name: string;
  dataTypeID: number;
}

/**
 * What PGlite's `parse.parseResults` makes of a kept statement's answer, read from the answer's
 * bytes (docs/decisions/0020-prepared-statements.md). PGlite's own reader copies every value's
 * bytes into a new ArrayBuffer before decoding it: for a list of two hundred students that was a
 * third of the server's work. This one decodes each value from the answer in place.
 *
 * Read here: row descriptions, data rows (text format), command completions; skipped: bind,
 * parameter and readiness messages and notices (PGlite only logs those). An error, or a
 * notification (the caller keeps statements that announce anything off this path), returns
 * `undefined`: the caller then reads the answer with PGlite's own parser, which makes its error
 * objects and hands notifications to listeners.
 */
export function readResults<T>(answer: Buffer, parsers: Parsers, rowMode: QueryOptions['rowMode']): Results<T> | undefined {
  const end = answer.length;
  let fields: Field[] = [];
  let rows: unknown[] = [];
  let result: Results<T> | undefined;
  let affectedRows = 0;
  let at = 0;
  while (at + 5 <= end) {
    const type = answer[at]!;
    const length = answer.readInt32BE(at + 1);
    const body = at + 5;
    const next = at + 1 + length;
    if (length < 4 || next > end) throw new Error('PGlite returned a truncated message');
    if (type === ERROR_RESPONSE || type === NOTIFICATION) return undefined;
    if (type === ROW_DESCRIPTION) {
      fields = readFields(answer, body);
      rows = [];
    } else if (type === DATA_ROW) {
      rows.push(readRow(answer, body, fields, parsers, rowMode === 'array'));
    } else if (type === COMMAND_COMPLETE && result === undefined) {
      const tag = answer.toString('utf8', body, next - 1);
      const words = tag.split(' ');
      const command = words[0]!;
      const count = Number.parseInt(words[words.length - 1]!, 10);
      if (AFFECTING.has(command)) affectedRows += count;
      result = { rows: rows as Results<T>['rows'], fields, command, affectedRows };
      if (!Number.isNaN(count)) result.rowCount = count;
    }
    at = next;
  }
  return result ?? { affectedRows: 0, rows: [], fields: [] };
}

function readFields(answer: Buffer, at: number): Field[] {
  const count = answer.readInt16BE(at);
  const fields: Field[] = new Array<Field>(count);
  let offset = at + 2;
  for (let index = 0; index < count; index += 1) {
    const nul = answer.indexOf(0, offset);
    const name = answer.toString('utf8', offset, nul);
    // table id (4), column number (2), then the type's id (4), its size (2), modifier (4), format (2)
    const dataTypeID = answer.readInt32BE(nul + 1 + 6);
    fields[index] = { name, dataTypeID };
    offset = nul + 1 + 18;
  }
  return fields;
}

function readRow(answer: Buffer, at: number, fields: Field[], parsers: Parsers, asArray: boolean): unknown {
  const count = answer.readInt16BE(at);
  const values: unknown[] = new Array<unknown>(count);
  let offset = at + 2;
  for (let index = 0; index < count; index += 1) {
    const length = answer.readInt32BE(offset);
    offset += 4;
    if (length < 0) {
      values[index] = null;
      continue;
    }
    const text = answer.toString('utf8', offset, offset + length);
    offset += length;
    const type = fields[index]!.dataTypeID;
    // PGlite gives its parsers the type's id too, though its type names only the text.
    const parse = parsers[type] as ((value: string, typeId: number) => unknown) | undefined;
    values[index] = parse ? parse(text, type) : text;
  }
  if (asArray) return values;
  const row: Record<string, unknown> = {};
  for (let index = 0; index < count; index += 1) row[fields[index]!.name] = values[index];
  return row;
}

import type { QueryOptions, Results, types as pgliteTypes } from '@electric-sql/pglite';

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
 * PGlite's own parsers of smallints and integers (`+text`) and of text (the text itself), known by
 * identity: a column whose parser is one of them is read without it. A column is read as a whole
 * number only when its type is a smallint or an integer with PGlite's parser: PGlite reads floats
 * with that same parser (`+text`), and a float's digits are not a whole number's. Made from
 * PGlite's `types`, which the caller loads (this module loads nothing of PGlite: the server on
 * PostgreSQL never does).
 */
export interface KnownParsers {
  /** The whole-number types' ids, each with PGlite's parser of it. */
  wholeNumbers: ReadonlyMap<number, unknown>;
  text: unknown;
}

export function knownParsers(types: typeof pgliteTypes): KnownParsers {
  return {
    wholeNumbers: new Map<number, unknown>([
      [types.INT2, types.parsers[types.INT2]],
      [types.INT4, types.parsers[types.INT4]],
    ]),
    text: types.parsers[types.TEXT],
  };
}

/**
 * Answers up to this size are decoded to one string at once and their ASCII values taken from it
 * (see `Decoder`). A value of 13 characters or more taken so shares the answer's string and keeps it
 * in memory for as long as the value lives: the bound keeps that small.
 */
const WHOLE_TEXT_MAX_BYTES = 256 * 1024;

/** How a column's values are read: as text, as a whole number from their digits, or through a parser. */
interface Column {
  name: string;
  dataTypeID: number;
  /** The value parser, or none when the value is the text itself. */
  parse: ((value: string, typeId: number) => unknown) | undefined;
  wholeNumber: boolean;
}

/**
 * What PGlite's `parse.parseResults` makes of a kept statement's answer, read from the answer's
 * bytes (docs/decisions/0020-prepared-statements.md). PGlite's own reader copies every value's
 * bytes into a new ArrayBuffer before decoding it: for a list of two hundred students that was a
 * third of the server's work. This one decodes each value from the answer in place: a column's
 * parser is looked up once per answer, whole numbers are read from their digits, and ASCII text
 * is cut from the answer decoded once (a call into Node's decoder for every value was most of
 * what was left: some 0.2 ms of the server's thread for a list of 250 students).
 *
 * Read here: row descriptions, data rows (text format), command completions; skipped: bind,
 * parameter and readiness messages and notices (PGlite only logs those). An error, or a
 * notification (the caller keeps statements that announce anything off this path), returns
 * `undefined`: the caller then reads the answer with PGlite's own parser, which makes its error
 * objects and hands notifications to listeners.
 */
export function readResults<T>(answer: Buffer, parsers: Parsers, known: KnownParsers, rowMode: QueryOptions['rowMode']): Results<T> | undefined {
  const end = answer.length;
  const decoder = new Decoder(answer);
  let columns: Column[] = [];
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
      columns = readColumns(answer, body, parsers, known);
      rows = [];
    } else if (type === DATA_ROW) {
      rows.push(readRow(answer, body, columns, decoder, rowMode === 'array'));
    } else if (type === COMMAND_COMPLETE && result === undefined) {
      const tag = answer.toString('utf8', body, next - 1);
      const words = tag.split(' ');
      const command = words[0]!;
      const count = Number.parseInt(words[words.length - 1]!, 10);
      if (AFFECTING.has(command)) affectedRows += count;
      const fields: Field[] = columns.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
      result = { rows: rows as Results<T>['rows'], fields, command, affectedRows };
      if (!Number.isNaN(count)) result.rowCount = count;
    }
    at = next;
  }
  return result ?? { affectedRows: 0, rows: [], fields: [] };
}

function readColumns(answer: Buffer, at: number, parsers: Parsers, known: KnownParsers): Column[] {
  const count = answer.readInt16BE(at);
  const columns: Column[] = new Array<Column>(count);
  let offset = at + 2;
  for (let index = 0; index < count; index += 1) {
    const nul = answer.indexOf(0, offset);
    const name = answer.toString('utf8', offset, nul);
    // table id (4), column number (2), then the type's id (4), its size (2), modifier (4), format (2)
    const dataTypeID = answer.readInt32BE(nul + 1 + 6);
    // PGlite gives its parsers the type's id too, though its type names only the text.
    const parser = parsers[dataTypeID] as Column['parse'];
    columns[index] = {
      name,
      dataTypeID,
      parse: parser === known.text ? undefined : parser,
      wholeNumber: parser !== undefined && known.wholeNumbers.get(dataTypeID) === parser,
    };
    offset = nul + 1 + 18;
  }
  return columns;
}

function readRow(answer: Buffer, at: number, columns: Column[], decoder: Decoder, asArray: boolean): unknown {
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
    const column = columns[index]!;
    if (column.wholeNumber) {
      values[index] = wholeNumber(answer, offset, length);
    } else {
      const text = decoder.text(offset, length);
      values[index] = column.parse ? column.parse(text, column.dataTypeID) : text;
    }
    offset += length;
  }
  if (asArray) return values;
  const row: Record<string, unknown> = {};
  for (let index = 0; index < count; index += 1) row[columns[index]!.name] = values[index];
  return row;
}

/**
 * A smallint's or an integer's value from its decimal digits, as PGlite's parser (`+text`) makes
 * it: the database writes them as an optional minus and up to ten digits, exact in a double.
 */
function wholeNumber(answer: Buffer, at: number, length: number): number {
  const negative = answer[at] === 0x2d; // '-'
  let value = 0;
  for (let index = negative ? at + 1 : at; index < at + length; index += 1) value = value * 10 + (answer[index]! - 0x30);
  return negative ? -value : value;
}

/**
 * Text values of one answer. An ASCII value (a PIN, a class, a date, most names) is cut from the
 * answer decoded once as Latin-1, where each byte is one character and ASCII reads the same as
 * UTF-8; any other value is decoded as UTF-8 on its own. Answers above WHOLE_TEXT_MAX_BYTES decode
 * every value on its own.
 */
class Decoder {
  #whole: string | undefined;
  /** Whether ASCII values may be cut from the whole answer: decided once per answer. */
  readonly #cuts: boolean;

  constructor(private readonly answer: Buffer) {
    this.#cuts = answer.length <= WHOLE_TEXT_MAX_BYTES;
  }

  text(at: number, length: number): string {
    const { answer } = this;
    const end = at + length;
    if (!this.#cuts) return answer.toString('utf8', at, end);
    for (let index = at; index < end; index += 1) {
      if (answer[index]! >= 0x80) return answer.toString('utf8', at, end);
    }
    this.#whole ??= answer.toString('latin1');
    return this.#whole.slice(at, end);
  }
}

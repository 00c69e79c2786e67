/**
 * Reading an export of the Firebase app's Firestore collections, in any of the three shapes the
 * common export tools write, into one list of documents. Typed values (`{"__datatype__": ...}`)
 * are unwrapped: a timestamp becomes a Date. Nothing here knows what the collections mean.
 */
import { FIRESTORE_SHAPES, type FirestoreShape } from '../../../shared/schemas/firestore-import';
import { UserInputError } from '../../input-error';

export interface SourceDocument {
  collection: string;
  id: string;
  data: Record<string, unknown>;
}

export interface ExportFile {
  shape: FirestoreShape;
  documents: SourceDocument[];
}

/** The collections of the Firebase app; a file of collections must hold at least one of them. */
const APP_COLLECTIONS = new Set(['attendance', 'registrations', 'cards', 'users']);

const SHAPES_LIST = Object.values(FIRESTORE_SHAPES)
  .map((shape) => `- ${shape}`)
  .join('\n');

/** A file the import cannot read: nothing was imported. */
export class ExportFileError extends UserInputError {
  constructor(problem: string) {
    super(`${problem}. The import reads a Firestore export in one of these shapes:\n${SHAPES_LIST}`);
    this.name = 'ExportFileError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Seconds and nanoseconds (with or without the underscore) as a Date, if they are numbers. */
function secondsToDate(value: Record<string, unknown>): Date | null {
  const seconds = value._seconds ?? value.seconds;
  const nanos = value._nanoseconds ?? value.nanoseconds ?? 0;
  if (typeof seconds !== 'number' || typeof nanos !== 'number') return null;
  const date = new Date(seconds * 1000 + Math.floor(nanos / 1e6));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A value of the export as the mapping reads it: typed values unwrapped, timestamps as Dates. */
function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (!isRecord(value)) return value;
  const type = value.__datatype__;
  if (typeof type === 'string') {
    const inner = value.value;
    if (type === 'timestamp') {
      if (isRecord(inner)) return secondsToDate(inner) ?? inner;
      if (typeof inner === 'string' || typeof inner === 'number') {
        const date = new Date(inner);
        return Number.isNaN(date.getTime()) ? inner : date;
      }
    }
    return decode(inner);
  }
  // An untyped timestamp, as firebase-admin's JSON writes it.
  const keys = Object.keys(value);
  if (keys.length === 2 && keys.includes('_seconds') && keys.includes('_nanoseconds')) return secondsToDate(value) ?? value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '__collections__') continue; // subcollections: the app had none worth reading
    out[key] = decode(inner);
  }
  return out;
}

function documentsOf(collection: string, byId: Record<string, unknown>): SourceDocument[] {
  return Object.entries(byId).map(([id, data]) => ({ collection, id, data: decode(data) as Record<string, unknown> }));
}

/** `{"<collection>": {"<id>": {...}}}`: every value an object of documents. */
function isCollectionsObject(value: Record<string, unknown>): value is Record<string, Record<string, unknown>> {
  const entries = Object.entries(value);
  return (
    entries.some(([name]) => APP_COLLECTIONS.has(name)) &&
    entries.every(([, documents]) => isRecord(documents) && Object.values(documents).every(isRecord))
  );
}

function isNdjsonLine(value: unknown): value is { path: string; data: Record<string, unknown> } {
  return isRecord(value) && typeof value.path === 'string' && isRecord(value.data);
}

/** One document of an NDJSON line; a path deeper than collection/id is a subcollection's, left out. */
function lineDocument(line: { path: string; data: Record<string, unknown> }): SourceDocument | null {
  const parts = line.path.split('/').filter((part) => part !== '');
  if (parts.length !== 2) return null;
  return { collection: parts[0]!, id: parts[1]!, data: decode(line.data) as Record<string, unknown> };
}

function readNdjson(text: string): SourceDocument[] {
  const documents: SourceDocument[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ExportFileError(index === 0 ? 'The file is not JSON' : `Line ${index + 1} of the file is not JSON`);
    }
    if (!isNdjsonLine(value)) {
      throw new ExportFileError(index === 0 ? 'The file is not a Firestore export' : `Line ${index + 1} is not a document {"path": ..., "data": {...}}`);
    }
    const document = lineDocument(value);
    if (document) documents.push(document);
  }
  return documents;
}

/** Reads an export; a file in no accepted shape is refused with an ExportFileError that names them. */
export function readExportFile(text: string): ExportFile {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new ExportFileError('The file is empty');
  let whole: unknown;
  try {
    whole = JSON.parse(body);
  } catch {
    return { shape: 'ndjson', documents: readNdjson(body) };
  }
  if (isRecord(whole) && isRecord(whole.__collections__)) {
    const collections = whole.__collections__;
    const documents: SourceDocument[] = [];
    for (const [name, byId] of Object.entries(collections)) {
      if (!isRecord(byId)) throw new ExportFileError(`The collection ${name} is not an object of documents`);
      documents.push(...documentsOf(name, byId));
    }
    return { shape: 'firestore-export', documents };
  }
  if (isNdjsonLine(whole)) {
    const document = lineDocument(whole);
    return { shape: 'ndjson', documents: document ? [document] : [] };
  }
  if (isRecord(whole) && isCollectionsObject(whole)) {
    return { shape: 'collections', documents: Object.entries(whole).flatMap(([name, byId]) => documentsOf(name, byId)) };
  }
  throw new ExportFileError('The file is not a Firestore export of the attendance, registrations or cards collections');
}

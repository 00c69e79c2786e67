/**
 * The portal's backup file (docs/decisions/0035-backups.md): one gzip-compressed file that either
 * engine, the embedded database or a PostgreSQL server, writes and loads alike.
 *
 * The file is two gzip members, which any gunzip reads as one text:
 *
 *   line 1   the header, JSON: format and version, the last migration applied, when, each
 *            table's row count and the SHA-256 of the content (every byte after this line)
 *   content  for each table, a line `T<tab>name` and then one line per row, the row as
 *            PostgreSQL's row_to_json writes it; then one line `S<tab>name<tab>value` per sequence
 *
 * Rows are read in one repeatable-read transaction (one snapshot of every table) through a cursor,
 * and loaded back with json_populate_recordset: PostgreSQL itself turns each value into text and
 * back (timestamps, bytea, jsonb, arrays, nulls), so nothing passes through JavaScript's numbers.
 * Neither side holds more than a batch of rows in memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { MIGRATIONS_DIR, migrateDatabase, queryRows, type Database, type Executor } from './client';

export const BACKUP_FORMAT = 'attendance-portal-backup';
export const BACKUP_VERSION = 1;

/** Rows fetched from the cursor, and rows sent in one insert, at a time. */
const ROWS_PER_BATCH = 1000;
/** A batch of rows to insert is sent once it holds this much JSON, even if it has fewer rows. */
const BYTES_PER_BATCH = 4 * 1024 * 1024;
/** A header is a few kilobytes; a file whose first line is longer is not a backup. */
const MAX_HEADER_BYTES = 1024 * 1024;

const HeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int(),
  createdAt: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  migration: z.object({ tag: z.string().nullable(), when: z.number() }).nullable(),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int().nonnegative() })),
  sequences: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupHeader = z.infer<typeof HeaderSchema>;

/** A backup file that cannot be used: not a backup, damaged, cut short, or too new. */
export class BackupFileError extends Error {}

/** A quoted identifier of the portal's schema. */
function tableName(name: string) {
  return sql.raw(`public."${name.replace(/"/g, '""')}"`);
}

/** The newest migration in the folder's journal, and each one's tag by its time. */
async function journal(migrationsFolder = MIGRATIONS_DIR): Promise<{ tag: string; when: number }[]> {
  const text = await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: { tag: string; when: number }[] }).entries.map(({ tag, when }) => ({ tag, when }));
}

/** The last migration applied to the database, or null on a database never migrated. */
async function lastMigration(db: Executor): Promise<{ tag: string | null; when: number } | null> {
  const exists = await queryRows<{ found: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`);
  if (!exists[0]?.found) return null;
  const rows = await queryRows<{ when: string | number | null }>(db, sql`select max(created_at) as "when" from drizzle.__drizzle_migrations`);
  const raw = rows[0]?.when;
  if (raw === null || raw === undefined) return null;
  const when = Number(raw);
  const entry = (await journal()).find((e) => e.when === when);
  return { tag: entry?.tag ?? null, when };
}

/**
 * Tables the database keeps from others by triggers (decision 43: the class totals, from the
 * registers): left out of backups, since loading the registers fills them again, and loading them
 * as well would count every register twice.
 */
const DERIVED = new Set(['class_day_totals', 'class_term_totals']);

/**
 * Every table of the portal's schema, read from the database (a new table is never left out), but
 * the derived ones, each after the tables its foreign keys point to: loading in this order
 * satisfies every key.
 */
export async function portalTables(db: Executor): Promise<string[]> {
  const tables = (
    await queryRows<{ name: string }>(
      db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
    )
  )
    .map((row) => row.name)
    .filter((name) => !DERIVED.has(name));
  const keys = await queryRows<{ child: string; parent: string }>(
    db,
    sql`select child.relname as child, parent.relname as parent from pg_constraint k
        join pg_class child on child.oid = k.conrelid join pg_namespace n on n.oid = child.relnamespace
        join pg_class parent on parent.oid = k.confrelid
        where k.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of keys) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.filter((t) => !placed.has(t) && [...(parents.get(t) ?? [])].every((p) => placed.has(p) || !parents.has(p)));
    // A cycle of foreign keys (none in the portal's schema) is written in name order.
    const batch = next.length > 0 ? next : tables.filter((t) => !placed.has(t)).slice(0, 1);
    for (const t of batch) {
      placed.add(t);
      ordered.push(t);
    }
  }
  return ordered;
}

/** Writes to a stream, waiting while it is full. */
async function put(stream: NodeJS.WritableStream, chunk: Buffer): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

export interface BackupSummary {
  file: string;
  header: BackupHeader;
  bytes: number;
}

/**
 * Writes a backup of the whole database to `file` (its folder is made if missing). The file
 * appears only once complete: it is written beside it under another name and then renamed.
 */
export async function writeBackup(database: Database, file: string): Promise<BackupSummary> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  const content = `${partial}-content`;
  const gzip = createGzip();
  try {
    const hash = createHash('sha256');
    const written = pipeline(gzip, createWriteStream(content, { mode: 0o600 }));
    written.catch(() => undefined);
    // Written a batch at a time: one write per row costs more than the rows themselves.
    const lines = async (texts: string[]) => {
      if (texts.length === 0) return;
      const bytes = Buffer.from(`${texts.join('\n')}\n`, 'utf8');
      hash.update(bytes);
      await put(gzip, bytes);
    };
    const snapshotAt = new Date();
    const { tables, migration, sequences } = await database.db.transaction(
      async (tx) => {
        await tx.execute(sql`set local timezone to 'UTC'`);
        await tx.execute(sql`set local bytea_output to 'hex'`);
        await tx.execute(sql`set local extra_float_digits to 1`);
        const migrationNow = await lastMigration(tx);
        const counted: { name: string; rows: number }[] = [];
        for (const name of await portalTables(tx)) {
          await lines([`T\t${name}`]);
          let rows = 0;
          await tx.execute(sql`declare portal_backup no scroll cursor for select row_to_json(t)::text as line from ${tableName(name)} t`);
          for (;;) {
            const batch = await queryRows<{ line: string }>(tx, sql.raw(`fetch forward ${ROWS_PER_BATCH} from portal_backup`));
            await lines(batch.map((row) => row.line));
            rows += batch.length;
            if (batch.length < ROWS_PER_BATCH) break;
          }
          await tx.execute(sql`close portal_backup`);
          counted.push({ name, rows });
        }
        const sequenceRows = await queryRows<{ name: string; value: string | null }>(
          tx,
          sql`select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by sequencename`,
        );
        await lines(sequenceRows.map((s) => `S\t${s.name}\t${s.value ?? ''}`));
        return { tables: counted, migration: migrationNow, sequences: sequenceRows.length };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    gzip.end();
    await written;
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: snapshotAt.toISOString(),
      engine: database.kind,
      migration,
      tables,
      sequences,
      sha256: hash.digest('hex'),
    };
    await writeFile(partial, gzipSync(`${JSON.stringify(header)}\n`), { mode: 0o600 });
    await pipeline(createReadStream(content), createWriteStream(partial, { flags: 'a' }));
    await rename(partial, file);
    return { file, header, bytes: (await stat(file)).size };
  } catch (err) {
    // A failed read closes the half-written content before it is removed.
    gzip.destroy();
    throw err;
  } finally {
    await rm(content, { force: true });
    await rm(partial, { force: true });
  }
}

/** Why gunzip stopped, in an operator's words. */
function gunzipProblem(file: string, err: unknown): BackupFileError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BackupFileError(`Cannot read ${file}: no such file`);
  if (code === 'Z_BUF_ERROR') return new BackupFileError(`The backup ${file} is cut short (it ends in the middle): nothing was loaded`);
  if (typeof code === 'string' && code.startsWith('Z_')) return new BackupFileError(`The backup ${file} is damaged (${(err as Error).message}): nothing was loaded`);
  if (err instanceof BackupFileError) return err;
  return new BackupFileError(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Reads a backup: its header, then each line of its content (with its bytes counted into the
 * digest). Throws BackupFileError when the file is not a backup or cannot be decompressed.
 */
async function* readBackupLines(file: string): AsyncGenerator<{ header: BackupHeader } | { lines: string[] }, string, undefined> {
  const start = Buffer.alloc(2);
  try {
    const handle = await open(file);
    await handle.read(start, 0, 2, 0);
    await handle.close();
  } catch (err) {
    throw gunzipProblem(file, err);
  }
  if (start[0] !== 0x1f || start[1] !== 0x8b) throw new BackupFileError(`${file} is not a portal backup (it is not gzip-compressed)`);
  const hash = createHash('sha256');
  let header: BackupHeader | undefined;
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>) {
      let fresh: Buffer = chunk;
      if (!header) {
        const start = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
        const end = start.indexOf(10);
        if (end < 0) {
          if (start.length > MAX_HEADER_BYTES) throw new BackupFileError(`${file} is not a portal backup (no header)`);
          rest = start;
          continue;
        }
        header = parseHeader(file, start.subarray(0, end).toString('utf8'));
        yield { header };
        fresh = start.subarray(end + 1);
        rest = Buffer.alloc(0);
      }
      hash.update(fresh);
      const data = rest.length > 0 ? Buffer.concat([rest, fresh]) : fresh;
      // The lines of a chunk together: one step of this generator per line would cost more than reading them.
      const last = data.lastIndexOf(10);
      if (last >= 0) yield { lines: data.toString('utf8', 0, last).split('\n') };
      rest = Buffer.from(data.subarray(last + 1));
    }
  } catch (err) {
    throw gunzipProblem(file, err);
  }
  if (!header) throw new BackupFileError(`${file} is not a portal backup (no header)`);
  if (rest.length > 0) throw new BackupFileError(`The backup ${file} is cut short (its last line is incomplete): nothing was loaded`);
  return hash.digest('hex');
}

function parseHeader(file: string, text: string): BackupHeader {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupFileError(`${file} is not a portal backup (its first line is not a backup header)`);
  }
  const parsed = HeaderSchema.safeParse(json);
  if (!parsed.success) throw new BackupFileError(`${file} is not a portal backup (its header is not one this portal knows)`);
  if (parsed.data.version > BACKUP_VERSION) {
    throw new BackupFileError(`${file} is a backup of format ${parsed.data.version}, newer than this portal reads (${BACKUP_VERSION}): upgrade the portal first`);
  }
  return parsed.data;
}

type ContentItem = { kind: 'table'; name: string } | { kind: 'rows'; json: string[] } | { kind: 'sequence'; name: string; value: string | null };

/**
 * Reads the whole file and checks it against its header: the digest of the content and each
 * table's row count. `each` sees every item of the content as it is read (rows a run at a time).
 */
async function readBackup(file: string, each?: (item: ContentItem) => Promise<void>): Promise<BackupHeader> {
  const chunks = readBackupLines(file);
  let header: BackupHeader | undefined;
  const counts = new Map<string, number>();
  let table: string | undefined;
  let sequences = 0;
  let step: IteratorResult<{ header: BackupHeader } | { lines: string[] }, string> | undefined;
  try {
    step = await chunks.next();
    for (; !step.done; step = await chunks.next()) {
      const chunk = step.value;
      if ('header' in chunk) {
        header = chunk.header;
        continue;
      }
      let rows: string[] = [];
      const sendRows = async () => {
        if (rows.length > 0 && each) await each({ kind: 'rows', json: rows });
        rows = [];
      };
      for (const line of chunk.lines) {
        if (line.startsWith('{')) {
          if (table === undefined) throw new BackupFileError(`The backup ${file} is damaged (a row before any table): nothing was loaded`);
          counts.set(table, (counts.get(table) ?? 0) + 1);
          rows.push(line);
          continue;
        }
        await sendRows();
        let content: ContentItem;
        if (line.startsWith('T\t')) {
          table = line.slice(2);
          counts.set(table, 0);
          content = { kind: 'table', name: table };
        } else if (line.startsWith('S\t')) {
          const [, name = '', value = ''] = line.split('\t');
          sequences += 1;
          content = { kind: 'sequence', name, value: value === '' ? null : value };
        } else {
          throw new BackupFileError(`The backup ${file} is damaged (a line it cannot read): nothing was loaded`);
        }
        if (each) await each(content);
      }
      await sendRows();
    }
  } finally {
    // Stopped early (a damaged line, a failed insert): the file is closed at once.
    if (!step?.done) await chunks.return('');
  }
  const digest = step?.done ? step.value : '';
  if (!header) throw new BackupFileError(`${file} is not a portal backup (no header)`);
  if (digest !== header.sha256) {
    throw new BackupFileError(`The backup ${file} is damaged: its content does not match the SHA-256 in its header; nothing was loaded`);
  }
  for (const { name, rows } of header.tables) {
    if ((counts.get(name) ?? 0) !== rows) {
      throw new BackupFileError(`The backup ${file} is damaged: table ${name} has ${counts.get(name) ?? 0} rows where its header says ${rows}; nothing was loaded`);
    }
  }
  if (counts.size !== header.tables.length || sequences !== header.sequences) {
    throw new BackupFileError(`The backup ${file} is damaged: its tables do not match its header; nothing was loaded`);
  }
  return header;
}

/** Reads a whole backup and checks its digest and counts without loading anything. */
export function checkBackup(file: string): Promise<BackupHeader> {
  return readBackup(file);
}

/**
 * Tables whose rows a database has before anyone uses it: the classes and data versions the
 * migrations write, and what a server keeps for itself (the cookie key, request counts).
 */
const BOOKKEEPING = new Set(['classes', 'data_versions', 'portal_secrets', 'rate_limits', 'sign_in_limits']);

/**
 * Whether the database holds anything of its users': a row in any table but the bookkeeping ones
 * (accounts, students, registers, terms, messages, a table added later). A database never
 * migrated holds nothing.
 */
export async function holdsPortalData(db: Executor): Promise<boolean> {
  for (const name of await portalTables(db)) {
    if (BOOKKEEPING.has(name)) continue;
    const rows = await queryRows<{ found: boolean }>(db, sql`select exists (select 1 from ${tableName(name)}) as found`);
    if (rows[0]?.found) return true;
  }
  return false;
}

/**
 * Removes the portal's schema: every table, sequence, view, type and function in `public` (none
 * that an extension owns) and the record of migrations. A restore starts from nothing.
 */
async function dropPortalSchema(db: Executor): Promise<void> {
  await db.execute(sql`drop schema if exists drizzle cascade`);
  const notExtension = sql`not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')`;
  const relations = await queryRows<{ name: string; kind: string }>(
    db,
    sql`select c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and ${notExtension}`,
  );
  const dropKind: Record<string, string> = { r: 'table', p: 'table', f: 'foreign table', v: 'view', m: 'materialized view', S: 'sequence' };
  for (const kind of ['v', 'm', 'r', 'p', 'f', 'S']) {
    for (const r of relations.filter((x) => x.kind === kind)) {
      await db.execute(sql.raw(`drop ${dropKind[kind]} if exists public."${r.name.replace(/"/g, '""')}" cascade`));
    }
  }
  const functions = await queryRows<{ signature: string }>(
    db,
    sql`select c.oid::regprocedure::text as signature from pg_proc c join pg_namespace n on n.oid = c.pronamespace
        where n.nspname = 'public' and ${notExtension}`,
  );
  for (const f of functions) await db.execute(sql.raw(`drop routine if exists ${f.signature} cascade`));
  const types = await queryRows<{ name: string }>(
    db,
    sql`select c.typname as name from pg_type c join pg_namespace n on n.oid = c.typnamespace
        where n.nspname = 'public' and c.typtype in ('e', 'd', 'r') and ${notExtension}`,
  );
  for (const t of types) await db.execute(sql.raw(`drop type if exists public."${t.name.replace(/"/g, '""')}" cascade`));
}

/** A folder of migrations holding those of `migrationsFolder` up to `when`, for bringing a new database to a backup's schema. */
export async function migrationsUpTo(when: number, migrationsFolder: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-migrations-'));
  await mkdir(path.join(folder, 'meta'));
  const text = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  text.entries = text.entries.filter((e) => e.when <= when);
  await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify(text));
  for (const name of await readdir(migrationsFolder)) {
    if (name.endsWith('.sql')) await copyFile(path.join(migrationsFolder, name), path.join(folder, name));
  }
  return folder;
}

export interface RestoreSummary {
  header: BackupHeader;
  /** The migrations applied after loading: those newer than the backup. */
  migrated: string[];
}

/**
 * Loads a backup into the database, which it empties first: the caller has checked that it holds
 * nothing, or backed it up. The file is checked whole before anything is changed; then the schema
 * is made as it was when the backup was written, every row is loaded in one transaction (checked
 * again against the digest and counts before it commits: nothing half-loaded), and the migrations
 * that came after the backup are applied.
 */
export async function restoreBackup(database: Database, file: string, migrationsFolder = MIGRATIONS_DIR): Promise<RestoreSummary> {
  const header = await checkBackup(file);
  if (!header.migration) throw new BackupFileError(`${file} holds no portal schema (it was written from a database never migrated)`);
  const entries = await journal(migrationsFolder);
  const known = entries.find((e) => e.when === header.migration?.when);
  if (!known) {
    throw new BackupFileError(
      `${file} was written by a newer version of the portal (migration ${header.migration.tag ?? header.migration.when}): upgrade the portal first`,
    );
  }
  await dropPortalSchema(database.db);
  const partial = await migrationsUpTo(known.when, migrationsFolder);
  try {
    await migrateDatabase(database, partial);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  await database.db.transaction(async (tx) => {
    // Rows the migrations wrote themselves (the first classes, the data versions) make way for the backup's.
    const tables = await portalTables(tx);
    for (const name of [...tables].reverse()) {
      const rows = await queryRows<{ found: boolean }>(tx, sql`select exists (select 1 from ${tableName(name)}) as found`);
      if (rows[0]?.found) await tx.execute(sql`delete from ${tableName(name)}`);
    }
    let table: string | undefined;
    let columns: ReturnType<typeof sql.raw> | undefined;
    let batch: string[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (!table || !columns || batch.length === 0) return;
      const rows = `[${batch.join(',')}]`;
      batch = [];
      batchBytes = 0;
      await tx.execute(
        sql`insert into ${tableName(table)} (${columns}) overriding system value
            select ${columns} from json_populate_recordset(null::${tableName(table)}, ${rows}::json)`,
      );
    };
    await readBackup(file, async (item) => {
      if (item.kind === 'rows') {
        for (const json of item.json) {
          batch.push(json);
          batchBytes += json.length;
          if (batch.length >= ROWS_PER_BATCH || batchBytes >= BYTES_PER_BATCH) await flush();
        }
        return;
      }
      await flush();
      if (item.kind === 'table') {
        if (!tables.includes(item.name)) throw new BackupFileError(`The backup ${file} has a table ${item.name} that its schema does not: nothing was loaded`);
        table = item.name;
        const names = await queryRows<{ name: string }>(
          tx,
          sql`select attname as name from pg_attribute where attrelid = ${`public."${item.name.replace(/"/g, '""')}"`}::regclass
              and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
        );
        columns = sql.raw(names.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(', '));
      } else {
        await tx.execute(
          item.value === null
            ? sql`select setval(format('public.%I', ${item.name}::text)::regclass, 1, false)`
            : sql`select setval(format('public.%I', ${item.name}::text)::regclass, ${item.value}::bigint, true)`,
        );
      }
    });
    await flush();
  });
  const before = new Set(entries.filter((e) => e.when <= known.when).map((e) => e.tag));
  await migrateDatabase(database, migrationsFolder);
  return { header, migrated: entries.map((e) => e.tag).filter((tag) => !before.has(tag)) };
}

/** The file name of a backup written at `at`: `portal-backup-20261128T165307Z.gz`, sorting by time. */
export function backupFileName(at: Date, kind: 'scheduled' | 'before-upgrade' | 'before-restore' = 'scheduled'): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return kind === 'scheduled' ? `portal-backup-${stamp}.gz` : `portal-backup-${stamp}-${kind}.gz`;
}

/**
 * Before migrations change a database that holds data: a backup into `dir`, named for the upgrade
 * (kept however many scheduled backups are pruned). A new or empty database needs none.
 */
export async function backupBeforeUpgrade(database: Database, dir: string): Promise<BackupSummary | undefined> {
  if ((await lastMigration(database.db)) === null || !(await holdsPortalData(database.db))) return undefined;
  const summary = await writeBackup(database, path.join(dir, backupFileName(new Date(), 'before-upgrade')));
  console.log(`Backed up the database before upgrading it: ${summary.file}`);
  return summary;
}

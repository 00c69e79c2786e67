import { createReadStream, type ReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '../../db/client';
import { backupFileName, writeBackup } from '../../db/backup';
import { actorOf, recordAudit } from '../audit/service';

export interface BackupDownload {
  fileName: string;
  bytes: number;
  /** The file's bytes; the file is removed once the stream closes. */
  stream: ReadStream;
}

/**
 * A backup of the whole database for an admin to download: written to a file of its own first
 * (its header holds the digest of all that follows), recorded in the audit trail, then streamed.
 */
export async function backupForDownload(database: Database, admin: { id: string; email: string }): Promise<BackupDownload> {
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-download-'));
  try {
    const fileName = backupFileName(new Date());
    const { file, header, bytes } = await writeBackup(database, path.join(folder, fileName));
    await recordAudit(database.db, actorOf(admin), 'backup.download', fileName, {
      tables: header.tables.length,
      rows: header.tables.reduce((sum, t) => sum + t.rows, 0),
      bytes,
      sha256: header.sha256,
    });
    const stream = createReadStream(file);
    stream.once('close', () => void rm(folder, { recursive: true, force: true }));
    return { fileName, bytes, stream };
  } catch (err) {
    await rm(folder, { recursive: true, force: true });
    throw err;
  }
}

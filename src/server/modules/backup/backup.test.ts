import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBackup, restoreBackup } from '../../db/backup';
import { expectAdminOnly } from '../../test/admin-access';
import { everyRow } from '../../test/backup-data';
import { createTestContext, type TestContext } from '../../test/test-app';
import { createTestDatabase } from '../../test/test-db';

let ctx: TestContext;
let folder: string;

beforeAll(async () => {
  ctx = await createTestContext();
  folder = await mkdtemp(path.join(tmpdir(), 'portal-download-test-'));
});
afterAll(async () => {
  await ctx?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('GET /api/admin/backup', { timeout: 120_000 }, () => {
  it('is for admins only, comes as a download of a whole backup that restores, and is recorded in the audit trail', async () => {
    const answer = await expectAdminOnly(ctx, { method: 'GET', url: '/api/admin/backup' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/gzip');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="portal-backup-\d{8}T\d{6}Z\.gz"$/);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const file = path.join(folder, 'download.gz');
    await writeFile(file, answer.rawPayload);
    const header = await checkBackup(file);
    expect(header.tables.find((t) => t.name === 'users')?.rows).toBeGreaterThanOrEqual(3);

    // The download is the database as it was: restored elsewhere, it has the same accounts.
    const target = await createTestDatabase();
    try {
      await restoreBackup(target, file);
      expect((await everyRow(target)).users).toEqual((await everyRow(ctx.database)).users);
    } finally {
      await target.destroy();
    }

    const admin = await ctx.signIn('admin');
    const audit = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?action=backup.download', headers: { cookie: admin } });
    const entries = (audit.json() as { entries: { action: string; target: string; detail: { rows: number; sha256: string } }[] }).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'backup.download', detail: { sha256: header.sha256 } });
    expect(entries[0]!.target).toMatch(/^portal-backup-/);
  });

  it('is sent as it is to a browser that accepts compressed answers: the file is compressed already', async () => {
    const admin = await ctx.signIn('admin');
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup', headers: { cookie: admin, 'accept-encoding': 'br, gzip' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
    const file = path.join(folder, 'browser.gz');
    await writeFile(file, answer.rawPayload);
    await expect(checkBackup(file)).resolves.toMatchObject({ format: 'attendance-portal-backup' });
  });

  it('is in the API documentation with its operationId', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(doc.paths['/api/admin/backup']?.get?.operationId).toBe('downloadBackup');
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageSchema } from '../../../shared/schemas/audit';
import { auditLog } from '../../db/schema';
import { expectAdminOnly } from '../../test/admin-access';
import { createTestContext, type TestContext } from '../../test/test-app';
import { CLI, recordAudit } from './service';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = { id: null, label: 'head@test.university.edu' };
  await recordAudit(ctx.database.db, CLI, 'account.create', 'first@test.university.edu', { role: 'admin' });
  await recordAudit(ctx.database.db, admin, 'class.create', 'CSE9');
  await recordAudit(ctx.database.db, admin, 'class.update', 'CSE9', { name: { from: 'CSE9', to: 'ECE1' } });
  await recordAudit(ctx.database.db, admin, 'term.create', 'Autumn 2026', { startsOn: '2026-07-01' });
}, 60_000);
afterAll(() => ctx.close());

describe('GET /api/admin/audit', () => {
  it('is for admins only and lists entries newest first', async () => {
    const answer = await expectAdminOnly(ctx, { method: 'GET', url: '/api/admin/audit' });
    expect(answer.statusCode).toBe(200);
    const page = AuditPageSchema.parse(answer.json());
    expect(page.entries.slice(0, 4).map((e) => e.action)).toEqual(['term.create', 'class.update', 'class.create', 'account.create']);
    const first = page.entries.find((e) => e.action === 'account.create');
    expect(first).toMatchObject({ actor: 'cli', target: 'first@test.university.edu', detail: { role: 'admin' } });
  });

  it('filters by action and date, and pages through every entry once', async () => {
    const cookie = await ctx.signIn('admin');
    const byAction = AuditPageSchema.parse(
      (await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?action=class.update', headers: { cookie } })).json(),
    );
    expect(byAction.entries.map((e) => e.target)).toEqual(['CSE9']);

    const today = new Date().toISOString().slice(0, 10);
    const future = (await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?from=2999-01-01', headers: { cookie } })).json();
    expect(future).toEqual({ entries: [], nextBefore: null });
    const todays = AuditPageSchema.parse(
      (await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?from=${today}&to=${today}`, headers: { cookie } })).json(),
    );
    expect(todays.entries.length).toBeGreaterThanOrEqual(4);

    const seen: string[] = [];
    let before: string | null = null;
    do {
      const url: string = `/api/admin/audit?limit=1${before ? `&before=${before}` : ''}`;
      const page = AuditPageSchema.parse((await ctx.app.inject({ method: 'GET', url, headers: { cookie } })).json());
      seen.push(...page.entries.map((e) => e.id));
      before = page.nextBefore;
    } while (before);
    const all = AuditPageSchema.parse((await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?limit=500', headers: { cookie } })).json());
    expect(seen).toEqual(all.entries.map((e) => e.id));
  });

  it('refuses a bad filter with a clear message', async () => {
    const cookie = await ctx.signIn('admin');
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?action=everything', headers: { cookie } });
    expect(bad.statusCode).toBe(400);
    const backwards = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?from=2026-02-01&to=2026-01-01', headers: { cookie } });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toMatch(/from must not be after to/);
  });

  it('downloads the filtered trail as CSV', async () => {
    const cookie = await ctx.signIn('admin');
    const csv = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?format=csv&action=class.update', headers: { cookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('At,Actor,Action,Target,Detail');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',head@test.university.edu,class.update,CSE9,');
  });
});

describe('the trail cannot be changed', () => {
  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const db = ctx.database.db;
    await expect(db.execute(sql`update audit_log set actor = 'someone else'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_log`)).rejects.toThrow();
    const kept = await db.select().from(auditLog).where(eq(auditLog.actor, 'cli'));
    expect(kept.map((entry) => entry.target)).toContain('first@test.university.edu');
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageSchema } from '../../../shared/schemas/audit';
import { auditLog } from '../../db/schema';
import { expectAdminOnly } from '../../test/admin-access';
import { createTestContext, type TestContext } from '../../test/test-app';
import { putStudents } from '../roster/service';
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
    // Signing in test accounts may add entries of its own: look at the four written above.
    const written = page.entries.filter((e) => ['first@test.university.edu', 'CSE9', 'Autumn 2026'].includes(e.target));
    expect(written.map((e) => e.action)).toEqual(['term.create', 'class.update', 'class.create', 'account.create']);
    const first = page.entries.find((e) => e.action === 'account.create');
    expect(first).toMatchObject({ actor: 'cli', target: 'first@test.university.edu', detail: { role: 'admin' } });
  });

  it('filters by action and date, and pages through every entry once', async () => {
    const cookie = await ctx.signIn('admin');
    const byAction = AuditPageSchema.parse(
      (await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?action=class.update', headers: { cookie } })).json(),
    );
    expect(byAction.entries.map((e) => [e.action, e.target])).toEqual([['class.update', 'CSE9']]);

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

describe('what the trail records', () => {
  async function entries(cookie: string, action: string) {
    const answer = await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?action=${action}`, headers: { cookie } });
    return AuditPageSchema.parse(answer.json()).entries;
  }

  it('a register saved, then replaced, by the faculty member who saved it', async () => {
    const admin = await ctx.signIn('admin');
    await putStudents(ctx.database.db, [
      { pin: 'AUD1', name: 'Audit One', className: 'CSE4' },
      { pin: 'AUD2', name: 'Audit Two', className: 'CSE4' },
    ]);
    const email = 'register-taker@test.university.edu';
    const faculty = await ctx.signIn('faculty', { email });
    const save = (present: boolean, reason?: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/attendance/CSE4/2026-01-05',
        headers: { cookie: faculty },
        payload: { records: [{ pin: 'AUD1', present }], ...(reason ? { reason } : {}) },
      });
    expect((await save(true)).statusCode).toBe(200);
    expect((await save(false, 'Left before the roll call')).statusCode).toBe(200);

    const [saved] = await entries(admin, 'register.save');
    expect(saved).toMatchObject({ actor: email, target: 'CSE4 2026-01-05', detail: { present: 1, absent: 1, changed: 2 } });
    const [replaced] = await entries(admin, 'register.replace');
    expect(replaced).toMatchObject({
      actor: email,
      target: 'CSE4 2026-01-05',
      detail: { present: 0, absent: 2, changed: 1, reason: 'Left before the roll call' },
    });
  });

  it('a profile approved, edited and deleted', async () => {
    const admin = await ctx.signIn('admin');
    await putStudents(ctx.database.db, [{ pin: 'AUD3', name: 'Audit Three', className: 'CSE4' }]);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/registrations',
      payload: { pin: 'AUD3', name: 'Audit Three', designation: 'CSE, 2nd year' },
      remoteAddress: '198.51.100.77',
    });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    const email = 'reviewer@test.university.edu';
    const faculty = await ctx.signIn('faculty', { email });
    expect((await ctx.app.inject({ method: 'POST', url: `/api/registrations/${id}/approve`, headers: { cookie: faculty } })).statusCode).toBe(200);
    const edited = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/registrations/${id}`,
      headers: { cookie: faculty },
      payload: { designation: 'CSE, 3rd year' },
    });
    expect(edited.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/registrations/${id}`, headers: { cookie: faculty } })).statusCode).toBe(204);

    expect((await entries(admin, 'profile.approve'))[0]).toMatchObject({ actor: email, target: 'AUD3' });
    expect((await entries(admin, 'profile.edit'))[0]).toMatchObject({ actor: email, target: 'AUD3', detail: { fields: ['designation'] } });
    expect((await entries(admin, 'profile.delete'))[0]).toMatchObject({ actor: email, target: 'AUD3', detail: { status: 'approved' } });
  });
});

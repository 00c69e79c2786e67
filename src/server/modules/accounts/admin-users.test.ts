import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminUserSchema,
  CreatedUserSchema,
  LAST_ADMIN_MESSAGE,
  SetPasswordLinkSchema,
  STUDENT_NEEDS_PIN_MESSAGE,
  UsersPageSchema,
  type AdminUser,
} from '../../../shared/schemas/admin-users';
import { AuditPageSchema, type AuditAction } from '../../../shared/schemas/audit';
import { expectAdminOnly } from '../../test/admin-access';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { putStudents } from '../roster/service';
import { addUser, disableUser, setPassword } from './service';
import { CLI } from '../audit/service';

type Method = 'GET' | 'POST' | 'PATCH';

function call(ctx: TestContext, cookie: string | null, method: Method, url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
}

/** Signs in with e-mail and password on the Faculty tab; returns the cookie. */
async function signInAs(ctx: TestContext, email: string, password = TEST_PASSWORD): Promise<string> {
  const answer = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, role: 'faculty', remember: false },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const cookie = answer.cookies.find((c) => c.name === 'portal_session');
  return `portal_session=${cookie!.value}`;
}

async function auditEntries(ctx: TestContext, admin: string, action: AuditAction) {
  const answer = await call(ctx, admin, 'GET', `/api/admin/audit?action=${action}&limit=500`);
  expect(answer.statusCode, answer.body).toBe(200);
  return AuditPageSchema.parse(answer.json()).entries;
}

describe('accounts administration: routes and roles', () => {
  let ctx: TestContext;
  let admin: string;
  const ADMIN_EMAIL = 'accounts-admin@test.university.edu';

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.signIn('admin', { email: ADMIN_EMAIL });
    await putStudents(ctx.database.db, [
      { pin: '26ACC0001', name: 'Asha Rao', className: 'CSE1' },
      { pin: '26ACC0002', name: 'Vikram Das', className: 'CSE2' },
    ]);
  }, 60_000);
  afterAll(() => ctx.close());

  async function create(payload: object): Promise<{ user: AdminUser; setPasswordUrl: string }> {
    const answer = await call(ctx, admin, 'POST', '/api/admin/users', payload);
    expect(answer.statusCode, answer.body).toBe(201);
    return CreatedUserSchema.parse(answer.json());
  }

  it('GET /api/admin/users is for admins only and lists accounts with their state', async () => {
    const answer = await expectAdminOnly(ctx, { method: 'GET', url: '/api/admin/users' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const page = UsersPageSchema.parse(answer.json());
    const me = page.users.find((u) => u.email === ADMIN_EMAIL);
    expect(me).toMatchObject({ role: 'admin', disabled: false, hasPassword: true, pin: null });
    expect(me?.lastSignInAt).not.toBeNull();
    expect(page.total).toBeGreaterThanOrEqual(page.users.length);
    expect(answer.body).not.toContain('passwordHash');
    expect(answer.body).not.toContain('$argon2');
  });

  it('POST /api/admin/users is for admins only; a faculty account has no password and a link', async () => {
    const answer = await expectAdminOnly(ctx, {
      method: 'POST',
      url: '/api/admin/users',
      payload: { email: 'New.Lecturer@test.university.edu', name: ' Meera Iyer ', role: 'faculty' },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const created = CreatedUserSchema.parse(answer.json());
    expect(created.user).toMatchObject({ email: 'New.Lecturer@test.university.edu', name: 'Meera Iyer', role: 'faculty', hasPassword: false, disabled: false, lastSignInAt: null });
    expect(created.setPasswordUrl).toMatch(/^http:\/\/localhost(:\d+)?\/set-password#token=[A-Za-z0-9_-]{40,}$/);
    // The refused requests changed nothing: one account with that e-mail.
    const list = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?q=new.lecturer')).json());
    expect(list.total).toBe(1);
  });

  it('adds an admin, and a student on a roster PIN; refuses an unknown PIN, a PIN for staff and a student without one', async () => {
    expect((await create({ email: 'second.admin@test.university.edu', name: 'Second Admin', role: 'admin' })).user.role).toBe('admin');
    const student = await create({ email: 'asha@test.university.edu', name: 'Asha Rao', role: 'student', pin: '26acc0001' });
    expect(student.user).toMatchObject({ role: 'student', pin: '26ACC0001' });

    const unknown = await call(ctx, admin, 'POST', '/api/admin/users', { email: 'ghost@test.university.edu', name: 'Ghost', role: 'student', pin: 'NOPE999' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('PIN NOPE999 is not on the roster');
    const noPin = await call(ctx, admin, 'POST', '/api/admin/users', { email: 'ghost@test.university.edu', name: 'Ghost', role: 'student' });
    expect(noPin.statusCode).toBe(400);
    expect(noPin.json().message).toBe("A student account needs the student's roster PIN");
    const staffPin = await call(ctx, admin, 'POST', '/api/admin/users', { email: 'ghost@test.university.edu', name: 'Ghost', role: 'faculty', pin: '26ACC0002' });
    expect(staffPin.statusCode).toBe(400);
    expect(staffPin.json().message).toBe('Only student accounts have a PIN');
    const badEmail = await call(ctx, admin, 'POST', '/api/admin/users', { email: 'not-an-email', name: 'X', role: 'faculty' });
    expect(badEmail.statusCode).toBe(400);
  });

  it('refuses an e-mail that already has an account, in any case, with 409', async () => {
    await create({ email: 'twice@test.university.edu', name: 'Once', role: 'faculty' });
    const again = await call(ctx, admin, 'POST', '/api/admin/users', { email: 'TWICE@test.university.edu', name: 'Twice', role: 'faculty' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('An account with the email TWICE@test.university.edu already exists');
  });

  it('searches e-mail, name and PIN in any case, filters by role and pages with a total', async () => {
    await create({ email: 'vikram@test.university.edu', name: 'Vikram Das', role: 'student', pin: '26ACC0002' });
    const byPin = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?q=26acc000')).json());
    expect(byPin.users.map((u) => u.email).sort()).toEqual(['asha@test.university.edu', 'vikram@test.university.edu']);
    const byName = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?q=MEERA')).json());
    expect(byName.users.map((u) => u.email)).toEqual(['New.Lecturer@test.university.edu']);
    const wildcard = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?q=%25')).json());
    expect(wildcard.total).toBe(0);

    const students = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?role=student')).json());
    expect(students.users.every((u) => u.role === 'student')).toBe(true);
    const all = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?limit=200')).json());
    const first = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?limit=2&offset=0')).json());
    const second = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?limit=2&offset=2')).json());
    expect(first.total).toBe(all.total);
    expect([...first.users, ...second.users].map((u) => u.id)).toEqual(all.users.slice(0, 4).map((u) => u.id));

    expect((await call(ctx, admin, 'GET', '/api/admin/users?limit=201')).statusCode).toBe(400);
    expect((await call(ctx, admin, 'GET', '/api/admin/users?role=dean')).statusCode).toBe(400);
    expect((await call(ctx, admin, 'GET', '/api/admin/users?offset=-1')).statusCode).toBe(400);
  });

  it('PATCH /api/admin/users/:id is for admins only and renames', async () => {
    const { user } = await create({ email: 'rename.me@test.university.edu', name: 'Old Name', role: 'faculty' });
    const answer = await expectAdminOnly(ctx, { method: 'PATCH', url: `/api/admin/users/${user.id}`, payload: { name: 'New Name' } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(AdminUserSchema.parse(answer.json()).name).toBe('New Name');
    const [entry] = (await auditEntries(ctx, admin, 'account.update')).filter((e) => e.target === 'rename.me@test.university.edu');
    // expectAdminOnly acts as an admin of its own.
    expect(entry).toMatchObject({ actor: expect.stringMatching(/^admin\d+@test/), detail: { name: { from: 'Old Name', to: 'New Name' } } });

    expect((await call(ctx, admin, 'PATCH', `/api/admin/users/${user.id}`, {})).statusCode).toBe(400);
    expect((await call(ctx, admin, 'PATCH', '/api/admin/users/not-an-id', { name: 'X' })).statusCode).toBe(404);
    expect((await call(ctx, admin, 'PATCH', '/api/admin/users/00000000-0000-4000-8000-000000000000', { name: 'X' })).statusCode).toBe(404);
  });

  it('POST /api/admin/users/:id/reset-password is for admins only, gives a new link and records it', async () => {
    const { user } = await create({ email: 'reset.me@test.university.edu', name: 'Reset Me', role: 'faculty' });
    const answer = await expectAdminOnly(ctx, { method: 'POST', url: `/api/admin/users/${user.id}/reset-password` });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(SetPasswordLinkSchema.parse(answer.json()).setPasswordUrl).toContain('/set-password#token=');
    const entries = (await auditEntries(ctx, admin, 'account.reset-password')).filter((e) => e.target === 'reset.me@test.university.edu');
    expect(entries).toHaveLength(1);
    expect(entries[0]?.actor).toMatch(/^admin\d+@test/);
    expect((await call(ctx, admin, 'POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/reset-password')).statusCode).toBe(404);
  });

  it('disabling ends the sign-in sessions at once; enabling lets the account sign in again; both audited', async () => {
    await addUser(ctx.database.db, { email: 'to.disable@test.university.edu', name: 'To Disable', role: 'faculty', password: TEST_PASSWORD });
    const victim = await signInAs(ctx, 'to.disable@test.university.edu');
    expect((await call(ctx, victim, 'GET', '/api/classes')).statusCode).toBe(200);
    const id = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?q=to.disable')).json()).users[0]!.id;

    const disabled = await call(ctx, admin, 'PATCH', `/api/admin/users/${id}`, { disabled: true });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(AdminUserSchema.parse(disabled.json()).disabled).toBe(true);
    expect((await call(ctx, victim, 'GET', '/api/classes')).statusCode).toBe(401);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'to.disable@test.university.edu', password: TEST_PASSWORD, role: 'faculty' },
    });
    expect(refused.statusCode).toBe(401);
    // A disabled account gets no set-password link: it would not work.
    const reset = await call(ctx, admin, 'POST', `/api/admin/users/${id}/reset-password`);
    expect(reset.statusCode).toBe(409);

    const enabled = await call(ctx, admin, 'PATCH', `/api/admin/users/${id}`, { disabled: false });
    expect(AdminUserSchema.parse(enabled.json()).disabled).toBe(false);
    // The old cookie stays ended; a new sign-in works.
    expect((await call(ctx, victim, 'GET', '/api/classes')).statusCode).toBe(401);
    const again = await signInAs(ctx, 'to.disable@test.university.edu');
    expect((await call(ctx, again, 'GET', '/api/classes')).statusCode).toBe(200);

    expect((await auditEntries(ctx, admin, 'account.disable')).filter((e) => e.target === 'to.disable@test.university.edu')).toMatchObject([{ actor: ADMIN_EMAIL }]);
    expect((await auditEntries(ctx, admin, 'account.enable')).filter((e) => e.target === 'to.disable@test.university.edu')).toMatchObject([{ actor: ADMIN_EMAIL }]);
    // Asking for the state it has changes and records nothing.
    await call(ctx, admin, 'PATCH', `/api/admin/users/${id}`, { disabled: false });
    expect((await auditEntries(ctx, admin, 'account.enable')).filter((e) => e.target === 'to.disable@test.university.edu')).toHaveLength(1);
  });

  it("a role change ends the account's other sign-in sessions and is audited from and to", async () => {
    await addUser(ctx.database.db, { email: 'promote.me@test.university.edu', name: 'Promote Me', role: 'faculty', password: TEST_PASSWORD });
    const session = await signInAs(ctx, 'promote.me@test.university.edu');
    const id = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?q=promote.me')).json()).users[0]!.id;
    const answer = await call(ctx, admin, 'PATCH', `/api/admin/users/${id}`, { role: 'admin' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(AdminUserSchema.parse(answer.json()).role).toBe('admin');
    expect((await call(ctx, session, 'GET', '/api/classes')).statusCode).toBe(401);
    const fresh = await signInAs(ctx, 'promote.me@test.university.edu');
    expect((await call(ctx, fresh, 'GET', '/api/admin/users')).statusCode).toBe(200);
    const [entry] = (await auditEntries(ctx, admin, 'account.update')).filter((e) => e.target === 'promote.me@test.university.edu');
    expect(entry?.detail).toEqual({ role: { from: 'faculty', to: 'admin' } });
    // An admin changing their own role keeps their own session (when another admin remains).
    const demoted = await call(ctx, fresh, 'PATCH', `/api/admin/users/${id}`, { role: 'faculty' });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect((await call(ctx, fresh, 'GET', '/api/classes')).statusCode).toBe(200);
    expect((await call(ctx, fresh, 'GET', '/api/admin/users')).statusCode).toBe(403);
  });

  it('makes a student only of an account with a PIN; a student made staff keeps the PIN', async () => {
    const faculty = await create({ email: 'never.student@test.university.edu', name: 'Never Student', role: 'faculty' });
    const refused = await call(ctx, admin, 'PATCH', `/api/admin/users/${faculty.user.id}`, { role: 'student' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(STUDENT_NEEDS_PIN_MESSAGE);

    const vikram = UsersPageSchema.parse((await call(ctx, admin, 'GET', '/api/admin/users?q=vikram@')).json()).users[0]!;
    const staff = AdminUserSchema.parse((await call(ctx, admin, 'PATCH', `/api/admin/users/${vikram.id}`, { role: 'faculty' })).json());
    expect(staff).toMatchObject({ role: 'faculty', pin: '26ACC0002' });
    const back = AdminUserSchema.parse((await call(ctx, admin, 'PATCH', `/api/admin/users/${vikram.id}`, { role: 'student' })).json());
    expect(back).toMatchObject({ role: 'student', pin: '26ACC0002' });
  });

  it('records account.create with the admin as actor, and the CLI as cli', async () => {
    await create({ email: 'audited@test.university.edu', name: 'Audited', role: 'faculty' });
    await addUser(ctx.database.db, { email: 'cli.made@test.university.edu', name: 'Cli Made', role: 'faculty', password: TEST_PASSWORD }, CLI);
    await setPassword(ctx.database.db, 'cli.made@test.university.edu', 'an entirely different passphrase', CLI);
    await disableUser(ctx.database.db, 'cli.made@test.university.edu', CLI);
    const created = await auditEntries(ctx, admin, 'account.create');
    expect(created.find((e) => e.target === 'audited@test.university.edu')).toMatchObject({ actor: ADMIN_EMAIL, detail: { role: 'faculty', name: 'Audited' } });
    expect(created.find((e) => e.target === 'cli.made@test.university.edu')).toMatchObject({ actor: 'cli' });
    expect((await auditEntries(ctx, admin, 'account.reset-password')).find((e) => e.target === 'cli.made@test.university.edu')).toMatchObject({ actor: 'cli' });
    expect((await auditEntries(ctx, admin, 'account.disable')).find((e) => e.target === 'cli.made@test.university.edu')).toMatchObject({ actor: 'cli' });
  });
});

describe('the last enabled admin', () => {
  let ctx: TestContext;
  let first: string;
  let firstId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    first = await ctx.signIn('admin', { email: 'only.admin@test.university.edu' });
    const page = UsersPageSchema.parse((await call(ctx, first, 'GET', '/api/admin/users')).json());
    firstId = page.users.find((u) => u.email === 'only.admin@test.university.edu')!.id;
  }, 60_000);
  afterAll(() => ctx.close());

  it('cannot be disabled or demoted (409), by themselves either', async () => {
    for (const change of [{ disabled: true }, { role: 'faculty' }, { role: 'student' }]) {
      const answer = await call(ctx, first, 'PATCH', `/api/admin/users/${firstId}`, change);
      expect(answer.statusCode, JSON.stringify(change)).toBe(change.role === 'student' ? 400 : 409);
      if (answer.statusCode === 409) expect(answer.json().message).toBe(LAST_ADMIN_MESSAGE);
    }
    // Still an admin, still signed in.
    expect((await call(ctx, first, 'GET', '/api/admin/users')).statusCode).toBe(200);
  });

  it('of two admins demoting each other at once, one succeeds and the other gets 409', async () => {
    const second = await ctx.signIn('admin', { email: 'other.admin@test.university.edu' });
    const page = UsersPageSchema.parse((await call(ctx, first, 'GET', '/api/admin/users?role=admin')).json());
    const secondId = page.users.find((u) => u.email === 'other.admin@test.university.edu')!.id;
    const answers = await Promise.all([
      call(ctx, first, 'PATCH', `/api/admin/users/${secondId}`, { role: 'faculty' }),
      call(ctx, second, 'PATCH', `/api/admin/users/${firstId}`, { disabled: true }),
    ]);
    // The other is refused: by the rule (409) when both changes were checked while both were
    // admins, or (401) when the first change was committed before the other request's sign-in was
    // read, as the change ended the demoted or disabled admin's sessions.
    const [succeeded, refused] = answers.map((a) => a.statusCode).sort();
    expect(succeeded).toBe(200);
    expect([401, 409]).toContain(refused);
    const admins = UsersPageSchema.parse(
      (await call(ctx, answers[0]!.statusCode === 200 ? first : second, 'GET', '/api/admin/users?role=admin')).json(),
    ).users.filter((u) => !u.disabled);
    expect(admins).toHaveLength(1);
  });
});

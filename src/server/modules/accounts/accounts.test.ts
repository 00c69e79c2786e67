import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test/test-app';
import { importRoster } from '../roster-import/service';
import { addUser, findUserByEmail, upsertStudentAccounts } from './service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

const signIn = (email: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, role: 'student' }, remoteAddress: '10.40.0.1' });

describe('student accounts from the roster', () => {
  it('creates a passwordless account per student with an e-mail, updates it on the next import, and no password signs it in', async () => {
    const first = await importRoster(ctx.database.db, 'pin,name,class,email\nA1,Asha,CSE1,asha@uni.edu\nA2,Ravi,CSE1,\n');
    expect(await upsertStudentAccounts(ctx.database.db, first.accounts)).toEqual({ created: 1, updated: 0, unchanged: 0 });
    const account = await findUserByEmail(ctx.database.db, 'asha@uni.edu');
    expect(account).toMatchObject({ role: 'student', pin: 'A1', name: 'Asha', passwordHash: null });
    expect((await signIn('asha@uni.edu', '')).statusCode).toBe(400);
    expect((await signIn('asha@uni.edu', 'anything at all')).statusCode).toBe(401);

    const again = await importRoster(ctx.database.db, 'pin,name,class,email\nA1,Asha Rao,CSE1,asha@uni.edu\n');
    expect(await upsertStudentAccounts(ctx.database.db, again.accounts)).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(await findUserByEmail(ctx.database.db, 'asha@uni.edu')).toMatchObject({ name: 'Asha Rao' });
  });

  it('refuses to move an existing account to another PIN', async () => {
    await expect(upsertStudentAccounts(ctx.database.db, [{ pin: 'A2', name: 'Asha Rao', email: 'asha@uni.edu' }])).rejects.toThrow(
      'asha@uni.edu is the account of PIN A1, not A2: nothing was imported',
    );
  });

  it("refuses an e-mail that is a staff member's account", async () => {
    await addUser(ctx.database.db, { email: 'dean@uni.edu', name: 'Dean', role: 'faculty', password: TEST_PASSWORD });
    await expect(upsertStudentAccounts(ctx.database.db, [{ pin: 'A2', name: 'Ravi', email: 'dean@uni.edu' }])).rejects.toThrow(
      'dean@uni.edu belongs to a faculty account',
    );
  });
});

import type { Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { expectAccessible, expect, signIn, test } from './fixtures';

// A new account on each run, so that a retry on the same database starts afresh.
const EMAIL = `two.step.${Date.now()}@demo.university.edu`;
const PASSWORD = 'amber lantern crosses rivers';

async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
}

async function passwordStep(page: Page) {
  await page.goto('/login');
  const login = page.getByRole('form', { name: 'Faculty login' });
  await login.getByRole('textbox', { name: 'Email' }).fill(EMAIL);
  await login.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await login.getByRole('button', { name: 'Login' }).click();
}

test('a faculty member turns on two-step sign-in with a QR code, signs in with a code and with a recovery code, and an admin resets it', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  // An admin makes the account; its set-password link sets the password.
  await signIn(page, 'admin');
  const headers = { origin: baseURL!, 'content-type': 'application/json' };
  const created = await page.request.post('/api/admin/users', { headers, data: { email: EMAIL, name: 'Two Step', role: 'faculty' } });
  expect(created.status()).toBe(201);
  const token = new URL((await created.json()).setPasswordUrl as string).hash.replace('#token=', '');
  await signOut(page);
  expect((await page.request.post('/api/auth/set-password', { headers, data: { token, password: PASSWORD } })).status()).toBe(204);

  // Setting it up on the account page.
  await passwordStep(page);
  await page.waitForURL('**/dashboard');
  await page.getByRole('banner').getByRole('link', { name: 'Two Step' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  const form = page.getByRole('form', { name: 'Turn on two-step sign-in' });
  const qr = form.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml/);
  const secret = ((await form.locator('code').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  await expectAccessible(page);

  const enabledAt = Date.now();
  await form.getByRole('textbox', { name: 'Code' }).fill(app.generate({ timestamp: enabledAt }));
  await form.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.nth(0).textContent())!.trim();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('On. 10 of 10 recovery codes left.')).toBeVisible();
  await signOut(page);

  // The password alone is no longer enough: the code of the next step completes it.
  await passwordStep(page);
  const step = page.getByRole('form', { name: 'Two-step sign-in' });
  await expect(step.getByRole('textbox', { name: 'Code' })).toBeFocused();
  await expectAccessible(page);
  await step.getByRole('textbox', { name: 'Code' }).fill(app.generate({ timestamp: enabledAt + 30_000 }));
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/dashboard');
  await signOut(page);

  // A recovery code works once.
  await passwordStep(page);
  await step.getByRole('button', { name: 'Use a recovery code' }).click();
  await step.getByRole('textbox', { name: 'Recovery code' }).fill(recovery);
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/dashboard');
  await page.goto('/account');
  await expect(page.getByText('On. 9 of 10 recovery codes left.')).toBeVisible();
  await signOut(page);

  // Lost phone: an admin resets it from the accounts table, and the password signs in alone again.
  await signIn(page, 'admin');
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search' }).fill(EMAIL);
  await page.getByRole('button', { name: `Actions for ${EMAIL}` }).click();
  await page.getByRole('menuitem', { name: 'Reset two-step sign-in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reset two-step sign-in' }).click();
  await expect(page.getByText(`Two-step sign-in of ${EMAIL} is off.`)).toBeVisible();
  await signOut(page);
  await passwordStep(page);
  await page.waitForURL('**/dashboard');
});

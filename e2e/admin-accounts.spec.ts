import type { Page } from '@playwright/test';
import { expectAccessible, signIn, test, expect } from './fixtures';

// A new e-mail on each run, so that a retry on the same database finds it free.
const EMAIL = `new.lecturer.${Date.now()}@demo.university.edu`;
const PASSWORD = 'violet kettle marches sideways';

/** Signs in on the Faculty tab, where admins and faculty sign in, and lands on the dashboard. */
async function signInOnFacultyTab(page: Page, email: string, password: string) {
  await page.goto('/login');
  const login = page.getByRole('form', { name: 'Faculty login' });
  await login.getByRole('textbox', { name: 'Email' }).fill(email);
  await login.getByRole('textbox', { name: 'Password' }).fill(password);
  await login.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/dashboard');
}

test('an admin adds a faculty account; its set-password link sets the password and the new account signs in', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Accounts' })).toContainText('admin@demo.university.edu');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Add account' }).click();
  const form = page.getByRole('form', { name: 'Add account' });
  await form.getByRole('textbox', { name: 'E-mail' }).fill(EMAIL);
  await form.getByRole('textbox', { name: 'Name' }).fill('Meera Iyer');
  await form.getByRole('button', { name: 'Add account' }).click();

  const shown = page.getByRole('dialog', { name: 'Account added' });
  const linkBox = shown.getByRole('textbox', { name: 'Set-password link' });
  await expect(linkBox).toHaveValue(/\/set-password#token=/);
  await expect(shown).toContainText('72 hours');
  await expect(shown.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const link = await linkBox.inputValue();
  await expectAccessible(page);
  await shown.getByRole('button', { name: 'Done' }).click();

  // The new account is in the table, waiting for its password.
  await page.getByRole('searchbox', { name: 'Search' }).fill('meera');
  const table = page.getByRole('table', { name: 'Accounts' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText(EMAIL);
  await expect(table).toContainText('No password yet');

  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  // The token leaves the address bar once read.
  await expect(page).toHaveURL(/\/set-password$/);
  await expectAccessible(page);
  const choose = page.getByRole('form', { name: 'Choose your password' });
  await choose.getByLabel(/^New password\s*\*?$/).fill(PASSWORD);
  await choose.getByLabel(/^New password again/).fill(PASSWORD);
  await choose.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password is set.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await page.waitForURL('**/login');

  await signInOnFacultyTab(page, EMAIL, PASSWORD);
});

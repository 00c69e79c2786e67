import type { Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_FACULTY, demoPin } from '../src/server/seed/demo';
import { said } from './catalogs';
import { expectAccessible, expect, test } from './fixtures';

const PASSWORD = 'quiet harbour lanterns glow';

/** The language picker: the sign-in page's, or the header's. */
function picker(page: Page) {
  return page.getByRole('combobox', { name: /^(Language|भाषा|భాష)$/ }).first();
}

for (const language of ['hi', 'te'] as const) {
  test(`in ${language === 'hi' ? 'Hindi' : 'Telugu'}: sign-in, the dashboard, a register and a student's record, accessible throughout`, async ({ page }) => {
    test.slow();
    const t = (english: string, values?: Record<string, string | number>) => said(language, english, values);
    await page.goto('/login');
    await picker(page).selectOption(language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.getByRole('heading', { level: 1, name: t('University Portal') })).toBeVisible();
    await expect(page.getByText(t('Access your academic resources'))).toBeVisible();
    // The device keeps the choice.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: t('University Portal') })).toBeVisible();
    const form = page.getByRole('form', { name: t('Faculty login') });
    await form.getByRole('textbox', { name: t('Email') }).fill('not-an-email');
    await form.getByRole('textbox', { name: t('Password') }).focus();
    await expect(form.getByText(t('Please enter a valid email address'))).toBeVisible();
    await expectAccessible(page);

    await form.getByRole('textbox', { name: t('Email') }).fill(DEMO_FACULTY.email);
    await form.getByRole('textbox', { name: t('Password') }).fill(DEMO_FACULTY.password);
    await form.getByRole('button', { name: t('Login') }).click();
    await page.waitForURL('**/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: t('Faculty Dashboard') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expectAccessible(page);

    // A register: CSE5's, looked at and marked, not submitted (other journeys count its registers).
    await page.goto('/attendance/CSE5');
    await expect(page.getByRole('button', { name: t('Submit Attendance') })).toBeVisible();
    const first = page.getByRole('switch').first();
    await first.check();
    await expect(page.getByRole('group', { name: t('Totals') })).toBeVisible();
    await expectAccessible(page);

    // A student's record, by PIN.
    const pin = demoPin(0, 1);
    await page.goto(`/faculty?pin=${pin}`);
    const record = page.getByRole('region', { name: new RegExp(`^${t('Attendance record of {name}', { name: '.+' })}$`) });
    await expect(record.getByRole('heading', { name: t('Attendance Summary') })).toBeVisible();
    await expect(record.getByRole('table', { name: t('Attendance History') })).toBeVisible();
    await expectAccessible(page);
  });
}

test('the language picked in the header stays after a reload and follows the account to another browser', async ({ page, browser, baseURL }) => {
  // An account of its own: the demo accounts' language stays as the other journeys expect it.
  const admin = await browser.newContext({ baseURL });
  const headers = { origin: baseURL!, 'content-type': 'application/json' };
  const login = await admin.request.post('/api/auth/login', { headers, data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, role: 'faculty', remember: false } });
  expect(login.status()).toBe(200);
  const email = `languages.${Date.now()}@demo.university.edu`;
  const created = await admin.request.post('/api/admin/users', { headers, data: { email, name: 'Sravani Languages', role: 'faculty' } });
  expect(created.status()).toBe(201);
  const token = new URL((await created.json()).setPasswordUrl as string).hash.replace('#token=', '');
  expect((await admin.request.post('/api/auth/set-password', { headers, data: { token, password: PASSWORD } })).status()).toBe(204);
  await admin.close();

  const signInAs = async (where: Page) => {
    await where.goto('/login');
    const form = where.getByRole('form', { name: 'Faculty login' });
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Login' }).click();
    await where.waitForURL('**/dashboard');
  };
  await signInAs(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Faculty Dashboard' })).toBeVisible();
  await picker(page).selectOption('te');
  await expect(page.getByRole('heading', { level: 1, name: said('te', 'Faculty Dashboard') })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'te');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: said('te', 'Faculty Dashboard') })).toBeVisible();

  // Another browser, which has never seen the choice: English until the account signs in.
  const other = await browser.newContext({ baseURL });
  const elsewhere = await other.newPage();
  await signInAs(elsewhere);
  await expect(elsewhere.getByRole('heading', { level: 1, name: said('te', 'Faculty Dashboard') })).toBeVisible();
  await expect(elsewhere.locator('html')).toHaveAttribute('lang', 'te');
  await other.close();
});

import type { Page } from '@playwright/test';
import { addDays } from '../src/shared/dates';
import { DEMO_ADMIN, DEMO_FACULTY, demoPin, demoRoster } from '../src/server/seed/demo';
import { expectAccessible, expect, signIn, test } from './fixtures';

/** The demo student (DEMO_STUDENT) and their classmates. */
const STUDENT = demoRoster().find((entry) => entry.pin === demoPin(2, 1))!;
const CLASSMATES = demoRoster().filter((entry) => entry.className === STUDENT.className);

/** Signs the page's browser in through the API (the cookie lands in the context). */
async function signInThroughApi(page: Page, account: { email: string; password: string }) {
  await page.context().clearCookies();
  const login = await page.request.post('/api/auth/login', { data: { email: account.email, password: account.password, role: 'faculty', remember: false } });
  expect(login.status()).toBe(200);
}

test('a student absent three lectures in a row finds the notice in the bell, opens it and marks all as read', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const headers = { origin: baseURL! };
  // A subject of its own (and a period of its own on a retried run, whose first try left its
  // registers): no other journey's figures count its lectures, and a retry starts a new episode.
  const attempt = test.info().retry;
  const subject = { code: `JAL${attempt}`, name: `Alerts Lab ${attempt}` };
  await signInThroughApi(page, DEMO_ADMIN);
  const created = await page.request.post('/api/admin/subjects', { headers, data: subject });
  expect([201, 409]).toContain(created.status());

  // Faculty take three lectures, a day apart, on days the demo left without registers (it takes
  // the last two weeks' only), marking the student absent each time: the running portal
  // evaluates the alerts of each save.
  await signInThroughApi(page, DEMO_FACULTY);
  const today = ((await (await page.request.get('/api/attendance/today')).json()) as { date: string }).date;
  for (const back of [25, 24, 23]) {
    const saved = await page.request.put(`/api/attendance/${STUDENT.className}/${addDays(today, -back)}?period=${attempt + 1}`, {
      headers,
      data: { subject: subject.code, records: CLASSMATES.map(({ pin }) => ({ pin, status: pin === STUDENT.pin ? 'absent' : 'present' })) },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }

  await page.context().clearCookies();
  await signIn(page, 'student');
  const banner = page.getByRole('banner');
  // Counted as soon as the evaluation has written it (the live stream says so, or the page asked after).
  const bell = banner.getByRole('button', { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  const notice = dialog.getByRole('link', { name: `Unread: Absent 3 times in a row in ${subject.name}` });
  await expect(notice).toBeVisible();
  await expect(dialog.getByText(/^You were marked absent in Alerts Lab \d on /)).toBeVisible();
  await expectAccessible(page);

  await dialog.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(banner.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(dialog.getByRole('link', { name: `Absent 3 times in a row in ${subject.name}` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(banner.getByRole('button', { name: 'Notifications', exact: true })).toBeFocused();

  // On a phone, from the keyboard: the popover fits the screen, and its link leads to the record.
  await page.setViewportSize({ width: 360, height: 640 });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  await dialog.getByRole('link', { name: `Absent 3 times in a row in ${subject.name}` }).click();
  await expect(page).toHaveURL(/\/student$/);
  await expect(dialog).toBeHidden();
});

test('a student chooses never to get alert e-mails, and the choice stays', async ({ page }) => {
  await signIn(page, 'student');
  await page.goto('/account');
  const choices = page.getByRole('radiogroup', { name: 'How alerts reach you by e-mail' });
  await choices.getByRole('radio', { name: 'Never: only in the portal' }).check();
  await expect(page.getByRole('region', { name: 'Alert e-mails' }).getByRole('status')).toHaveText('Saved: Never: only in the portal.');
  await expectAccessible(page);
  await page.reload();
  await expect(choices.getByRole('radio', { name: 'Never: only in the portal' })).toBeChecked();
  // As the demo had it.
  await choices.getByRole('radio', { name: 'A daily digest at 07:30' }).check();
  await expect(page.getByRole('region', { name: 'Alert e-mails' }).getByRole('status')).toHaveText('Saved: A daily digest at 07:30.');
});

test('an admin switches an alert rule off, finds it off after a reload, and on again', async ({ page, baseURL }) => {
  await signIn(page, 'admin');
  try {
    await page.goto('/admin/alerts');
    await expect(page.getByRole('region', { name: 'Threshold' })).toContainText('75%');
    const rule = page.getByRole('switch', { name: 'Register not taken' });
    await expect(rule).toBeChecked();
    await rule.uncheck();
    await expect(page.getByText('Register not taken is now off.')).toBeVisible();
    await expectAccessible(page);
    await page.reload();
    await expect(rule).not.toBeChecked();
    await rule.check();
    await expect(page.getByText('Register not taken is now on.')).toBeVisible();
  } finally {
    // As the demo had it, whatever happened above.
    const restored = await page.request.put('/api/admin/alerts', { headers: { origin: baseURL! }, data: { rules: [{ rule: 'register-missing', enabled: true }] } });
    expect(restored.status()).toBe(200);
  }
});

import type { Page } from '@playwright/test';
import { demoPin } from '../src/server/seed/demo';
import { expectAccessible, expect, signIn, test } from './fixtures';

/**
 * On a page just opened, the first Tab reaches the skip link (nothing has taken focus first), which
 * takes focus to the page's heading.
 */
async function expectSkipLink(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  // Time for a focus that the page might still move (it waits for the heading).
  await page.waitForTimeout(300);
  await expect(page.getByRole('heading', { level: 1, name: heading })).not.toBeFocused();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
}

test('every main screen starts with a skip link, and moving to another page focuses its heading', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/login');
  await expectSkipLink(page, 'University Portal');

  await signIn(page, 'faculty');
  // Signing in moves to another page: focus lands on its heading.
  await expect(page.getByRole('heading', { level: 1, name: 'Faculty Dashboard' })).toBeFocused();
  const screens: [string, string | RegExp][] = [
    ['/dashboard', 'Faculty Dashboard'],
    ['/attendance/CSE1', 'CSE1 Attendance'],
    ['/faculty-details', 'Faculty Dashboard'],
    ['/faculty', 'Student Attendance'],
    ['/welcome', /Welcome/],
    ['/inbox', /Inbox|Messages/],
  ];
  for (const [path, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectSkipLink(page, heading);
  }

  // Opened in a new tab, a signed-in page leaves focus alone too.
  for (const [path, heading] of [['/dashboard', 'Faculty Dashboard'], ['/faculty-details', 'Faculty Dashboard']] as const) {
    const tab = await page.context().newPage();
    await tab.goto(path);
    await expect(tab.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 20_000 });
    await expectSkipLink(tab, heading);
    await tab.close();
  }

  // Through the menu: focus lands on the new page's heading.
  await page.getByRole('banner').getByRole('link', { name: 'Classes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Faculty Dashboard' })).toBeFocused();
  await page.getByRole('banner').getByRole('link', { name: 'Student Search' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Student Attendance' })).toBeFocused();
});

test('a signed-out visit to a signed-in page lands on the sign-in page with the skip link first', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdashboard$/);
  await expectSkipLink(page, 'University Portal');
});

test('a student\'s menu item for their record is the page they land on', async ({ page }) => {
  await signIn(page, 'student');
  await expect(page).toHaveURL(/\/faculty$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Attendance' })).toBeVisible();
  const item = page.getByRole('banner').getByRole('link', { name: 'My Attendance' });
  await expect(item).toHaveAttribute('href', '/faculty');
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  // Away first: a click on the item while the home page's chunk still loads would stay on this page.
  await expect(page).toHaveURL(/\/welcome/);
  await item.click();
  await expect(page).toHaveURL(/\/faculty$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Attendance' })).toBeFocused();
});

test('the main screens fit a 360 px phone without sideways scrolling, and axe finds nothing serious there', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'University Portal' })).toBeVisible();
  await expectAccessible(page);
  await signIn(page, 'faculty');
  for (const [path, heading] of [
    ['/dashboard', 'Faculty Dashboard'],
    ['/attendance/CSE2', 'CSE2 Attendance'],
    ['/faculty-details', 'Faculty Dashboard'],
    ['/faculty', 'Student Attendance'],
    ['/corrections', 'Correction requests'],
    ['/inbox', /Inbox/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    await expectAccessible(page);
  }
});

test('dark mode follows the device, can be switched and stays switched; at 1366 px axe finds nothing serious in light or dark', async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/login');
  // Decided in the page's head, before the app's script runs.
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('heading', { level: 1, name: 'University Portal' })).toBeVisible();
  await expectAccessible(page);

  await signIn(page, 'faculty');
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [path, heading] of [
      ['/dashboard', 'Faculty Dashboard'],
      ['/attendance/CSE2', 'CSE2 Attendance'],
      ['/faculty-details', 'Faculty Dashboard'],
      ['/faculty', 'Student Attendance'],
      ['/welcome', /Welcome/],
      ['/register', 'Student Registration'],
      ['/corrections', 'Correction requests'],
      ['/inbox', /Inbox/],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expectAccessible(page);
    }
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/faculty');
  await page.getByRole('textbox', { name: /PIN/ }).first().fill(demoPin(0, 1));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /Attendance History/ }).first()).toBeVisible();
  await expectAccessible(page);

  // The switch wins over the device's setting, and is remembered in this browser.
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');

  // A student's home in dark, on a phone.
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 360, height: 640 } });
  const phone = await context.newPage();
  await signIn(phone, 'student');
  await expect(phone.getByRole('heading', { level: 1, name: 'My Attendance' })).toBeVisible();
  await expect(phone.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectAccessible(phone);
  await context.close();
});

test('the API documentation opens on the running portal, with its own pages and the API it describes', async ({ page }) => {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /University attendance portal API/ })).toBeVisible();
  // An operation of the API, as the document lists it.
  await expect(page.getByText('/api/auth/login').first()).toBeVisible();
  expect(failed).toEqual([]);
});

import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { DEMO_FACULTY, DEMO_STUDENT } from '../src/server/seed/demo';

export { expect };

/** A test fails when the page logs a console error or throws. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        // Expected refusals (401 before sign-in, 403 for a wrong tab) are logged by the browser too;
        // they are part of the journeys. Script errors and server failures are not.
        const text = message.text();
        if (message.type() === 'error' && !/status of 4\d\d/.test(text)) errors.push(text);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export async function signIn(page: Page, as: 'faculty' | 'student'): Promise<void> {
  const account = as === 'faculty' ? DEMO_FACULTY : DEMO_STUDENT;
  await page.goto('/login');
  if (as === 'student') await page.getByRole('tab', { name: 'Student' }).click();
  const form = page.getByRole('form', { name: as === 'faculty' ? 'Faculty login' : 'Student login' });
  await form.getByRole('textbox', { name: 'Email' }).fill(account.email);
  await form.getByRole('textbox', { name: 'Password' }).fill(account.password);
  await form.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(as === 'faculty' ? '**/dashboard' : '**/faculty');
}

/** No serious or critical accessibility violations on the current page. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

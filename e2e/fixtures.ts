import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_FACULTY, DEMO_STUDENT } from '../src/server/seed/demo';
import { waitOutMidnight } from '../src/server/test/midnight';

export { expect };

/**
 * A test fails when the page logs a console error, throws or breaks its Content Security Policy,
 * or when a request fails that no page should ever see fail: asking who is signed in (200
 * `{ user: null }` when nobody is), or anything else refused for want of a
 * sign-in, except a wrong password.
 */
export const test = base.extend<{ consoleErrors: string[]; midnightGuard: void }>({
  // A journey that would start in the last two minutes of a day (UTC, the portal's zone here:
  // playwright.config.ts) waits for the next one, so that it never runs across midnight.
  midnightGuard: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function takes from its first parameter
    async ({}, use, testInfo) => {
      await waitOutMidnight((wait) => testInfo.setTimeout(testInfo.timeout + wait));
      await use();
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        // Expected refusals (a wrong password, a wrong tab, a PIN taken or not on the roster) are
        // logged by the browser too; they are part of the journeys. Script errors and server
        // failures are not, and the requests below are checked one by one.
        const text = message.text();
        if (message.type() === 'error' && !/status of 4\d\d/.test(text)) errors.push(text);
      });
      page.on('response', (response) => {
        const request = response.request();
        const { pathname } = new URL(response.url());
        const signInCheck = pathname === '/api/auth/me' && response.status() !== 200;
        const signedOutRefusal = response.status() === 401 && !(request.method() === 'POST' && pathname === '/api/auth/login');
        if (signInCheck || signedOutRefusal) errors.push(`${request.method()} ${pathname} answered ${response.status()}`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      // So does a page that breaks its own Content Security Policy (a script, a style or an eval
      // it refuses), even where the page catches the error.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) =>
          console.error(`Content Security Policy violation: ${event.violatedDirective} (${event.blockedURI || 'inline'}) from ${event.sourceFile || 'the page'}`),
        );
      });
      await use(errors);
      expect(errors, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

/** Signs in as a demo account; an admin uses the Faculty tab and lands where faculty do. */
export async function signIn(page: Page, as: 'faculty' | 'student' | 'admin'): Promise<void> {
  const account = as === 'faculty' ? DEMO_FACULTY : as === 'admin' ? DEMO_ADMIN : DEMO_STUDENT;
  await page.goto('/login');
  if (as === 'student') await page.getByRole('tab', { name: 'Student' }).click();
  const form = page.getByRole('form', { name: as === 'student' ? 'Student login' : 'Faculty login' });
  await form.getByRole('textbox', { name: 'Email' }).fill(account.email);
  await form.getByRole('textbox', { name: 'Password' }).fill(account.password);
  await form.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(as === 'student' ? '**/faculty' : '**/dashboard');
}

/**
 * No serious or critical accessibility violations on the current page, once it is still: a dialog
 * fading in is checked as it ends up, not half transparent (its text would fail on contrast).
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // Two frames, so that a transition asked for just now has started; then the finite ones end.
    for (let frame = 0; frame < 2; frame += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
    const finite = document.getAnimations().filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)));
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.any[0]?.message ?? ''})`).join(', ')}`)).toEqual([]);
}

/**
 * On the phone the page is open on, nothing of the record runs past the screen's edge (not even
 * inside a box that scrolls) and no status or action is cut short.
 */
export async function expectRecordReadsWhole(page: Page): Promise<void> {
  const record = page.getByRole('region', { name: /^Attendance record of / });
  const problems = await record.evaluate((section) => {
    const found: string[] = [];
    const screen = document.documentElement.clientWidth;
    const words = (el: Element) => (el.textContent ?? '').trim().slice(0, 40);
    if (document.documentElement.scrollWidth > screen) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const el of section.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > screen + 0.5) found.push(`${el.tagName.toLowerCase()} "${words(el)}" ends at ${Math.round(box.right)} px`);
    }
    for (const el of section.querySelectorAll('.mantine-Badge-root, .mantine-Badge-label, button, .mantine-Button-label')) {
      if (el.scrollWidth > el.clientWidth) found.push(`"${words(el)}" is cut: ${el.scrollWidth} px shown in ${el.clientWidth}`);
    }
    return found;
  });
  expect(problems).toEqual([]);
}

import type { Page } from '@playwright/test';
import { expectAccessible, expect, signIn, test } from './fixtures';

/** The shortest ending of `pin` that no other PIN of the roster ends with. */
function uniqueEnding(pin: string, roster: string[]): string {
  for (let length = 2; length < pin.length; length += 1) {
    const ending = pin.slice(-length);
    if (roster.filter((other) => other.endsWith(ending)).length === 1) return ending;
  }
  return pin;
}

async function rosterOf(page: Page, className: string): Promise<string[]> {
  const response = await page.request.get(`/api/classes/${className}/students`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { pin: string }[]).map((student) => student.pin);
}

test('faculty take a register with the absentee box; leaving asks first, a reload keeps the draft, submitting clears it', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'faculty');
  const roster = await rosterOf(page, 'CSE6');
  const away = [roster[4]!, roster[17]!];

  await page.goto('/attendance/CSE6');
  await expect(page.getByRole('heading', { name: 'CSE6 Attendance' })).toBeVisible();
  await expect(page.getByRole('switch')).toHaveCount(roster.length);
  const totals = page.getByRole('group', { name: 'Totals' });

  const box = page.getByRole('textbox', { name: 'Absentees (PIN endings)' });
  await box.fill(away.map((pin) => uniqueEnding(pin, roster)).join(', '));
  await box.press('Enter');
  await expect(page.getByText(`2 marked absent (${away.join(', ')}), everyone else present.`)).toBeVisible();
  await expect(totals).toContainText(new RegExp(`Present\\s*${roster.length - 2}`));
  await expect(totals).toContainText(/Absent\s*2/);
  await expect(page.getByRole('switch', { name: new RegExp(`\\(${away[0]}\\)$`) })).not.toBeChecked();
  await expectAccessible(page);

  // A link inside the portal asks first; staying keeps everything.
  await page.getByRole('link', { name: 'Back to the dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave without submitting?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/attendance\/CSE6$/);
  await expect(totals).toContainText(/Absent\s*2/);

  // A reload asks through the browser; going ahead, the draft comes back.
  const asked: string[] = [];
  page.once('dialog', (question) => {
    asked.push(question.type());
    void question.accept();
  });
  await page.reload();
  expect(asked).toEqual(['beforeunload']);
  await expect(page.getByText(/^Restored the marks you had not submitted/)).toBeVisible();
  await expect(totals).toContainText(/Absent\s*2/);
  await expect(page.getByRole('switch', { name: new RegExp(`\\(${away[1]}\\)$`) })).not.toBeChecked();

  await page.getByRole('button', { name: 'Submit Attendance' }).click();
  await expect(page.getByText('Attendance submitted successfully!')).toBeVisible();
  await expect(page.getByText(/^Taken by Dr\. Kavitha Rao on /)).toBeVisible();
  // Submitted: nothing to ask about, no draft to restore.
  await page.reload();
  await expect(page.getByText(/^Taken by Dr\. Kavitha Rao on /)).toBeVisible();
  await expect(page.getByText(/^Restored the marks/)).toBeHidden();
  await expect(totals).toContainText(/Absent\s*2/);

  // The register on a phone: no sideways scrolling, and still accessible.
  await page.setViewportSize({ width: 360, height: 640 });
  await expect(page.getByRole('heading', { name: 'CSE6 Attendance' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  // Scrolled to the list, at least 10 students show between the sticky header and the totals.
  const visibleRows = async () =>
    page.evaluate(() => {
      const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
      const footer = document.querySelector('[aria-label="Totals"]')?.closest('div[class*="footer"]')?.getBoundingClientRect().top ?? innerHeight;
      const rows = [...document.querySelectorAll('tbody tr')];
      window.scrollBy(0, rows[0]!.getBoundingClientRect().top - header);
      return rows.filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= header - 1 && box.bottom <= footer + 1;
      }).length;
    });
  expect(await visibleRows()).toBeGreaterThanOrEqual(10);
  await page.setViewportSize({ width: 1366, height: 768 });
  expect(await visibleRows()).toBeGreaterThanOrEqual(20);
  await page.getByRole('link', { name: 'Back to the dashboard' }).click();
  await expect(page.getByRole('link', { name: /^CSE6/ })).toContainText('Taken today');
});

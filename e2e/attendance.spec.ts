import { expectAccessible, expect, signIn, test } from './fixtures';

test('faculty take CSE3\'s register from the dashboard, and it is there after a reload', async ({ page }) => {
  // The longest journey (a 60-student register, a reload, three accessibility checks): on a busy
  // two-core machine it has taken close to two minutes.
  test.slow();
  await signIn(page, 'faculty');
  await expect(page.getByRole('heading', { name: 'Faculty Dashboard' })).toBeVisible();
  await expect(page.getByText('Select a class to manage attendance')).toBeVisible();
  const cards = page.getByRole('link', { name: /View\/Manage Attendance/ });
  await expect(cards).toHaveCount(8);
  // The demo data holds past registers but never today's.
  const cse3 = page.getByRole('link', { name: /^CSE3/ });
  await expect(cse3).toContainText('60 students');
  await expect(cse3).toContainText('Not taken today');
  await expectAccessible(page);

  await cse3.click();
  await page.waitForURL('**/attendance/CSE3');
  await expect(page.getByRole('heading', { name: 'CSE3 Attendance' })).toBeVisible();
  const switches = page.getByRole('switch');
  await expect(switches).toHaveCount(60);
  const totals = page.getByRole('group', { name: 'Totals' });
  await expect(totals).toContainText(/Total Students\s*60/);
  await expect(totals).toContainText(/Present\s*0/);
  await expectAccessible(page);

  // The switches' names hold the student's name and PIN; mark the first three present.
  const names: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const mark = switches.nth(i);
    names.push((await mark.getAttribute('aria-label')) ?? '');
    await mark.check();
  }
  await expect(totals).toContainText(/Present\s*3/);
  await expect(totals).toContainText(/Absent\s*57/);

  await page.getByRole('button', { name: 'Submit Attendance' }).click();
  await expect(page.getByText('Attendance submitted successfully!')).toBeVisible();
  await expect(page.getByText(/^Taken by Dr\. Kavitha Rao on /)).toBeVisible();
  await expectAccessible(page);
  // The specification's messages disappear after 3 seconds.
  await expect(page.getByText('Attendance submitted successfully!')).toBeHidden({ timeout: 6_000 });

  await page.reload();
  await expect(page.getByText(/^Taken by Dr\. Kavitha Rao on /)).toBeVisible();
  for (const name of names) await expect(page.getByRole('switch', { name })).toBeChecked();
  await expect(page.getByRole('switch').nth(3)).not.toBeChecked();
  await expect(totals).toContainText(/Present\s*3/);

  await page.getByRole('button', { name: 'Change history' }).click();
  await expect(page.getByText('Took the register: 3 present, 57 absent.')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Back to the dashboard' }).click();
  await expect(page.getByRole('link', { name: /^CSE3/ })).toContainText('Taken today');
  await expectAccessible(page);
});

test('an unknown class shows a not-found state', async ({ page }) => {
  await signIn(page, 'faculty');
  await page.goto('/attendance/CSE9');
  await expect(page.getByText('Class CSE9 does not exist')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit Attendance' })).toHaveCount(0);
});

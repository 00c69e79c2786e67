import { test, expect, expectAccessible, signIn } from './fixtures';

// A PIN of its own on each run, so that a retry on the same database adds a new student.
const RUN = Date.now() % 100000;
const NEW_PIN = `NEW${RUN}`;
const NEW_NAME = `Newcomer ${RUN}`;

function csv(text: string) {
  return { name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') };
}

test('an admin previews a roster file, fixes its error, applies it, and the new student is on the register', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Roster' }).click();
  await page.waitForURL('**/admin/roster');
  await expect(page.getByRole('heading', { name: 'Roster' })).toBeVisible();
  await expectAccessible(page);

  // A file with an unknown class on line 3: its problem by line, and nothing can be applied.
  const fileInput = page.locator('input[type="file"]');
  await fileInput.setInputFiles(csv(`pin,name,class\n${NEW_PIN},${NEW_NAME},CSE2\nNEW${RUN}B,Second Newcomer,ECE9\n`));
  const problems = page.getByRole('table', { name: 'Problems in the file' });
  await expect(problems.getByRole('row').nth(1)).toContainText('3');
  await expect(problems.getByRole('row').nth(1)).toContainText('class "ECE9" does not exist');
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await expectAccessible(page);

  // The fixed file: previewed, then applied.
  await fileInput.setInputFiles(csv(`pin,name,class\n${NEW_PIN},${NEW_NAME},CSE2\n`));
  await expect(problems).toHaveCount(0);
  const added = page.getByRole('table', { name: 'Students added' });
  await expect(added.getByRole('row', { name: new RegExp(NEW_NAME) })).toContainText('CSE2');
  await expect(page.getByRole('checkbox', { name: /^Withdraw the \d+ students not in the file$/ })).not.toBeChecked();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Roster imported' })).toContainText('1 added, 0 updated, 0 moved, 0 unchanged');

  // The new student is on CSE2's register.
  await page.goto('/attendance/CSE2');
  await expect(page.getByRole('heading', { name: 'CSE2 Attendance' })).toBeVisible();
  await expect(page.getByRole('switch', { name: new RegExp(NEW_NAME) })).toBeVisible();
});

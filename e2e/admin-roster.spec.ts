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

test('an admin checks an export of the Firebase app, adds its unknown class, imports it, and a second import adds nothing', async ({ page }) => {
  const oldClass = `OLD${RUN}`;
  const record = (n: number, present: unknown) => ({ pin: `FB${RUN}X${n}`, name: `Old Student ${n}`, class: oldClass, present });
  const exportFile = {
    name: 'firestore-export.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({
        attendance: {
          d1: { date: '2024-01-08', class: oldClass, timestamp: { _seconds: 1704700000, _nanoseconds: 0 }, records: [record(1, true), record(2, 'Absent')] },
          d2: { date: '2024-01-08', class: oldClass, timestamp: { _seconds: 1704703600, _nanoseconds: 0 }, records: [record(2, 'Present')] },
        },
        registrations: { r1: { name: 'Old Student 1', designation: 'Student', Pinnumber: `fb${RUN}x1` } },
        cards: { c1: { Pinnumber: `FB${RUN}X1`, designation: 'Student' } },
      }),
      'utf8',
    ),
  };
  await signIn(page, 'admin');
  try {
    await page.goto('/admin/import');
    await expect(page.getByRole('heading', { name: 'Import from the Firebase app' })).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles(exportFile);

    // The class is not in the portal: the check says so, and nothing can be imported yet.
    const stops = page.getByRole('table', { name: 'What stops the import' });
    await expect(stops).toContainText(`Class ${oldClass} is not in the portal`);
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
    await expectAccessible(page);

    await page.getByRole('checkbox', { name: 'Add the classes the export names that the portal does not have' }).check();
    await expect(stops).toHaveCount(0);
    await expect(page.getByText(/It would add: 1 register, 2 marks \(2 present, 0 absent\), 2 students added to the roster/)).toBeVisible();
    await expect(page.getByText('1 attendance document is merged into another of the same class and date.')).toBeVisible();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toContainText(`1 class (${oldClass})`);
    await expectAccessible(page);

    // The same file again: everything was imported before.
    await page.locator('input[type="file"]').setInputFiles(exportFile);
    await expect(page.getByText('3 documents were imported before and are left out.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  } finally {
    // The class the import added leaves the dashboard, whose journeys count the demo's eight classes.
    await page.request.patch(`/api/admin/classes/${encodeURIComponent(oldClass)}`, { data: { archived: true } });
  }
});

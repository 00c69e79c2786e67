import { expectAccessible, signIn, test, expect } from './fixtures';

// A name of its own on each run, so that a retry on the same database finds it free.
const NEW_CLASS = `LAB ${Date.now() % 100000}`;

test('an admin adds a class, moves it, archives and restores it; the dashboard follows', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/admin/classes');
  const active = page.getByRole('table', { name: 'Classes on the dashboard' });
  await expect(active.getByRole('rowheader', { name: 'CSE1' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('textbox', { name: 'New class name' }).fill(NEW_CLASS);
  await page.getByRole('button', { name: 'Add class' }).click();
  await expect(active.getByRole('rowheader').last()).toHaveText(NEW_CLASS);

  await page.getByRole('button', { name: `Move ${NEW_CLASS} up` }).click();
  await expect(active.getByRole('rowheader').last()).toHaveText('CSE8');

  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Classes' }).getByRole('heading');
  await expect(cards.nth(-2)).toHaveText(NEW_CLASS);

  await page.goto('/admin/classes');
  await page.getByRole('button', { name: `Archive ${NEW_CLASS}` }).click();
  const confirm = page.getByRole('dialog', { name: `Archive ${NEW_CLASS}` });
  await expect(confirm).toContainText('It leaves the dashboard');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Archive' }).click();
  const archived = page.getByRole('table', { name: 'Archived classes' });
  await expect(archived.getByRole('rowheader', { name: new RegExp(NEW_CLASS) })).toBeVisible();

  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'Classes' }).getByRole('heading', { name: 'CSE1' })).toBeVisible();
  await expect(page.getByRole('heading', { name: NEW_CLASS })).toHaveCount(0);

  await page.goto('/admin/classes');
  await page.getByRole('button', { name: `Restore ${NEW_CLASS}` }).click();
  await page.getByRole('dialog', { name: `Restore ${NEW_CLASS}` }).getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('table', { name: 'Archived classes' })).toHaveCount(0);
  await expect(active.getByRole('rowheader', { name: NEW_CLASS })).toBeVisible();

  // The journeys share one demo database: archived again, the dashboard keeps the demo's eight classes.
  await page.getByRole('button', { name: `Archive ${NEW_CLASS}` }).click();
  await page.getByRole('dialog', { name: `Archive ${NEW_CLASS}` }).getByRole('button', { name: 'Archive' }).click();
  await expect(archived.getByRole('rowheader', { name: new RegExp(NEW_CLASS) })).toBeVisible();
});

test('the classes page fits a 360 px phone: the table scrolls inside its box', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, 'admin');
  await page.goto('/admin/classes');
  await expect(page.getByRole('table', { name: 'Classes on the dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add class' })).toBeInViewport();
  // Once laid out, nothing is wider than the screen: the table scrolls inside its own box.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0);
  await expect(page.getByRole('button', { name: 'Archive CSE1' })).toBeAttached();
});

test("an admin gives a class's lecture a teacher and sets the day's period times from its timetable", async ({ page }) => {
  await signIn(page, 'admin');
  const created = await page.request.post('/api/admin/subjects', { data: { code: 'JTT', name: 'Timetabling' } });
  // A retried run finds it there already.
  expect([201, 409]).toContain(created.status());
  try {
    await page.goto('/admin/classes/CSE8/timetable');
    const grid = page.getByRole('table', { name: 'CSE8 weekly timetable' });
    await grid.getByRole('combobox', { name: 'Monday period 1', exact: true }).selectOption('JTT');
    await grid.getByRole('combobox', { name: 'Monday period 1 teacher' }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Save timetable' }).click();
    await expect(page.getByText('The CSE8 timetable has been saved.')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Period times' }).click();
    const dialog = page.getByRole('dialog', { name: 'Period times' });
    await dialog.getByLabel('Period 1 starts').fill('09:00');
    await dialog.getByLabel('Period 1 ends').fill('08:00');
    await dialog.getByRole('button', { name: 'Save period times' }).click();
    await expect(dialog.getByText('Period 1 must end after it starts')).toBeVisible();
    await expectAccessible(page);
    await dialog.getByLabel('Period 1 ends').fill('09:50');
    await dialog.getByRole('button', { name: 'Save period times' }).click();
    await expect(dialog).toBeHidden();
    await expect(grid.getByRole('rowheader', { name: '1 09:00–09:50' })).toBeVisible();
  } finally {
    // The journeys share one demo database: CSE8 keeps no timetable, and the periods no times.
    expect((await page.request.put('/api/admin/classes/CSE8/timetable', { data: { slots: [] } })).status()).toBe(200);
    expect((await page.request.put('/api/admin/periods', { data: [] })).status()).toBe(200);
  }
});

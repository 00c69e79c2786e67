import type { Page } from '@playwright/test';
import { addDays } from '../src/shared/dates';
import { DEMO_ADMIN, demoPin, demoRoster } from '../src/server/seed/demo';
import { expectAccessible, expect, expectRecordReadsWhole, signIn, test } from './fixtures';

/** The demo student (DEMO_STUDENT) and their class. */
const STUDENT = demoRoster().find((entry) => entry.pin === demoPin(2, 1))!;
const OTHERS = demoRoster().filter((entry) => entry.className === STUDENT.className && entry.pin !== STUDENT.pin);

/** ISO weekday of a date: 1 = Monday .. 7 = Sunday. */
const weekdayOf = (date: string) => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
};

/**
 * A weekend day of the last week: the demo data takes registers on week days only, so the day has
 * no whole-day register, and it is not today's weekday, so the timetable set here leaves today's
 * register pages of the other journeys as they are.
 */
function lectureDay(today: string): string {
  for (let back = 1; back <= 7; back += 1) {
    const date = addDays(today, -back);
    if (weekdayOf(date) >= 6 && weekdayOf(date) !== weekdayOf(today)) return date;
  }
  throw new Error('no weekend day in the last week');
}

/** Signs the page's browser in as the demo admin through the API (the cookie lands in the context). */
async function asAdmin(page: Page) {
  await page.context().clearCookies();
  const login = await page.request.post('/api/auth/login', {
    data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, role: 'faculty', remember: false },
  });
  expect(login.status()).toBe(200);
}

test('faculty take period 2 of a timetabled class with one late and one excused student, and the student sees the subject table', async ({
  page,
}) => {
  // Four sign-ins and two registers of 60 students: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  await asAdmin(page);
  const today = ((await (await page.request.get('/api/attendance/today')).json()) as { date: string }).date;
  const date = lectureDay(today);
  const weekday = weekdayOf(date);
  for (const subject of [
    { code: 'JDS', name: 'Data Structures' },
    { code: 'JOS', name: 'Operating Systems' },
  ]) {
    const created = await page.request.post('/api/admin/subjects', { data: subject });
    // A retried run finds them there already.
    expect([201, 409]).toContain(created.status());
  }
  const timetable = await page.request.put(`/api/admin/classes/${STUDENT.className}/timetable`, {
    data: {
      slots: [
        { weekday, period: 1, subject: 'JDS' },
        { weekday, period: 2, subject: 'JOS' },
      ],
    },
  });
  expect(timetable.status()).toBe(200);

  try {
    await page.context().clearCookies();
    await signIn(page, 'faculty');
    await page.goto(`/attendance/${STUDENT.className}?date=${date}`);
    const picker = page.getByRole('radiogroup', { name: 'Period' });
    // The first lecture not taken yet is chosen.
    await expect(picker.getByRole('radio', { name: /^Period 1: Data Structures/ })).toBeChecked();
    await picker.getByText(/^Period 2: Operating Systems/).click();
    await expect(page.getByRole('heading', { name: `${STUDENT.className} Attendance · Period 2: Operating Systems` })).toBeVisible();
    await expect(page).toHaveURL(/[?&]period=2/);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Mark all present' }).click();
    const late = `${STUDENT.name} (${STUDENT.pin})`;
    const excused = `${OTHERS[0]!.name} (${OTHERS[0]!.pin})`;
    await page.getByRole('button', { name: `Late: ${late}` }).click();
    await page.getByRole('button', { name: `Excused: ${excused}` }).click();
    const totals = page.getByRole('group', { name: 'Totals' });
    await expect(totals).toContainText(/Late\s*1/);
    await expect(totals).toContainText(/Excused\s*1/);
    await page.getByRole('button', { name: 'Submit Attendance' }).click();
    await expect(page.getByText('Attendance submitted successfully!')).toBeVisible();
    await expect(picker.getByRole('radio', { name: 'Period 2: Operating Systems (taken)' })).toBeChecked();
    await expect(page.getByRole('button', { name: `Late: ${late}` })).toHaveAttribute('aria-pressed', 'true');
    await expectAccessible(page);

    // An extra lecture, off the timetable, on a phone and from the keyboard.
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 360, height: 640 });
    await page.getByRole('button', { name: 'Add an extra lecture' }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add an extra lecture' });
    const extraPeriod = dialog.getByRole('combobox', { name: 'Period' });
    await expect(extraPeriod).toBeFocused();
    // The first period the day does not hold (3, or later on a retried run).
    const period = await extraPeriod.inputValue();
    await dialog.getByRole('combobox', { name: 'Subject' }).selectOption({ label: 'Data Structures (JDS)' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Take the register' }).press('Enter');
    await expect(page.getByRole('heading', { name: `${STUDENT.className} Attendance · Period ${period}: Data Structures` })).toBeVisible();
    await page.getByRole('button', { name: 'Mark all present' }).click();
    await page.getByRole('button', { name: 'Submit Attendance' }).click();
    await expect(page.getByText('Attendance submitted successfully!')).toBeVisible();
    await expect(picker.getByRole('radio', { name: `Period ${period}: Data Structures (taken)` })).toBeChecked();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize(desktop);

    // The student sees the lecture in their subject table and history.
    await page.context().clearCookies();
    await signIn(page, 'student');
    const subjects = page.getByRole('table', { name: 'Attendance by Subject' });
    await expect(subjects).toBeVisible();
    const row = subjects.getByRole('row', { name: /Operating Systems/ });
    // One lecture held, attended late: 100%.
    await expect(row.getByRole('cell')).toHaveText(['1', '1', '100.0%', 'Good', '0']);
    const history = page.getByRole('table', { name: 'Attendance History' });
    await expect(history.getByRole('row', { name: /Period 2: Operating Systems/ })).toContainText('Late');
    await expectAccessible(page);

    // On a phone the columns do not fit: the subjects and the history are lists of cards.
    await page.setViewportSize({ width: 360, height: 640 });
    const subjectCards = page.getByRole('list', { name: 'Attendance by Subject' });
    await expect(subjectCards.getByRole('listitem').filter({ hasText: 'Operating Systems' })).toContainText('Good');
    const historyCards = page.getByRole('list', { name: 'Attendance History' });
    await expect(historyCards.getByRole('listitem').filter({ hasText: 'Period 2: Operating Systems' })).toContainText('Late');
    await expectRecordReadsWhole(page);
    await expectAccessible(page);
  } finally {
    // The demo's classes keep no timetable for the other journeys; the register taken stays.
    await asAdmin(page);
    const undone = await page.request.put(`/api/admin/classes/${STUDENT.className}/timetable`, { data: { slots: [] } });
    expect(undone.status()).toBe(200);
  }
});

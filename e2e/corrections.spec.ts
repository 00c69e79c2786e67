import type { StudentRecord } from '../src/shared/schemas/students';
import { expectAccessible, expect, signIn, test } from './fixtures';

const REASON = 'I was in the lab with the class; the register was taken before I came back.';

test('a student requests a correction of a mark, faculty accept it, and the register\'s history shows the reason', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, 'student');
  await expect(page.getByRole('heading', { level: 1, name: 'My Attendance' })).toBeVisible();
  const me = (await (await page.request.get('/api/auth/me')).json()) as { user: { pin: string } };
  const record = (await (await page.request.get(`/api/students/${me.user.pin}`)).json()) as StudentRecord;
  const mark = record.history[0]!;

  // The student's home: the term's calendar coloured by mark, and the monthly trend.
  const calendar = page.getByRole('region', { name: 'Calendar' });
  await expect(calendar).toBeVisible();
  await expect(calendar.getByRole('cell', { name: /: (Present|Absent|Late|Excused)$/ }).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Monthly trend' }).getByRole('row')).not.toHaveCount(1);
  await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 640 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1366, height: 768 });

  const history = page.getByRole('table', { name: 'Attendance History' });
  await history.getByRole('button', { name: /^Request a correction/ }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Request a correction' });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(REASON);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();
  await expect(history.getByText('Correction requested').first()).toBeVisible();
  const mine = page.getByRole('region', { name: 'My correction requests' });
  await expect(mine).toContainText(REASON);
  await expect(mine).toContainText('Waiting');

  // Faculty, in their own browser: the header counts it, the page decides it.
  const facultyContext = await browser.newContext();
  const faculty = await facultyContext.newPage();
  await signIn(faculty, 'faculty');
  const item = faculty.getByRole('banner').getByRole('link', { name: /^Corrections/ });
  await expect(item).toContainText('1');
  await item.click();
  await expect(faculty.getByRole('heading', { level: 1, name: 'Correction requests' })).toBeVisible();
  const card = faculty.getByRole('listitem', { name: new RegExp(`Request from .*\\(${me.user.pin}\\)`) });
  await expect(card).toContainText(REASON);
  await expectAccessible(faculty);
  const to = mark.status === 'present' ? 'Absent' : 'Present';
  await expect(card.getByRole('combobox', { name: 'Change the mark to' })).toHaveValue(to);
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(faculty.getByText('No request is waiting.')).toBeVisible();

  // The register's change history keeps the request's reason.
  await faculty.goto(`/attendance/${mark.class}?date=${mark.date}${mark.period > 0 ? `&period=${mark.period}` : ''}`);
  await faculty.getByRole('button', { name: 'Change history' }).click();
  await expect(faculty.getByText(`Reason: ${REASON}`)).toBeVisible();
  await facultyContext.close();

  // The student sees the decision.
  await page.reload();
  await expect(page.getByRole('region', { name: 'My correction requests' })).toContainText('Accepted');
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { students, subjects, timetableSlots } from '../../../../server/db/schema';
import { weekdayOf } from '../../../../server/modules/timetable/service';
import { addUser } from '../../../../server/modules/accounts/service';
import { createInjectFetch, signInThroughFetch } from '../../../../server/test/inject-fetch';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../../../server/test/test-app';
import { MESSAGE_DISPLAY_MS } from '../../../../shared/constants';
import { todayIn } from '../../../../shared/dates';
import type { AttendanceRegister, MarkInput } from '../../../../shared/schemas/attendance';
import { keepUser } from '../../../lib/session';
import type { SignedInUser } from '../../../lib/sign-in';
import { renderRoutes } from '../../../test/render';
import { ClassAttendancePage } from './class-attendance-page';
import { DashboardPage } from './dashboard-page';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(students).values([
    { pin: '23CSE301', name: 'Ananya Rao', className: 'CSE3' },
    { pin: '23CSE302', name: 'Bhavana Iyer', className: 'CSE3' },
    { pin: '23CSE303', name: 'Charan Naidu', className: 'CSE3' },
    { pin: '23CSE401', name: 'Dhruv Menon', className: 'CSE4' },
    { pin: '23CSE402', name: 'Divya Shetty', className: 'CSE4' },
  ]);
  await addUser(ctx.database.db, { email: 'meera@uni.edu', name: 'Dr. Meera Iyer', role: 'faculty', password: TEST_PASSWORD });
  vi.stubGlobal('fetch', createInjectFetch(ctx.app));
  await signInThroughFetch(fetch, 'meera@uni.edu', 'faculty');
  // Starting a migrated database takes several seconds on a busy machine.
}, 60_000);
afterAll(async () => {
  vi.unstubAllGlobals();
  await ctx?.close();
});
// Drafts and the start choice are kept in the browser: each test starts with none.
beforeEach(() => localStorage.clear());

function renderAt(path: string) {
  return renderRoutes(
    [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/attendance/:class', element: <ClassAttendancePage /> },
      // The check-in's projector view is another feature's page.
      { path: '/checkin/:id', element: <p>Projector view</p> },
    ],
    path,
  );
}

/** Roster rows of one class from (PIN, name) pairs. */
const rosterOf = (className: string, entries: [pin: string, name: string][]) => entries.map(([pin, name]) => ({ pin, name, className }));

/** Puts roster students, subjects and timetable slots straight into the database. */
async function seed(rows: {
  students?: (typeof students.$inferInsert)[];
  subjects?: (typeof subjects.$inferInsert)[];
  slots?: (typeof timetableSlots.$inferInsert)[];
}) {
  const { db } = ctx.database;
  if (rows.students) await db.insert(students).values(rows.students);
  if (rows.subjects) await db.insert(subjects).values(rows.subjects);
  if (rows.slots) await db.insert(timetableSlots).values(rows.slots);
}

/** Saves a register through the API, as a colleague would: `path` is `<class>/<date>`, with `?period=N` for a lecture. */
async function putRegister(path: string, records: MarkInput[]) {
  const saved = await fetch(`/api/attendance/${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ records }),
  });
  expect(saved.status).toBe(200);
}

function totals() {
  const group = screen.getByRole('group', { name: 'Totals' });
  const value = (label: string) => within(group).getByText(label).nextElementSibling?.textContent;
  return { total: value('Total Students'), present: value('Present'), absent: value('Absent') };
}

describe('ClassAttendancePage', () => {
  it('starts everyone absent, follows every switch in the totals, and saves the register', async () => {
    const user = userEvent.setup();
    renderAt('/attendance/CSE3');

    expect(await screen.findByRole('heading', { name: 'CSE3 Attendance' })).toBeInTheDocument();
    const ananya = await screen.findByRole('switch', { name: 'Present: Ananya Rao (23CSE301)' });
    expect(ananya).not.toBeChecked();
    expect(screen.getByText('Not taken yet for this day: everyone starts absent.')).toBeInTheDocument();
    expect(totals()).toEqual({ total: '3', present: '0', absent: '3' });

    await user.click(ananya);
    expect(ananya).toBeChecked();
    expect(totals()).toEqual({ total: '3', present: '1', absent: '2' });
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Mark all present' }));
    expect(totals()).toEqual({ total: '3', present: '3', absent: '0' });
    await user.click(screen.getByRole('switch', { name: 'Present: Charan Naidu (23CSE303)' }));
    expect(totals()).toEqual({ total: '3', present: '2', absent: '1' });

    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText('Attendance submitted successfully!')).toBeInTheDocument();
    // The register stays, now as saved, and says who took it.
    expect(await screen.findByText(/^Taken by Dr\. Meera Iyer on .*\d{4}.*\d{2}:\d{2}/)).toBeInTheDocument();
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Present: Charan Naidu (23CSE303)' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Present: Bhavana Iyer (23CSE302)' })).toBeChecked();

    // The specification's messages disappear after 3 seconds.
    await waitFor(() => expect(screen.queryByText('Attendance submitted successfully!')).not.toBeInTheDocument(), {
      timeout: MESSAGE_DISPLAY_MS + 1000,
    });
  }, 40_000);

  it('loads a taken day with its saved marks, replaces it with a reason, and shows the change history', async () => {
    const user = userEvent.setup();
    const today = ((await (await fetch('/api/attendance/today')).json()) as { date: string }).date;
    await putRegister(`CSE4/${today}`, [{ pin: '23CSE401', present: true }]);
    renderAt('/attendance/CSE4');

    const dhruv = await screen.findByRole('switch', { name: 'Present: Dhruv Menon (23CSE401)' });
    expect(dhruv).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Present: Divya Shetty (23CSE402)' })).not.toBeChecked();
    expect(totals()).toEqual({ total: '2', present: '1', absent: '1' });

    await user.click(screen.getByRole('switch', { name: 'Present: Divya Shetty (23CSE402)' }));
    await user.type(screen.getByRole('textbox', { name: /Reason for the change/ }), 'Arrived late');
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText('Attendance submitted successfully!')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Change history' }));
    const reason = await screen.findByText('Reason: Arrived late');
    expect(reason).toBeInTheDocument();
    const changes = screen.getByRole('list', { name: /^Marks changed by Dr\. Meera Iyer/ });
    const [change] = within(changes).getAllByRole('listitem');
    expect(change).toHaveTextContent(/^Divya Shetty\s*23CSE402\s*Absent\s*to\s*Present$/);
    expect(within(changes).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('Took the register: 1 present, 1 absent.')).toBeInTheDocument();
  });

  it('shows a not-found state for an unknown class, with a way back', async () => {
    renderAt('/attendance/CSE9');
    expect(await screen.findByText('Class CSE9 does not exist')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to the dashboard/ })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('button', { name: 'Submit Attendance' })).not.toBeInTheDocument();
  });

  it('shows the empty state for a class without students', async () => {
    renderAt('/attendance/CSE7');
    expect(await screen.findByText('No students found for the selected class.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Attendance' })).not.toBeInTheDocument();
  });

  it('asks for a date when the date is cleared', async () => {
    const user = userEvent.setup();
    renderAt('/attendance/CSE3');
    await screen.findByRole('switch', { name: 'Present: Ananya Rao (23CSE301)' });
    await user.click(screen.getByRole('button', { name: 'Clear date' }));
    expect(await screen.findByText('Please select a date')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Attendance' })).not.toBeInTheDocument();
  });
});

describe('ClassAttendancePage with a timetable', () => {
  it('picks the day\'s first lecture, takes period 2 with a late and an excused student, and keeps them', async () => {
    const weekday = weekdayOf(todayIn('UTC'));
    await seed({
      students: rosterOf('CSE5', [
        ['23CSE501', 'Esha Kapoor'],
        ['23CSE502', 'Farhan Ali'],
        ['23CSE503', 'Gauri Nair'],
      ]),
      subjects: [
        { code: 'DS', name: 'Data Structures' },
        { code: 'DBMS', name: 'Databases' },
      ],
      slots: [
        { className: 'CSE5', weekday, period: 1, subjectCode: 'DS' },
        { className: 'CSE5', weekday, period: 2, subjectCode: 'DBMS' },
      ],
    });
    const user = userEvent.setup();
    const { router } = renderAt('/attendance/CSE5');

    expect(await screen.findByRole('heading', { name: 'CSE5 Attendance · Period 1: Data Structures' })).toBeInTheDocument();
    const picker = screen.getByRole('radiogroup', { name: 'Period' });
    expect(within(picker).getByRole('radio', { name: 'Period 1: Data Structures' })).toBeChecked();
    await user.click(within(picker).getByRole('radio', { name: 'Period 2: Databases' }));
    expect(await screen.findByRole('heading', { name: 'CSE5 Attendance · Period 2: Databases' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?period=2');

    await user.click(await screen.findByRole('button', { name: 'Mark all present' }));
    await user.click(screen.getByRole('button', { name: 'Late: Farhan Ali (23CSE502)' }));
    await user.click(screen.getByRole('button', { name: 'Excused: Gauri Nair (23CSE503)' }));
    expect(screen.getByRole('button', { name: 'Late: Farhan Ali (23CSE502)' })).toHaveAttribute('aria-pressed', 'true');
    // Late attends: the switch stays on and says Late; excused turns it off.
    expect(screen.getByRole('switch', { name: 'Present: Farhan Ali (23CSE502)' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Present: Gauri Nair (23CSE503)' })).not.toBeChecked();
    const group = screen.getByRole('group', { name: 'Totals' });
    const value = (label: string) => within(group).getByText(label).nextElementSibling?.textContent;
    expect([value('Present'), value('Absent'), value('Late'), value('Excused')]).toEqual(['1', '0', '1', '1']);

    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText('Attendance submitted successfully!')).toBeInTheDocument();
    expect(await within(picker).findByRole('radio', { name: 'Period 2: Databases (taken)' })).toBeChecked();

    const stored = (await (await fetch(`/api/attendance/CSE5/${todayIn('UTC')}?period=2`)).json()) as AttendanceRegister;
    expect(stored.subject).toEqual({ code: 'DBMS', name: 'Databases' });
    expect(stored.records.map((r) => [r.pin, r.status])).toEqual([
      ['23CSE501', 'present'],
      ['23CSE502', 'late'],
      ['23CSE503', 'excused'],
    ]);
    // Marking all absent clears late and excused too.
    await user.click(screen.getByRole('button', { name: 'Mark all absent' }));
    expect(screen.getByRole('button', { name: 'Late: Farhan Ali (23CSE502)' })).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('Taking a register quickly', () => {
  const CSE6 = [
    { pin: '23A51A0601', name: 'Harish Kumar', className: 'CSE6' },
    { pin: '23A51A0602', name: 'Indu Prasad', className: 'CSE6' },
    { pin: '23A51A0612', name: 'Jaya Verma', className: 'CSE6' },
    { pin: '23A51A0623', name: 'Kiran Das', className: 'CSE6' },
  ];
  beforeAll(async () => {
    await seed({ students: CSE6 });
  });
  const switchOf = (name: string) => screen.getByRole('switch', { name: new RegExp(`^Present: ${name}`) });
  const statuses = () => CSE6.map((s) => (switchOf(s.name) as HTMLInputElement).checked);

  it('marks the typed PIN endings absent and everyone else present, and refuses unknown or ambiguous endings', async () => {
    const user = userEvent.setup();
    renderAt('/attendance/CSE6');
    const box = await screen.findByRole('textbox', { name: 'Absentees (PIN endings)' });
    await user.click(screen.getByRole('button', { name: 'Late: Kiran Das (23A51A0623)' }));

    await user.type(box, '2 99');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText(/No PIN in this class ends in 99\. 2 fits 2 PINs \(23A51A0602 and 23A51A0612\): type more of the PIN\./)).toBeInTheDocument();
    // Refused: nothing changed.
    expect(statuses()).toEqual([false, false, false, true]);

    await user.clear(box);
    await user.type(box, '02, 12{Enter}');
    expect(await screen.findByText('2 marked absent (23A51A0602, 23A51A0612), everyone else present.')).toBeInTheDocument();
    expect(statuses()).toEqual([true, false, false, true]);
    // Late stays late.
    expect(screen.getByRole('button', { name: 'Late: Kiran Das (23A51A0623)' })).toHaveAttribute('aria-pressed', 'true');
    expect(totals()).toEqual({ total: '4', present: '1', absent: '2' });
  });

  it('moves with the arrows and marks with P, A, L and E from one Tab stop, and filters by name or PIN', async () => {
    const user = userEvent.setup();
    renderAt('/attendance/CSE6');
    const first = await screen.findByRole('switch', { name: /^Present: Harish Kumar/ });
    // One Tab stop for the list: the other switches and the toggles are out of the Tab order.
    expect(first).toHaveAttribute('tabindex', '0');
    expect(switchOf('Indu Prasad')).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('button', { name: 'Late: Harish Kumar (23A51A0601)' })).toHaveAttribute('tabindex', '-1');

    first.focus();
    await user.keyboard('p');
    expect(first).toBeChecked();
    expect(switchOf('Indu Prasad')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(switchOf('Jaya Verma')).toHaveFocus();
    await user.keyboard('l');
    expect(screen.getByRole('button', { name: 'Late: Jaya Verma (23A51A0612)' })).toHaveAttribute('aria-pressed', 'true');
    expect(switchOf('Kiran Das')).toHaveFocus();
    await user.keyboard('e{ArrowUp}{ArrowUp}a');
    expect(screen.getByRole('button', { name: 'Excused: Kiran Das (23A51A0623)' })).toHaveAttribute('aria-pressed', 'true');
    expect(switchOf('Indu Prasad')).not.toBeChecked();
    await user.keyboard('{Home}');
    expect(first).toHaveFocus();
    await user.keyboard('{End}');
    expect(switchOf('Kiran Das')).toHaveFocus();

    await user.type(screen.getByRole('textbox', { name: 'Filter' }), 'jaya');
    expect(screen.getAllByRole('switch')).toHaveLength(1);
    await user.clear(screen.getByRole('textbox', { name: 'Filter' }));
    await user.type(screen.getByRole('textbox', { name: 'Filter' }), '0623');
    expect(screen.getAllByRole('switch').map((input) => input.getAttribute('aria-label'))).toEqual(['Present: Kiran Das (23A51A0623)']);
    // Marks of the students filtered out are kept.
    expect(totals()).toEqual({ total: '4', present: '1', absent: '1' });
  });

  it('starts a new register as the user chose, and remembers the choice', async () => {
    const user = userEvent.setup();
    const first = renderAt('/attendance/CSE6');
    const choice = await screen.findByRole('radiogroup', { name: 'New registers start with' });
    await user.click(within(choice).getByRole('radio', { name: 'Everyone present', hidden: true }));
    expect(statuses()).toEqual([true, true, true, true]);
    expect(screen.getByText('Not taken yet for this day: everyone starts present.')).toBeInTheDocument();
    first.unmount();

    renderAt('/attendance/CSE6');
    await screen.findByRole('switch', { name: /^Present: Harish Kumar/ });
    expect(statuses()).toEqual([true, true, true, true]);
  });

  it('copies the last register when asked', async () => {
    const user = userEvent.setup();
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await putRegister(`CSE6/${yesterday}`, [{ pin: '23A51A0601', status: 'present' }, { pin: '23A51A0612', status: 'late' }]);
    renderAt('/attendance/CSE6');
    const choice = await screen.findByRole('radiogroup', { name: 'New registers start with' });
    await user.click(within(choice).getByRole('radio', { name: 'Copy last register', hidden: true }));
    expect(await screen.findByText(/^Not taken yet for this day: it starts as a copy of the register of /)).toBeInTheDocument();
    expect(statuses()).toEqual([true, false, true, false]);
    expect(screen.getByRole('button', { name: 'Late: Jaya Verma (23A51A0612)' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('keeps unsaved marks as a draft in the browser, restores them, and discards them when asked', async () => {
    const user = userEvent.setup();
    const first = renderAt('/attendance/CSE6');
    await user.click(await screen.findByRole('switch', { name: /^Present: Indu Prasad/ }));
    first.unmount(); // as a reload would

    renderAt('/attendance/CSE6');
    expect(await screen.findByText(/^Restored the marks you had not submitted/)).toBeInTheDocument();
    expect(statuses()).toEqual([false, true, false, false]);
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(statuses()).toEqual([false, false, false, false]);
    expect(screen.queryByText(/^Restored the marks/)).not.toBeInTheDocument();
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  });

  it('asks before leaving a register with unsaved marks', async () => {
    const user = userEvent.setup();
    const { router } = renderAt('/attendance/CSE6');
    await user.click(await screen.findByRole('switch', { name: /^Present: Harish Kumar/ }));
    await user.click(screen.getByRole('link', { name: /Back to the dashboard/ }));
    expect(await screen.findByRole('dialog', { name: 'Leave without submitting?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/attendance/CSE6');
    expect(switchOf('Harish Kumar')).toBeChecked();

    await user.click(screen.getByRole('link', { name: /Back to the dashboard/ }));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('opened again offline, shows the marks of its save waiting on the device over the kept register, until it is sent', async () => {
    await seed({ students: rosterOf('CSE1', [['23CSE101', 'Pooja Kamath'], ['23CSE102', 'Qadir Khan']]) });
    const online = fetch;
    const offline = () => Promise.reject(new TypeError('Failed to fetch'));
    // Signed in on this device, as the sign-in page keeps the user: the page's answers are kept for them.
    keepUser(((await (await fetch('/api/auth/me')).json()) as { user: SignedInUser }).user);
    const user = userEvent.setup();
    const first = renderAt('/attendance/CSE1');
    const pooja = await screen.findByRole('switch', { name: 'Present: Pooja Kamath (23CSE101)' });
    expect(pooja).not.toBeChecked();
    vi.stubGlobal('fetch', offline);
    try {
      await user.click(pooja);
      await user.click(screen.getByRole('button', { name: 'Late: Qadir Khan (23CSE102)' }));
      await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
      expect(await screen.findByText('Saved on this device; it will be sent when you are online')).toBeInTheDocument();
      first.unmount(); // as a reload would

      renderAt('/attendance/CSE1');
      expect(await screen.findByText('1 waiting')).toBeInTheDocument();
      // The register is the device's copy, as fetched before the marks were taken; the marks are the save's.
      expect(await screen.findByText(/^Shown with your marks saved on this device \(.*\), not sent yet\.$/)).toBeInTheDocument();
      expect(screen.getByRole('switch', { name: 'Present: Pooja Kamath (23CSE101)' })).toBeChecked();
      expect(screen.getByRole('button', { name: 'Late: Qadir Khan (23CSE102)' })).toHaveAttribute('aria-pressed', 'true');
      expect(totals()).toEqual({ total: '2', present: '1', absent: '0' });
      // Not edited since: nothing unsaved, and the start choice does not replace the marks.
      expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
      expect(screen.getByText('Not taken yet for this day: it starts from your marks saved on this device.')).toBeInTheDocument();
      expect(screen.queryByRole('radiogroup', { name: 'New registers start with' })).not.toBeInTheDocument();
    } finally {
      vi.stubGlobal('fetch', online);
    }

    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(screen.queryByText('1 waiting')).not.toBeInTheDocument());
    expect(await screen.findByText(/^Taken by Dr\. Meera Iyer on /)).toBeInTheDocument();
    expect(screen.queryByText(/^Shown with your marks saved on this device/)).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Present: Pooja Kamath (23CSE101)' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Late: Qadir Khan (23CSE102)' })).toHaveAttribute('aria-pressed', 'true');
  }, 40_000);
});

describe('An extra lecture', () => {
  beforeAll(async () => {
    await seed({
      students: [
        ...rosterOf('CSE8', [
          ['23CSE801', 'Lakshmi Pillai'],
          ['23CSE802', 'Manoj Reddy'],
        ]),
        ...rosterOf('CSE2', [
          ['23CSE201', 'Nisha Bose'],
          ['23CSE202', 'Omkar Joshi'],
        ]),
      ],
      subjects: [
        { code: 'PHY', name: 'Physics' },
        { code: 'MATH', name: 'Mathematics' },
      ],
    });
  });

  /** Opens `Add an extra lecture`, chooses the period and the subject, and takes the register. */
  async function addExtraLecture(user: ReturnType<typeof userEvent.setup>, period: string, subject: string) {
    await user.click(await screen.findByRole('button', { name: 'Add an extra lecture' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an extra lecture' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Period' }), period);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Subject' }), subject);
    await user.click(within(dialog).getByRole('button', { name: 'Take the register' }));
    return dialog;
  }

  it('takes a lecture the timetable does not have, for a subject of the user\'s choice, and lists it among the day\'s periods', async () => {
    const today = todayIn('UTC');
    await seed({ slots: [{ className: 'CSE8', weekday: weekdayOf(today), period: 1, subjectCode: 'PHY' }] });
    await putRegister(`CSE8/${today}?period=1`, [{ pin: '23CSE801', status: 'present' }]);
    const user = userEvent.setup();
    const { router } = renderAt('/attendance/CSE8');
    expect(await screen.findByRole('heading', { name: 'CSE8 Attendance · Period 1: Physics' })).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Add an extra lecture' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an extra lecture' });
    // Period 1 is taken: the periods offered are the other eleven.
    const periods = within(within(dialog).getByRole('combobox', { name: 'Period' })).getAllByRole('option');
    expect(periods.map((option) => option.textContent)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => `Period ${n}`));
    // A subject is asked for, not guessed.
    await user.click(within(dialog).getByRole('button', { name: 'Take the register' }));
    expect(within(dialog).getByRole('combobox', { name: 'Subject' })).toHaveAccessibleDescription('Pick the subject of the lecture');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await addExtraLecture(user, 'Period 5', 'Mathematics (MATH)');
    expect(await screen.findByRole('heading', { name: 'CSE8 Attendance · Period 5: Mathematics' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?period=5&subject=MATH');
    const picker = screen.getByRole('radiogroup', { name: 'Period' });
    expect(within(picker).getByRole('radio', { name: 'Period 5: Mathematics' })).toBeChecked();

    await user.click(await screen.findByRole('button', { name: 'Mark all present' }));
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText('Attendance submitted successfully!')).toBeInTheDocument();
    expect(await within(picker).findByRole('radio', { name: 'Period 5: Mathematics (taken)' })).toBeChecked();
    expect(within(picker).getByRole('radio', { name: 'Period 1: Physics (taken)' })).not.toBeChecked();

    const stored = (await (await fetch(`/api/attendance/CSE8/${today}?period=5`)).json()) as AttendanceRegister;
    expect(stored.subject).toEqual({ code: 'MATH', name: 'Mathematics' });
    expect(stored.records.map((r) => r.status)).toEqual(['present', 'present']);
  });

  it('shows the refusal of a lecture on a day that has a whole-day register, and offers none there', async () => {
    const today = todayIn('UTC');
    const user = userEvent.setup();
    renderAt('/attendance/CSE2');
    await screen.findByRole('switch', { name: 'Present: Nisha Bose (23CSE201)' });
    await addExtraLecture(user, 'Period 3', 'Physics (PHY)');
    expect(await screen.findByRole('heading', { name: 'CSE2 Attendance · Period 3: Physics' })).toBeInTheDocument();
    // Meanwhile a colleague takes the whole-day register.
    await putRegister(`CSE2/${today}`, [{ pin: '23CSE201', status: 'present' }]);

    await user.click(await screen.findByRole('button', { name: 'Submit Attendance' }));
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('Error submitting attendance');
    expect(refusal).toHaveTextContent(
      'Choose a period. This date already has a whole-day register, and a date has either a whole-day register or lectures, never both.',
    );

    // The day's periods now show the whole-day register, and no lecture can be added to it.
    const picker = await screen.findByRole('radiogroup', { name: 'Period' });
    expect(await within(picker).findByRole('radio', { name: 'Whole day (taken)' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Add an extra lecture' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an extra lecture' });
    expect(
      within(dialog).getByText('This date has a whole-day register, so it takes no lectures: a date has either a whole-day register or lectures, never both.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Take the register' })).toBeDisabled();
  });
});

describe('DashboardPage', () => {
  it('lists every class with its size and today\'s status, and opens a register', async () => {
    const user = userEvent.setup();
    const { router } = renderAt('/dashboard');
    expect(screen.getByRole('heading', { name: 'Faculty Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Select a class to manage attendance')).toBeInTheDocument();
    const cards = await screen.findAllByRole('link', { name: /View\/Manage Attendance/ });
    expect(cards).toHaveLength(8);
    const cse3 = screen.getByRole('link', { name: /^CSE3/ });
    // Taken by the first test of this file.
    expect(cse3).toHaveTextContent('3 students');
    expect(cse3).toHaveTextContent('Taken today');
    // Who took it, at what time of the portal's day, and the share attending (2 of 3).
    expect(cse3).toHaveTextContent(/Taken by Dr\. Meera Iyer at \d{2}:\d{2}( [AP]M)?, 67% attending/);
    expect(screen.getByRole('link', { name: /^CSE7/ })).toHaveTextContent('Not taken today');

    cse3.focus();
    await user.keyboard(' ');
    await waitFor(() => expect(router.state.location.pathname).toBe('/attendance/CSE3'));
  });
});

// After the dashboard's test, which counts every class's registers of today.
describe('Self check-in', () => {
  beforeAll(async () => {
    await seed({ students: rosterOf('CSE7', [['23A51A0701', 'Lalitha Rao'], ['23A51A0702', 'Mohan Das']]) });
    await addUser(ctx.database.db, { email: 'lalitha@uni.edu', name: 'Lalitha Rao', role: 'student', pin: '23A51A0701', password: TEST_PASSWORD });
  });

  it("opens a check-in of today's register and goes to its projector view; a student's check-in shows as Checked in HH:MM", async () => {
    const user = userEvent.setup();
    const { router, unmount } = renderAt('/attendance/CSE7');
    await user.click(await screen.findByRole('button', { name: 'Open check-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open a self check-in' });
    const minutes = within(dialog).getByRole('textbox', { name: 'Open for (minutes)' });
    expect(minutes).toHaveValue('10');
    await user.clear(minutes);
    await user.type(minutes, '31');
    expect(within(dialog).getByText('From 1 to 30 minutes')).toBeInTheDocument();
    await user.clear(minutes);
    await user.type(minutes, '5');
    await user.type(within(dialog).getByRole('textbox', { name: /^Late after/ }), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/checkin\/[\w-]+$/));
    const id = router.state.location.pathname.split('/')[2]!;
    const checkin = (await (await fetch(`/api/checkins/${id}`)).json()) as { class: string; period: number; closesAt: string; lateAfterMinutes: number | null; code: { token: string } };
    expect(checkin).toMatchObject({ class: 'CSE7', period: 0, lateAfterMinutes: 2 });
    unmount();

    const studentFetch = createInjectFetch(ctx.app);
    await signInThroughFetch(studentFetch, 'lalitha@uni.edu', 'student');
    const scanned = await studentFetch('/api/checkins/scan', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: checkin.code.token }),
    });
    expect(scanned.status).toBe(200);

    renderAt('/attendance/CSE7');
    const row = (await screen.findByText('Lalitha Rao')).closest('tr')!;
    expect(within(row).getByText(/^Checked in \d\d:\d\d/)).toBeInTheDocument();
    expect(within(row).getByRole('switch', { name: 'Present: Lalitha Rao (23A51A0701)' })).toBeChecked();
    expect(screen.getAllByText(/^Checked in /)).toHaveLength(1);
  }, 40_000);
});

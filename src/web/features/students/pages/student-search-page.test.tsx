import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { profiles, students, subjects } from '../../../../server/db/schema';
import { createInjectFetch, signInThroughFetch } from '../../../../server/test/inject-fetch';
import { seedRegister as seedPastRegister } from '../../../../server/test/registers';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { StudentSearchPage } from './student-search-page';

const PIN = '22B81A0501';
const OTHER_PIN = '22B81A0502';
const FACULTY_EMAIL = 'search-faculty@uni.edu';
const STUDENT_EMAIL = 'search-student@uni.edu';

function seedRegister(date: string, marks: { pin: string; name: string; present: boolean }[]) {
  return seedPastRegister(server.ctx.database, { className: 'CSE4', date }, marks);
}

// Each test signs in afresh with its own cookie jar.
const server = startTestServer({
  jarPerTest: true,
  seed: async ({ signIn, database: { db } }) => {
    await signIn('faculty', { email: FACULTY_EMAIL });
    await signIn('student', { email: STUDENT_EMAIL, pin: PIN, className: 'CSE4' });
    await db.insert(profiles).values({
      pin: PIN,
      name: 'Lakshmi Menon',
      designation: '',
      linkedin: 'https://www.linkedin.com/in/lakshmi',
      status: 'approved',
    });
    // Two of three days present: 66.7%, below the threshold.
    await seedRegister('2026-03-02', [{ pin: PIN, name: 'Lakshmi Menon', present: true }, { pin: OTHER_PIN, name: 'Arjun Rao', present: true }]);
    await seedRegister('2026-03-03', [{ pin: PIN, name: 'Lakshmi Menon', present: false }, { pin: OTHER_PIN, name: 'Arjun Rao', present: true }]);
    await seedRegister('2026-03-04', [{ pin: PIN, name: 'Lakshmi Menon', present: true }, { pin: OTHER_PIN, name: 'Arjun Rao', present: true }]);
  },
});

function renderSearch(path: string) {
  return renderRoutes(
    [
      { path: '/faculty', element: <StudentSearchPage /> },
      { path: '/student', element: <StudentSearchPage /> },
    ],
    path,
  );
}

const searchForm = () => screen.findByRole('search', { name: 'Student search' });

describe('Student search as faculty', () => {
  beforeEach(() => server.signIn(FACULTY_EMAIL, 'faculty'));

  it('finds a student with Enter and shows profile, summary, warning and history; the PIN goes to the URL', async () => {
    const user = userEvent.setup();
    const { router } = renderSearch('/faculty');
    const form = await searchForm();
    expect(await screen.findByText("Enter a student's PIN to see their profile and attendance.")).toBeInTheDocument();
    await user.type(within(form).getByRole('textbox', { name: 'PIN Number' }), `  ${PIN}  {Enter}`);

    expect(await screen.findByRole('heading', { name: 'Lakshmi Menon' })).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?pin=${PIN}`);
    expect(screen.getByText('Student')).toBeInTheDocument(); // designation fallback
    expect(screen.getByText(`PIN: ${PIN}`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /LinkedIn/ })).toHaveAttribute('href', 'https://www.linkedin.com/in/lakshmi');

    expect(screen.getByText('Total Days').nextSibling).toHaveTextContent('3');
    expect(screen.getByText('Percentage').nextSibling).toHaveTextContent('66.7%');
    expect(screen.getByRole('progressbar', { name: 'Present 66.7%' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Absent 33.3%' })).toBeInTheDocument();
    expect(screen.getByText(/below the required 75%/)).toBeInTheDocument();
    expect(screen.getByText('Attending the next 1 class in a row brings attendance back to 75%.')).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Attendance History' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('CSE4')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Present')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Absent')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export to PDF' })).toBeInTheDocument();
  });

  it('opens a shared link with ?pin= at once, and Clear resets everything', async () => {
    const user = userEvent.setup();
    const { router } = renderSearch(`/faculty?pin=${OTHER_PIN}`);
    expect(await screen.findByRole('heading', { name: 'Arjun Rao' })).toBeInTheDocument();
    expect(screen.getByText('Percentage').nextSibling).toHaveTextContent('100.0%');
    expect(screen.queryByText(/below the required 75%/)).not.toBeInTheDocument();
    const form = await searchForm();
    expect(within(form).getByRole('textbox', { name: 'PIN Number' })).toHaveValue(OTHER_PIN);

    await user.click(within(form).getByRole('button', { name: 'Clear' }));
    expect(within(form).getByRole('textbox', { name: 'PIN Number' })).toHaveValue('');
    expect(screen.queryByRole('heading', { name: 'Arjun Rao' })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('says when nothing is found for a PIN', async () => {
    const user = userEvent.setup();
    renderSearch('/faculty');
    const form = await searchForm();
    await user.type(within(form).getByRole('textbox', { name: 'PIN Number' }), 'ZZ404');
    await user.click(within(form).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No student records found for PIN: ZZ404')).toBeInTheDocument();
    expect(screen.getByText("If automatic search doesn't work, click on the search button.")).toBeInTheDocument();
  });

  it('asks for a PIN when the box is blank', async () => {
    const user = userEvent.setup();
    const { router } = renderSearch('/faculty');
    const form = await searchForm();
    await user.type(within(form).getByRole('textbox', { name: 'PIN Number' }), '   ');
    await user.click(within(form).getByRole('button', { name: 'Search' }));
    expect(await within(form).findByText('Please enter a PIN number')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('downloads the PDF report under the name attendance-{pin}.pdf', async () => {
    const user = userEvent.setup();
    // jsdom has no object URLs. These stay for the rest of the file: the button lets go of the
    // URL a few seconds later, possibly after this test.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:report');
    Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: () => undefined, configurable: true });
    const clicks: { download: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ download: this.download, href: this.href });
    });
    try {
      renderSearch(`/faculty?pin=${PIN}`);
      await user.click(await screen.findByRole('button', { name: 'Export to PDF' }));
      await waitFor(() => expect(clicks).toEqual([{ download: `attendance-${PIN}.pdf`, href: 'blob:report' }]));
      expect(createObjectURL.mock.calls[0]?.[0].type).toBe('application/pdf');
    } finally {
      click.mockRestore();
    }
  });
});

describe('Student search as a student', () => {
  beforeEach(() => server.signIn(STUDENT_EMAIL, 'student'));

  it('shows their own record at once with their PIN filled in, and refuses another PIN with the server’s message', async () => {
    const user = userEvent.setup();
    renderSearch('/faculty');
    expect(await screen.findByRole('heading', { name: 'Lakshmi Menon' })).toBeInTheDocument();
    const form = await searchForm();
    const input = within(form).getByRole('textbox', { name: 'PIN Number' });
    expect(input).toHaveValue(PIN);

    await user.clear(input);
    await user.type(input, `${OTHER_PIN}{Enter}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Students can only see their own attendance and profile');
    expect(screen.queryByRole('heading', { name: 'Arjun Rao' })).not.toBeInTheDocument();
  });
});

describe('A student with lectures', () => {
  const LECTURES_PIN = '22B81A0599';

  beforeAll(async () => {
    await server.ctx.database.db.insert(students).values({ pin: LECTURES_PIN, name: 'Kavya Reddy', className: 'CSE6' });
    await server.ctx.database.db.insert(subjects).values([
      { code: 'DS', name: 'Data Structures' },
      { code: 'OS', name: 'Operating Systems' },
    ]);
    // 30 days of two lectures: 60 marks, more than the first page of 50.
    for (let day = 1; day <= 30; day += 1) {
      const date = `2026-04-${String(day).padStart(2, '0')}`;
      const kavya = { pin: LECTURES_PIN, name: 'Kavya Reddy' };
      await seedPastRegister(server.ctx.database, { className: 'CSE6', date, period: 1, subjectCode: 'DS' }, [
        { ...kavya, status: day % 10 === 0 ? 'absent' : day % 10 === 1 ? 'late' : 'present' },
      ]);
      await seedPastRegister(server.ctx.database, { className: 'CSE6', date, period: 2, subjectCode: 'OS' }, [
        { ...kavya, status: day <= 12 ? 'absent' : day === 30 ? 'excused' : 'present' },
      ]);
    }
  }, 60_000);
  beforeEach(() => server.signIn(FACULTY_EMAIL, 'faculty'));

  it('shows a table per subject, statuses and lectures in the history, and older marks on Show older', async () => {
    const user = userEvent.setup();
    renderSearch(`/faculty?pin=${LECTURES_PIN}&term=all`);
    expect(await screen.findByRole('heading', { name: 'Kavya Reddy' })).toBeInTheDocument();

    const subjectsTable = screen.getByRole('table', { name: 'Attendance by Subject' });
    const subjectRows = within(subjectsTable).getAllByRole('row').slice(1);
    // DS: 30 held, 27 attended (three absences; late attends). OS: 29 held (one excused), 17 attended.
    expect(subjectRows.map((row) => row.textContent)).toEqual([
      'Data StructuresDS302790.0%Good6',
      'Operating SystemsOS291758.6%Low0',
    ]);

    const history = screen.getByRole('table', { name: 'Attendance History' });
    expect(within(history).getAllByRole('row').slice(1)).toHaveLength(50);
    const newest = within(history).getAllByRole('row')[1]!;
    expect(newest).toHaveTextContent('Period 2: Operating Systems');
    expect(newest).toHaveTextContent('Excused');
    await user.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(within(history).getAllByRole('row').slice(1)).toHaveLength(60));
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
    const oldest = within(history).getAllByRole('row').at(-1)!;
    expect(oldest).toHaveTextContent('Period 1: Data Structures');
    expect(oldest).toHaveTextContent('Late');
  });
});

// Last: the check-in writes today's register of CSE4, which the tests above do not expect.
describe('A student checks in with a code', () => {
  beforeEach(() => server.signIn(STUDENT_EMAIL, 'student'));

  it('types the code on the screen and is checked in; a wrong code gets the server’s message', async () => {
    const facultyFetch = createInjectFetch(server.ctx.app);
    await signInThroughFetch(facultyFetch, FACULTY_EMAIL, 'faculty');
    const json = { method: 'POST', headers: { 'content-type': 'application/json' } };
    const opened = await facultyFetch('/api/checkins', { ...json, body: JSON.stringify({ className: 'CSE4' }) });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const { code } = (await (await facultyFetch(`/api/checkins/${id}`)).json()) as { code: { typedCode: string } };

    const user = userEvent.setup();
    renderSearch('/faculty');
    const box = await screen.findByRole('region', { name: 'Check in with a code' });
    const input = within(box).getByRole('textbox', { name: /^Code on the screen/ });
    const button = within(box).getByRole('button', { name: 'Check in' });
    // A wrong code: one letter changed.
    const wrong = `${code.typedCode.slice(0, 5)}${code.typedCode.endsWith('A') ? 'B' : 'A'}`;
    await user.type(input, wrong.toLowerCase());
    await user.click(button);
    expect(await within(box).findByRole('alert')).toHaveTextContent('That code is not the one on the screen now: type the code shown');

    await user.clear(input);
    await user.type(input, code.typedCode);
    await user.click(button);
    expect(await within(box).findByRole('status')).toHaveTextContent('You are checked in to CSE4 for the day: present');
  });
});

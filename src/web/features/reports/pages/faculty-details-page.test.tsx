import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { students, subjects } from '../../../../server/db/schema';
import { seedRegister } from '../../../../server/test/registers';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import { addUser } from '../../../../server/modules/accounts/service';
import { CLI } from '../../../../server/modules/audit/service';
import { createTerm } from '../../../../server/modules/terms/service';
import { TEST_PASSWORD } from '../../../../server/test/test-app';
import { addDays } from '../../../../shared/dates';
import { DASHBOARD_ERROR_MESSAGE } from '../../../../shared/schemas/reports';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { FacultyDetailsPage } from './faculty-details-page';

/** While set, the dashboard request fails as a broken server would. */
let dashboardDown = false;

beforeAll(() => {
  // jsdom lays nothing out, so every chart warns that it has no size; the figures are what is tested here.
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('The width(0) and height(0) of chart')) return;
    warn(...args);
  });
});
afterAll(() => vi.restoreAllMocks());

const server = startTestServer({
  seed: async ({ database: { db } }) => {
    await db.insert(students).values(['P1', 'P2', 'P3', 'P4'].map((pin) => ({ pin, name: `Student ${pin}`, className: 'CSE1' })));
    await addUser(db, { email: 'meera@uni.edu', name: 'Dr. Meera Iyer', role: 'faculty', password: TEST_PASSWORD });
  },
  wrapFetch: (serverFetch) =>
    (async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
      if (dashboardDown && url.startsWith('/api/reports/dashboard')) {
        return new Response(JSON.stringify({ message: 'Something went wrong on the server. Please try again.' }), { status: 500 });
      }
      return serverFetch(input, init);
    }) as typeof fetch,
  signedInAs: { email: 'meera@uni.edu', role: 'faculty' },
});

function renderPage() {
  return renderRoutes(
    [
      { path: '/faculty-details', element: <FacultyDetailsPage /> },
    ],
    '/faculty-details',
  );
}

/** The figure shown under an overview tile's label. */
async function tile(label: string): Promise<string | null | undefined> {
  const term = await screen.findByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('FacultyDetailsPage', () => {
  it('shows zeros and empty reports, not an error, before any register is saved', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Faculty Dashboard' })).toBeInTheDocument();
    expect(await tile('Total Records')).toBe('0');
    expect(await tile('Present')).toBe('0');
    expect(await tile('Absent')).toBe('0');
    expect(await tile('Attendance Rate')).toBe('0.0%');
    expect(screen.getByText('No registers were saved in the last 7 days.')).toBeInTheDocument();
    expect(await screen.findByText('No student is below 75% in any class.')).toBeInTheDocument();
    expect(screen.queryByText(DASHBOARD_ERROR_MESSAGE)).not.toBeInTheDocument();
  });

  it('shows the figures of a saved register and opens a student below 75% from the list', async () => {
    const today = ((await (await fetch('/api/attendance/today')).json()) as { date: string }).date;
    const saved = await fetch(`/api/attendance/CSE1/${today}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ records: ['P1', 'P2', 'P3'].map((pin) => ({ pin, present: true })) }),
    });
    expect(saved.status).toBe(200);

    const user = userEvent.setup();
    renderPage();
    expect(await tile('Total Records')).toBe('4');
    expect(await tile('Present')).toBe('3');
    expect(await tile('Absent')).toBe('1');
    expect(await tile('Attendance Rate')).toBe('75.0%');

    const weekly = screen.getByRole('region', { name: 'Weekly Report' });
    const rows = within(weekly).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1]!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['3', '1', '4', '75.00%']);

    const classWise = screen.getByRole('region', { name: 'Class-wise Attendance' });
    const cse1 = within(classWise).getByRole('group', { name: 'CSE1 attendance' });
    expect(cse1).toHaveTextContent('Present: 3/4');
    expect(cse1).toHaveTextContent('Absent: 1/4');
    const cse1Row = within(classWise).getByRole('rowheader', { name: 'CSE1' }).closest('tr')!;
    expect(within(cse1Row as HTMLElement).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '4',
      '3',
      '1',
      '75.00%',
      '25.00%',
    ]);
    // An absent rate of 25% is in the red band.
    expect(within(cse1Row as HTMLElement).getByText('25.00%').closest('[data-band]')).toHaveAttribute('data-band', 'danger');

    const below = screen.getByRole('region', { name: 'Students Below 75%' });
    const link = await within(below).findByRole('link', { name: /P4/ });
    expect(within(below).getAllByRole('link')).toHaveLength(1);
    expect(link).toHaveAttribute('href', '/faculty-details?pin=P4');
    // The record opens in this page's student search, with 0 of 1 days present.
    await user.click(link);
    const search = screen.getByRole('region', { name: 'Student Search' });
    expect(within(search).getByRole('textbox', { name: 'PIN Number' })).toHaveValue('P4');
    expect(await within(search).findByRole('region', { name: 'Attendance record of Student P4' })).toBeInTheDocument();
  });

  it('puts the student search first, then a menu that takes focus to each report section', async () => {
    const user = userEvent.setup();
    renderPage();
    const menu = screen.getByRole('navigation', { name: 'On this page' });
    const search = screen.getByRole('region', { name: 'Student Search' });
    // The search comes before the menu and every report section in the page's order.
    expect(search.compareDocumentPosition(menu) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(menu).getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Class-wise', 'Students below 75%']);
    await screen.findByRole('heading', { level: 2, name: 'Class-wise Attendance' });
    await user.click(within(menu).getByRole('link', { name: 'Class-wise' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Class-wise Attendance' })).toHaveFocus();
  });

  it('searches a PIN with this page\'s wording and says when nothing is found', async () => {
    const user = userEvent.setup();
    renderPage();
    const search = screen.getByRole('region', { name: 'Student Search' });
    await user.type(within(search).getByRole('textbox', { name: 'PIN Number' }), 'NOPE1{Enter}');
    expect(await within(search).findByText('No student records found for PIN: NOPE1')).toBeInTheDocument();
    expect(within(search).getByText('Please check the PIN and try again.')).toBeInTheDocument();
    await user.click(within(search).getByRole('button', { name: 'Clear' }));
    expect(within(search).getByRole('textbox', { name: 'PIN Number' })).toHaveValue('');
    expect(within(search).queryByText('No student records found for PIN: NOPE1')).not.toBeInTheDocument();
  });

  it('shows the error message with Retry only when loading fails, and loads on Retry', async () => {
    dashboardDown = true;
    const user = userEvent.setup();
    renderPage();
    // The query retries twice on a server error before it gives up.
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent(DASHBOARD_ERROR_MESSAGE);
    expect(screen.queryByText('Total Records')).not.toBeInTheDocument();

    dashboardDown = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await tile('Total Records')).toBe('4');
    await waitFor(() => expect(screen.queryByText(DASHBOARD_ERROR_MESSAGE)).not.toBeInTheDocument());
  });

  it('starts on the term the server chose, and another term shows that term\'s figures', async () => {
    const today = ((await (await fetch('/api/attendance/today')).json()) as { date: string }).date;
    // A register in a term that has ended: everyone absent. With no term holding today, it is the default.
    const saved = await fetch(`/api/attendance/CSE1/${addDays(today, -40)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ records: ['P1', 'P2', 'P3', 'P4'].map((pin) => ({ pin, present: false })) }),
    });
    expect(saved.status).toBe(200);
    await createTerm(server.ctx.database.db, CLI, { name: 'Last term', startsOn: addDays(today, -45), endsOn: addDays(today, -35) }, 'UTC');

    const user = userEvent.setup();
    renderPage();
    const picker = screen.getByRole('combobox', { name: 'Term' });
    await waitFor(() => expect(picker).toHaveValue('Last term'));
    expect(await tile('Total Records')).toBe('4');
    expect(await tile('Present')).toBe('0');
    expect(await tile('Absent')).toBe('4');
    expect(screen.getByRole('region', { name: 'Class-wise Attendance' })).toHaveTextContent(/The registers of Last term \(/);

    await user.click(picker);
    // Mantine's dropdown opens with a transition that jsdom never runs: the option stays hidden.
    await user.click(await screen.findByRole('option', { name: 'All time', hidden: true }));
    await waitFor(async () => expect(await tile('Total Records')).toBe('8'));
    expect(picker).toHaveValue('All time');
    expect(await tile('Present')).toBe('3');
    expect(await tile('Absent')).toBe('5');
    // The weekly report keeps its 7 days whatever the term.
    expect(within(screen.getByRole('region', { name: 'Weekly Report' })).getAllByRole('row')).toHaveLength(2);

    // The record on this page follows the page's term.
    await user.type(within(screen.getByRole('region', { name: 'Student Search' })).getByRole('textbox', { name: 'PIN Number' }), 'P4{Enter}');
    const record = await screen.findByRole('region', { name: 'Attendance record of Student P4' });
    expect(within(record).getByText('All time')).toBeInTheDocument();
    expect(record).toHaveTextContent(/Total Days\s*2/);
  });

  it('shows attendance by subject and the students below 75% in one subject, once there are subjects', async () => {
    await server.ctx.database.db.insert(students).values(['Q1', 'Q2'].map((pin) => ({ pin, name: `Student ${pin}`, className: 'CSE2' })));
    await server.ctx.database.db.insert(subjects).values([
      { code: 'DS', name: 'Data Structures' },
      { code: 'OS', name: 'Operating Systems' },
    ]);
    const date = '2026-02-02';
    const marks = (q1: MarkStatus, q2: MarkStatus) => [
      { pin: 'Q1', name: 'Student Q1', status: q1 },
      { pin: 'Q2', name: 'Student Q2', status: q2 },
    ];
    await seedRegister(server.ctx.database, { className: 'CSE2', date, period: 1, subjectCode: 'DS' }, marks('present', 'absent'));
    await seedRegister(server.ctx.database, { className: 'CSE2', date, period: 2, subjectCode: 'OS' }, marks('late', 'excused'));

    const user = userEvent.setup();
    renderPage();
    await tile('Total Records');
    await user.click(screen.getByRole('combobox', { name: 'Term' }));
    await user.click(await screen.findByRole('option', { name: 'All time', hidden: true }));

    const bySubject = await screen.findByRole('region', { name: 'Attendance by Subject' });
    await waitFor(() =>
      expect(within(bySubject).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
        'Data StructuresDS12150.00%',
        'Operating SystemsOS111100.00%',
      ]),
    );

    const below = screen.getByRole('region', { name: 'Students Below 75%' });
    await user.click(within(below).getByRole('combobox', { name: 'Subject' }));
    await user.click(await screen.findByRole('option', { name: 'Data Structures', hidden: true }));
    await waitFor(() => expect(within(below).getAllByRole('link').map((link) => link.textContent)).toEqual(['Q2']));
    await user.click(within(below).getByRole('combobox', { name: 'Subject' }));
    await user.click(await screen.findByRole('option', { name: 'Operating Systems', hidden: true }));
    // Q2 was excused from the only OS lecture: no lecture held, so not listed.
    expect(await within(below).findByText('No student is below 75% in any class in Operating Systems.')).toBeInTheDocument();
  });
});

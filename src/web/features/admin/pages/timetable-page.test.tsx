import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addUser, disableUser } from '../../../../server/modules/accounts/service';
import { CLI } from '../../../../server/modules/audit/service';
import { createSubject } from '../../../../server/modules/subjects/service';
import { putTimetable } from '../../../../server/modules/timetable/service';
import { TEST_PASSWORD } from '../../../../server/test/test-app';
import { PeriodTimeSchema } from '../../../../shared/schemas/alerts';
import { TEACHER_MESSAGE, TimetableSchema } from '../../../../shared/schemas/timetable';
import { z } from '../../../../shared/schemas/zod';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

startSignedInApp('admin', {
  email: 'timetable-page-admin@uni.edu',
  seed: async (ctx) => {
    const db = ctx.database.db;
    await createSubject(db, CLI, { code: 'DS', name: 'Data Structures' });
    await createSubject(db, CLI, { code: 'CN', name: 'Computer Networks' });
    await addUser(db, { email: 'lakshmi@uni.edu', name: 'Lakshmi Rao', role: 'faculty', password: TEST_PASSWORD });
    const gone = await addUser(db, { email: 'gone@uni.edu', name: 'Former Teacher', role: 'faculty', password: TEST_PASSWORD });
    await putTimetable(db, CLI, 'CSE3', [{ weekday: 1, period: 1, subject: 'DS', teacherId: gone.id }]);
    await disableUser(db, 'gone@uni.edu');
  },
});

async function openTimetable(className = 'CSE2') {
  renderRoutes(routes, `/admin/classes/${className}/timetable`);
  expect(await screen.findByRole('heading', { name: `${className} timetable` }, { timeout: 10_000 })).toBeInTheDocument();
  return screen.findByRole('table', { name: `${className} weekly timetable` }, { timeout: 10_000 });
}

describe('/admin/classes/:class/timetable', () => {
  it("gives a lecture its teacher from the enabled faculty and admins, and saves it with the week", async () => {
    const user = userEvent.setup();
    const grid = await openTimetable();
    const teacher = within(grid).getByRole('combobox', { name: 'Monday period 1 teacher' });
    // A free period has no teacher to choose.
    expect(teacher).toBeDisabled();
    await user.selectOptions(within(grid).getByRole('combobox', { name: 'Monday period 1' }), 'DS');
    expect(teacher).toBeEnabled();
    const offered = within(teacher)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(offered).toContain('Lakshmi Rao');
    expect(offered).not.toContain('Former Teacher');
    await user.selectOptions(teacher, 'Lakshmi Rao');
    await user.selectOptions(within(grid).getByRole('combobox', { name: 'Tuesday period 2' }), 'CN');
    await user.click(screen.getByRole('button', { name: 'Save timetable' }));
    expect(await screen.findByText('The CSE2 timetable has been saved.')).toBeInTheDocument();

    const stored = TimetableSchema.parse(await (await fetch('/api/classes/CSE2/timetable')).json());
    expect(stored.slots.map((s) => [s.weekday, s.period, s.subject.code, s.teacher?.email ?? null])).toEqual([
      [1, 1, 'DS', 'lakshmi@uni.edu'],
      [2, 2, 'CN', null],
    ]);
  });

  it('shows a teacher whose account was disabled as no longer active, and saves the week once the slot has another', async () => {
    const user = userEvent.setup();
    const grid = await openTimetable('CSE3');
    const teacher = within(grid).getByRole('combobox', { name: 'Monday period 1 teacher' });
    expect(within(teacher).getByRole('option', { selected: true })).toHaveTextContent('Former Teacher (no longer active)');
    await user.click(screen.getByRole('button', { name: 'Save timetable' }));
    expect(await screen.findByText(TEACHER_MESSAGE)).toBeInTheDocument();
    await user.selectOptions(teacher, 'No teacher');
    await user.click(screen.getByRole('button', { name: 'Save timetable' }));
    expect(await screen.findByText('The CSE3 timetable has been saved.')).toBeInTheDocument();
  });

  it('edits the period times from the keyboard, refuses an overlap in its own words, and shows the saved times in the grid', async () => {
    const user = userEvent.setup();
    const grid = await openTimetable();
    await user.click(screen.getByRole('button', { name: 'Period times' }));
    const dialog = await screen.findByRole('dialog', { name: 'Period times' });
    const field = (name: string) => within(dialog).getByLabelText(name);
    await user.type(field('Period 1 starts'), '09:00');
    await user.type(field('Period 1 ends'), '09:50');
    await user.type(field('Period 2 starts'), '09:30');
    await user.click(within(dialog).getByRole('button', { name: 'Save period times' }));
    expect(field('Period 2 ends')).toHaveAccessibleDescription('Give period 2 an end, or clear its start');

    await user.type(field('Period 2 ends'), '10:40');
    await user.click(within(dialog).getByRole('button', { name: 'Save period times' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Period 2 starts before period 1 ends');

    await user.clear(field('Period 2 starts'));
    await user.type(field('Period 2 starts'), '09:50');
    await user.click(within(dialog).getByRole('button', { name: 'Save period times' }));
    expect(await screen.findByText('The period times have been saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Period times' })).not.toBeInTheDocument());

    expect(within(grid).getByRole('rowheader', { name: '1 09:00–09:50' })).toBeInTheDocument();
    expect(within(grid).getByRole('rowheader', { name: '2 09:50–10:40' })).toBeInTheDocument();
    expect(within(grid).getByRole('rowheader', { name: '3' })).toBeInTheDocument();
    const stored = z.array(PeriodTimeSchema).parse(await (await fetch('/api/periods')).json());
    expect(stored).toEqual([
      { period: 1, startsAt: '09:00', endsAt: '09:50' },
      { period: 2, startsAt: '09:50', endsAt: '10:40' },
    ]);
  });
});

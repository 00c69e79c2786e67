import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { loadAppMessages, showLanguage } from '../../../i18n/i18n';
import { TimetableSchema } from '../../../../shared/schemas/timetable';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

startSignedInApp('admin', { email: 'subjects-page-admin@uni.edu' });

describe('/admin/subjects', () => {
  it('starts empty, adds subjects, refuses a code that is taken, and renames one', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/subjects');
    expect(await screen.findByText('No subjects yet.', undefined, { timeout: 10_000 })).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Add a subject' });
    await user.type(within(form).getByRole('textbox', { name: 'Code' }), 'ds');
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Data Structures');
    await user.click(within(form).getByRole('button', { name: 'Add subject' }));
    const table = await screen.findByRole('table', { name: 'Subjects' });
    expect(within(table).getByText('DS')).toBeInTheDocument();

    await user.type(within(form).getByRole('textbox', { name: 'Code' }), 'DS');
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Again');
    await user.click(within(form).getByRole('button', { name: 'Add subject' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('There is already a subject with the code DS');

    await user.click(screen.getByRole('button', { name: 'Rename DS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename DS' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Data Structures and Algorithms{Enter}');
    await waitFor(() => expect(within(table).getByText('Data Structures and Algorithms')).toBeInTheDocument());
  });

  it('says a refusal built with a value in the language shown, with its value', async () => {
    await loadAppMessages();
    await act(() => showLanguage('hi'));
    try {
      const user = userEvent.setup();
      renderRoutes(routes, '/admin/subjects');
      const form = await screen.findByRole('form', { name: 'विषय जोड़ें' }, { timeout: 10_000 });
      const [code, name] = within(form).getAllByRole('textbox');
      await user.type(code!, 'DS');
      await user.type(name!, 'Again');
      await user.click(within(form).getByRole('button', { name: 'विषय जोड़ें' }));
      expect(await within(form).findByRole('alert')).toHaveTextContent('कोड DS वाला विषय पहले से मौजूद है');
    } finally {
      await act(() => showLanguage('en'));
    }
  }, 60_000);
});

describe('/admin/classes/:class/timetable', () => {
  it('gives each weekday and period a subject and saves the week', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/classes/CSE6/timetable');
    expect(await screen.findByRole('heading', { name: 'CSE6 timetable' }, { timeout: 10_000 })).toBeInTheDocument();
    const grid = await screen.findByRole('table', { name: 'CSE6 weekly timetable' });
    await user.selectOptions(within(grid).getByRole('combobox', { name: 'Monday period 1' }), 'DS');
    await user.selectOptions(within(grid).getByRole('combobox', { name: 'Wednesday period 3' }), 'DS');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save timetable' }));
    expect(await screen.findByText('The CSE6 timetable has been saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument());

    const stored = TimetableSchema.parse(await (await fetch('/api/classes/CSE6/timetable')).json());
    expect(stored.slots.map((s) => [s.weekday, s.period, s.subject.code])).toEqual([
      [1, 1, 'DS'],
      [3, 3, 'DS'],
    ]);
  });
});

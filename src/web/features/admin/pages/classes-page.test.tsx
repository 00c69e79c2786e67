import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ClassSummary } from '../../../../shared/schemas/attendance';
import { putStudents } from '../../../../server/modules/roster/service';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

startSignedInApp('admin', {
  email: 'classes-page-admin@uni.edu',
  seed: ({ database: { db } }) =>
    putStudents(db, [
      { pin: 'CP-01', name: 'First Student', className: 'CSE3' },
      { pin: 'CP-02', name: 'Second Student', className: 'CSE3' },
    ]),
});

/** The class names of a table, in its order. */
function namesIn(tableName: string): string[] {
  const table = screen.getByRole('table', { name: tableName });
  return within(table)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent?.replace('Archived', '').trim() ?? '');
}

/** A row's order, student count and register count. */
function countsOf(name: string): string[] {
  const row = screen.getByRole('rowheader', { name }).closest('tr')!;
  return within(row)
    .getAllByRole('cell')
    .slice(0, 3)
    .map((cell) => cell.textContent ?? '');
}

async function dashboardNames(): Promise<string[]> {
  const answer = await fetch('/api/classes');
  return ((await answer.json()) as ClassSummary[]).map((c) => c.name);
}

describe('/admin/classes', () => {
  it('lists, adds, moves, renames, archives and restores classes, and the dashboard follows', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/classes');

    await screen.findByRole('table', { name: 'Classes on the dashboard' }, { timeout: 10_000 });
    expect(namesIn('Classes on the dashboard')).toEqual(['CSE1', 'CSE2', 'CSE3', 'CSE4', 'CSE5', 'CSE6', 'CSE7', 'CSE8']);
    // Order, students, registers.
    expect(countsOf('CSE3')).toEqual(['3', '2', '0']);
    expect(screen.queryByRole('table', { name: 'Archived classes' })).not.toBeInTheDocument();

    // Add: a bad name is refused on the page, a taken one by the server.
    const field = screen.getByRole('textbox', { name: /New class name/ });
    await user.type(field, 'CSE/9');
    await user.click(screen.getByRole('button', { name: 'Add class' }));
    expect(await screen.findByText('A class name holds only letters, digits, spaces and -')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'cse1');
    await user.click(screen.getByRole('button', { name: 'Add class' }));
    expect(await screen.findByText('A class named CSE1 already exists')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'ECE 1{Enter}');
    await waitFor(() => expect(namesIn('Classes on the dashboard').at(-1)).toBe('ECE 1'));
    expect(field).toHaveValue('');
    expect((await dashboardNames()).at(-1)).toBe('ECE 1');

    // Move up, from the keyboard.
    screen.getByRole('button', { name: 'Move ECE 1 up' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(namesIn('Classes on the dashboard').slice(-2)).toEqual(['ECE 1', 'CSE8']));
    expect((await dashboardNames()).slice(-2)).toEqual(['ECE 1', 'CSE8']);
    expect(screen.getByRole('button', { name: 'Move CSE1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move CSE8 down' })).toBeDisabled();

    // Rename: the dialog says the new name replaces the old one everywhere.
    await user.click(screen.getByRole('button', { name: 'Rename CSE3' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename CSE3' });
    expect(rename).toHaveTextContent('The new name replaces CSE3 everywhere');
    expect(rename).toHaveTextContent('past register');
    const newName = within(rename).getByRole('textbox', { name: 'New name' });
    await user.clear(newName);
    await user.type(newName, 'CSE-3A');
    await user.click(within(rename).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(namesIn('Classes on the dashboard')).toContain('CSE-3A'));
    expect(namesIn('Classes on the dashboard')).not.toContain('CSE3');
    expect(countsOf('CSE-3A')).toEqual(['3', '2', '0']);
    expect(await dashboardNames()).toContain('CSE-3A');

    // Archive, after a confirmation that says what it means.
    await user.click(screen.getByRole('button', { name: 'Archive CSE5' }));
    const confirm = await screen.findByRole('dialog', { name: 'Archive CSE5' });
    expect(confirm).toHaveTextContent('It leaves the dashboard');
    expect(confirm).toHaveTextContent('keep it');
    await user.click(within(confirm).getByRole('button', { name: 'Archive' }));
    await screen.findByRole('table', { name: 'Archived classes' });
    expect(namesIn('Archived classes')).toEqual(['CSE5']);
    expect(namesIn('Classes on the dashboard')).not.toContain('CSE5');
    expect(await dashboardNames()).not.toContain('CSE5');

    // Restore.
    await user.click(screen.getByRole('button', { name: 'Restore CSE5' }));
    const restore = await screen.findByRole('dialog', { name: 'Restore CSE5' });
    await user.click(within(restore).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Archived classes' })).not.toBeInTheDocument());
    expect(namesIn('Classes on the dashboard')).toContain('CSE5');
    expect(await dashboardNames()).toContain('CSE5');
  }, 60_000);
});

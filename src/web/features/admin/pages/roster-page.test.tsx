import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { putStudents } from '../../../../server/modules/roster/service';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

const server = startSignedInApp('admin', {
  email: 'roster-page-admin@uni.edu',
  seed: ({ database: { db } }) =>
    putStudents(db, [
      { pin: 'PG1', name: 'Page One', className: 'CSE6' },
      { pin: 'PG2', name: 'Page Two', className: 'CSE6' },
    ]),
});

function csvFile(text: string, name = 'roster.csv') {
  return new File([text], name, { type: 'text/csv' });
}

function fileInput(container: HTMLElement): HTMLInputElement {
  const input = container.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
}

async function rosterPins(className: string) {
  const answer = await server.ctx.app.inject({ method: 'GET', url: `/api/admin/roster.csv`, headers: { cookie: await server.ctx.signIn('admin') } });
  return answer.body
    .split('\n')
    .filter((line) => line.endsWith(`,${className}`))
    .map((line) => line.split(',')[0]);
}

describe('/admin/roster', () => {
  it('shows a file’s problems by line with Apply disabled, then previews the fixed file and applies it', async () => {
    const user = userEvent.setup();
    const { container } = renderRoutes(routes, '/admin/roster');
    await screen.findByRole('button', { name: 'Choose a CSV file' }, { timeout: 10_000 });
    expect(screen.getByText('pin,name,class')).toBeInTheDocument();

    await user.upload(fileInput(container), csvFile('pin,name,class\nPG1,Page One,CSE6\nPG3,Page Three,ECE9\n'));
    const problems = await screen.findByRole('table', { name: 'Problems in the file' }, { timeout: 10_000 });
    const row = within(problems).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('3');
    expect(row).toHaveTextContent('class "ECE9" does not exist');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(await rosterPins('CSE6')).toEqual(['PG1', 'PG2']);

    await user.upload(fileInput(container), csvFile('pin,name,class\nPG1,Page One,CSE6\nPG3,Page Three,CSE6\nPG2,Page Two,CSE7\n'));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Problems in the file' })).not.toBeInTheDocument());
    const added = await screen.findByRole('table', { name: 'Students added' });
    expect(within(added).getByText('PG3')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Moved: 1' }));
    const moved = await screen.findByRole('table', { name: 'Students who move class' });
    expect(within(moved).getByText('CSE6 → CSE7')).toBeInTheDocument();
    // The preview changed nothing.
    expect(await rosterPins('CSE6')).toEqual(['PG1', 'PG2']);

    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeEnabled();
    await user.click(apply);
    const done = await screen.findByText('1 added, 0 updated, 1 moved, 1 unchanged.', undefined, { timeout: 10_000 });
    expect(done).toBeInTheDocument();
    expect(await rosterPins('CSE6')).toEqual(['PG1', 'PG3']);
    expect(await rosterPins('CSE7')).toEqual(['PG2']);
  });

  it('withdraws the students not in the file only when asked, after a confirmation', async () => {
    const user = userEvent.setup();
    const { container } = renderRoutes(routes, '/admin/roster');
    await screen.findByRole('button', { name: 'Choose a CSV file' }, { timeout: 10_000 });
    const everyone = (await server.ctx.app.inject({ method: 'GET', url: '/api/admin/roster.csv', headers: { cookie: await server.ctx.signIn('admin') } })).body;
    // Everyone but PG3.
    const file = everyone
      .split('\n')
      .filter((line) => !line.startsWith('PG3,'))
      .join('\n');

    await user.upload(fileInput(container), csvFile(file));
    const withdraw = await screen.findByRole('checkbox', { name: 'Withdraw the 1 student not in the file' }, { timeout: 10_000 });
    expect(withdraw).not.toBeChecked();
    await user.click(withdraw);
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw students' });
    await user.click(within(dialog).getByRole('button', { name: 'Import and withdraw' }));
    expect(await screen.findByText(/1 withdrawn/, undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(await rosterPins('CSE6')).toEqual(['PG1']);
  });
});

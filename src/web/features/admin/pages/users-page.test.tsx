import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createAccount, findUserByEmail } from '../../../../server/modules/accounts/service';
import { MailSender } from '../../../../server/modules/mail/sender';
import { startSmtp, unusedPort } from '../../../../server/test/smtp';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';

const ADMIN = 'users-page-admin@uni.edu';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

const server = startTestServer({
  config: { smtp: { url: 'smtp://127.0.0.1:25', from: 'office@uni.edu' }, publicUrl: 'https://portal.uni.edu' },
  seed: async ({ signIn, database }) => {
    await signIn('admin', { email: ADMIN });
    const admin = (await findUserByEmail(database.db, ADMIN))!;
    const delivery = { baseUrl: 'https://portal.uni.edu', email: true };
    const send = async (url: string) => {
      const sender = new MailSender({ database, smtp: { url, from: 'office@uni.edu' }, log: quiet });
      await sender.sendDue();
      await sender.stop();
    };
    // One e-mail the mail server took, one it could not be reached for, one not tried yet.
    const smtp = await startSmtp();
    await createAccount(database.db, admin, { email: 'mailed@uni.edu', name: 'Mailed', role: 'faculty' }, delivery);
    await send(smtp.url);
    await smtp.close();
    await createAccount(database.db, admin, { email: 'failing@uni.edu', name: 'Failing', role: 'faculty' }, delivery);
    await send(`smtp://127.0.0.1:${await unusedPort()}`);
    await createAccount(database.db, admin, { email: 'waiting@uni.edu', name: 'Waiting', role: 'faculty' }, delivery);
  },
});

describe('/admin/users', () => {
  it('shows whether each account\'s set-password e-mail went out, and why not when it failed', async () => {
    await server.signIn(ADMIN, 'admin');
    renderRoutes(routes, '/admin/users');
    const table = await screen.findByRole('table', { name: 'Accounts' }, { timeout: 10_000 });
    const rowOf = (email: string) => within(table).getByRole('rowheader', { name: email }).closest('tr')!;
    const cellOf = (email: string) => {
      const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
      return rowOf(email).children[headers.indexOf('Set-password e-mail')]!;
    };

    expect(cellOf('mailed@uni.edu')).toHaveTextContent('Sent');
    expect(cellOf('failing@uni.edu')).toHaveTextContent(/^Failing/);
    expect(cellOf('failing@uni.edu')).toHaveTextContent(/Could not reach the mail server: .*ECONNREFUSED.*\(1 try\)\. Next try/);
    expect(cellOf('waiting@uni.edu')).toHaveTextContent(/^QueuedSince/);
    // An account made without a link has no e-mail to show.
    expect(cellOf(ADMIN)).toHaveTextContent('—');
  });

  it('tells the admin that a new account\'s link is on its way by e-mail', async () => {
    await server.signIn(ADMIN, 'admin');
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Add account' }, { timeout: 10_000 }));
    const form = await screen.findByRole('form', { name: 'Add account' });
    await user.type(within(form).getByRole('textbox', { name: 'E-mail' }), 'new.one@uni.edu');
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'New One');
    await user.click(within(form).getByRole('button', { name: 'Add account' }));
    const shown = await screen.findByRole('dialog', { name: 'Account added' }, { timeout: 10_000 });
    expect(shown).toHaveTextContent('This link is on its way to new.one@uni.edu by e-mail. It lets them choose their password.');
    expect(within(shown).getByRole<HTMLInputElement>('textbox', { name: 'Set-password link' }).value).toMatch(/^https:\/\/portal\.uni\.edu\/set-password#token=/);
  });
});

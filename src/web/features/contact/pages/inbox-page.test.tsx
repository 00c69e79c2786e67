import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { contactMessages } from '../../../../server/db/schema';
import { insertMessage } from '../../../../server/modules/contact/repository';
import { addUser } from '../../../../server/modules/accounts/service';
import { TEST_PASSWORD } from '../../../../server/test/test-app';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { InboxPage } from './inbox-page';

const server = startTestServer({
  seed: ({ database: { db } }) => addUser(db, { email: 'anita@uni.edu', name: 'Anita Desai', role: 'faculty', password: TEST_PASSWORD }),
  signedInAs: { email: 'anita@uni.edu', role: 'faculty' },
});

function renderInbox() {
  return renderRoutes([{ path: '/inbox', element: <InboxPage /> }], '/inbox');
}

describe('InboxPage', () => {
  it('says so when there are no messages', async () => {
    renderInbox();
    expect(await screen.findByText('No messages yet.')).toBeInTheDocument();
  });

  it('shows the error and tries again', async () => {
    const user = userEvent.setup();
    let fail = true;
    vi.stubGlobal('fetch', (async (input, init) => {
      if (fail && String(input) === '/api/contact') {
        return new Response('{"message":"Something went wrong on the server. Please try again."}', { status: 500 });
      }
      return server.fetch(input, init);
    }) as typeof fetch);
    renderInbox();
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Error loading messages');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('No messages yet.')).toBeInTheDocument();
  });

  it('lists messages newest first, highlights unread ones and marks them read and unread', async () => {
    const user = userEvent.setup();
    const older = await insertMessage(server.ctx.database.db, {
      name: 'Kiran Rao',
      email: 'kiran@example.com',
      phone: null,
      subject: 'Older question',
      message: 'First message',
    });
    await server.ctx.database.db
      .update(contactMessages)
      .set({ createdAt: new Date(Date.now() - 60_000), forwardedAt: new Date(), forwardAttempts: 1 })
      .where(eq(contactMessages.id, older.id));
    const newer = await insertMessage(server.ctx.database.db, {
      name: 'Meghana Nair',
      email: 'meghana@example.com',
      phone: '+91 90000 00000',
      subject: 'Newer question',
      message: 'Second message\nwith two lines',
    });

    renderInbox();
    const articles = await screen.findAllByRole('article');
    expect(articles.map((a) => within(a).getByRole('heading').textContent)).toEqual(['Newer question', 'Older question']);
    expect(screen.getByText('2 unread')).toBeInTheDocument();

    const newest = screen.getByRole('article', { name: 'Newer question' });
    expect(within(newest).getByText('Unread')).toBeInTheDocument();
    expect(within(newest).getByRole('link', { name: 'meghana@example.com' })).toHaveAttribute('href', 'mailto:meghana@example.com');
    expect(within(newest).getByText('Not forwarded')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Older question' })).getByText('Forwarded')).toBeInTheDocument();

    await user.click(within(newest).getByRole('button', { name: 'Mark as read: Newer question' }));
    await waitFor(() => expect(within(newest).queryByText('Unread')).not.toBeInTheDocument());
    expect(screen.getByText('1 unread')).toBeInTheDocument();
    const [stored] = await server.ctx.database.db.select().from(contactMessages).where(eq(contactMessages.id, newer.id));
    expect(stored?.readAt).not.toBeNull();

    await user.click(within(newest).getByRole('button', { name: 'Mark as unread: Newer question' }));
    expect(await within(newest).findByText('Unread')).toBeInTheDocument();
    expect(screen.getByText('2 unread')).toBeInTheDocument();
  });

  it('tells whether forwarding succeeded, is pending or failed, with the reason', async () => {
    const base = {
      name: 'Kiran Rao',
      email: 'kiran@example.com',
      phone: null,
      message: 'Hello',
      createdAt: '2026-03-02T10:00:00.000Z',
      read: true,
    };
    const list = [
      { ...base, id: 3, subject: 'Waiting', forwardStatus: 'pending', forwardedAt: null, forwardError: null, forwardAttempts: 0 },
      {
        ...base,
        id: 2,
        subject: 'Retrying',
        forwardStatus: 'pending',
        forwardedAt: null,
        forwardError: 'The form service answered 503 Service Unavailable',
        forwardAttempts: 2,
      },
      {
        ...base,
        id: 1,
        subject: 'Given up',
        forwardStatus: 'failed',
        forwardedAt: null,
        forwardError: 'The form service did not answer within 10 s',
        forwardAttempts: 10,
      },
    ];
    vi.stubGlobal('fetch', (async (input, init) => {
      if (String(input) === '/api/contact') return Response.json(list);
      return server.fetch(input, init);
    }) as typeof fetch);
    renderInbox();
    const waiting = await screen.findByRole('article', { name: 'Waiting' });
    expect(within(waiting).getByText('Forwarding pending')).toBeInTheDocument();
    const retrying = screen.getByRole('article', { name: 'Retrying' });
    expect(within(retrying).getByText('Forwarding pending')).toBeInTheDocument();
    expect(retrying).toHaveTextContent('Last try failed: The form service answered 503 Service Unavailable (2 tries so far; trying again)');
    const failed = screen.getByRole('article', { name: 'Given up' });
    expect(within(failed).getByText('Forwarding failed')).toBeInTheDocument();
    expect(failed).toHaveTextContent('The form service did not answer within 10 s (gave up after 10 tries; the message is kept here)');
    expect(screen.queryByText(/^\d+ unread$/)).not.toBeInTheDocument();
  });
});

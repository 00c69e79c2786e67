import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { notifications, users } from '../../../../server/db/schema';
import { routes } from '../../../app/router';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';
import { FakeEventSource } from '../../../test/fake-event-source';

const EMAIL = 'bell-student@uni.edu';
const PIN = '22BELL1';

const server = startSignedInApp('student', { email: EMAIL, pin: PIN });

async function accountId(): Promise<string> {
  const [row] = await server.ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, EMAIL));
  return row!.id;
}

async function unreadInDatabase(): Promise<number> {
  const rows = await server.ctx.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, await accountId()), isNull(notifications.readAt)));
  return rows.length;
}

/** The bell's popover. */
const findDialog = () => screen.findByRole('dialog', { name: 'Notifications' });


describe("the header's bell", () => {
  it('counts the unread notices, lists them, opens a link (read), marks all as read and says when there are none', async () => {
    const userId = await accountId();
    const db = server.ctx.database.db;
    await db.insert(notifications).values([
      { userId, kind: 'below-threshold', title: 'Attendance below 75%', body: 'Your attendance this term is 60.0%.', createdAt: new Date('2026-03-02T09:00:00Z'), readAt: new Date('2026-03-02T10:00:00Z') },
      { userId, kind: 'consecutive-absences', title: 'Absent 3 times in a row', body: 'You were marked absent on 3 days.', link: '/student', createdAt: new Date('2026-03-03T09:00:00Z') },
      { userId, kind: 'below-threshold', title: 'Attendance below 75% in Data Structures', body: 'Your attendance in Data Structures is 50.0%.', createdAt: new Date('2026-03-04T09:00:00Z') },
    ]);
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/account');
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' }, { timeout: 10_000 });

    await user.click(bell);
    const dialog = await findDialog();
    const items = within(within(dialog).getByRole('list', { name: 'Notifications' })).getAllByRole('listitem');
    // Newest first; the unread ones say so.
    expect(items.map((item) => item.querySelector('a, p')?.textContent)).toEqual([
      'Unread: Attendance below 75% in Data Structures',
      'Unread: Absent 3 times in a row',
      'Attendance below 75%',
    ]);
    expect(within(items[1]!).getByText('You were marked absent on 3 days.')).toBeInTheDocument();
    expect(items[1]!.querySelector('time')).toHaveAttribute('datetime', '2026-03-03T09:00:00.000Z');

    // A notice's link goes where it says and counts as read.
    await user.click(within(items[1]!).getByRole('link', { name: 'Unread: Absent 3 times in a row' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/student'));
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await unreadInDatabase()).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Notifications, 1 unread' }));
    await user.click(within(await findDialog()).getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(within(await findDialog()).getByRole('button', { name: 'Mark all as read' })).toHaveAttribute('aria-disabled', 'true');
    await waitFor(async () => expect((await findDialog()).textContent).not.toContain('Unread:'));
    expect(await unreadInDatabase()).toBe(0);

    // Escape closes it, and the bell keeps the focus; with no notices it says so.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Notifications' })).toHaveFocus();
    await db.delete(notifications).where(eq(notifications.userId, userId));
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await within(await findDialog()).findByText('No notifications yet')).toBeInTheDocument();
  });

  it('asks for the notices again when the live stream says one arrived', async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    // jsdom has none: the page's fetch, stubbed for the file, stays.
    onTestFinished(() => {
      vi.stubGlobal('EventSource', undefined);
    });
    renderRoutes(routes, '/account');
    expect(await screen.findByRole('button', { name: 'Notifications' }, { timeout: 10_000 })).toBeInTheDocument();
    // The page's one stream.
    expect(FakeEventSource.instances.map((source) => source.url)).toEqual(['/api/events']);

    await server.ctx.database.db.insert(notifications).values({ userId: await accountId(), kind: 'below-threshold', title: 'Attendance below 75%', body: 'Your attendance this term is 70.0%.' });
    act(() => {
      FakeEventSource.instances[0]!.dispatchEvent(new MessageEvent('notification', { data: '{}' }));
    });
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
  });
});

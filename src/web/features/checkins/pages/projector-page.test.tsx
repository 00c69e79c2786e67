import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { students } from '../../../../server/db/schema';
import { addUser } from '../../../../server/modules/accounts/service';
import { createInjectFetch, signInThroughFetch } from '../../../../server/test/inject-fetch';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../../../server/test/test-app';
import type { Checkin, OpenedCheckin } from '../../../../shared/schemas/checkins';
import { FakeEventSource } from '../../../test/fake-event-source';
import { renderRoutes } from '../../../test/render';
import { ProjectorPage } from './projector-page';

let ctx: TestContext;
let studentFetch: typeof fetch;
/** The faculty member's own fetch, never held. */
let facultyFetch: typeof fetch;
/** While set, the page's GETs of a check-in wait here: only its stream can bring a change. */
let held: (() => void)[] | null = null;
const isCheckinRead = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
  (init?.method ?? 'GET') === 'GET' && /\/api\/checkins\/[\w-]+$/.test(typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url);

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(students).values([
    { pin: '23CSE301', name: 'Ananya Rao', className: 'CSE3' },
    { pin: '23CSE302', name: 'Bhavana Iyer', className: 'CSE3' },
  ]);
  await addUser(ctx.database.db, { email: 'meera@uni.edu', name: 'Dr. Meera Iyer', role: 'faculty', password: TEST_PASSWORD });
  await addUser(ctx.database.db, { email: 'ananya@uni.edu', name: 'Ananya Rao', role: 'student', pin: '23CSE301', password: TEST_PASSWORD });
  facultyFetch = createInjectFetch(ctx.app);
  vi.stubGlobal('fetch', async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (held && isCheckinRead(input, init)) await new Promise<void>((release) => held!.push(release));
    return facultyFetch(input, init);
  });
  await signInThroughFetch(fetch, 'meera@uni.edu', 'faculty');
  studentFetch = createInjectFetch(ctx.app);
  await signInThroughFetch(studentFetch, 'ananya@uni.edu', 'student');
  // Starting a migrated database takes several seconds on a busy machine.
}, 60_000);
afterAll(async () => {
  vi.unstubAllGlobals();
  await ctx?.close();
});

async function json<T>(response: Response): Promise<T> {
  expect(response.ok, await response.clone().text()).toBe(true);
  return (await response.json()) as T;
}

const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the projector view', () => {
  it('shows the class, the QR and the typed code, the students checked in with their flags in words; removes one with a reason, and closes', async () => {
    const { id } = await json<OpenedCheckin>(await fetch('/api/checkins', post({ className: 'CSE3' })));
    const before = await json<Checkin>(await fetch(`/api/checkins/${id}`));
    // A scan without the device's key: accepted, and flagged for faculty.
    await json(await studentFetch('/api/checkins/scan', post({ token: before.code!.token })));

    renderRoutes([{ path: '/checkin/:id', element: <ProjectorPage /> }], `/checkin/${id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'CSE3' })).toBeInTheDocument();
    expect(screen.getByText('Whole day')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /QR code to check in/ })).toBeInTheDocument();
    expect(screen.getByTestId('typed-code').textContent).toMatch(/^Code to type: [A-Z2-7]{6}$/);
    expect(screen.getByRole('timer')).toHaveTextContent(/^Closes in (10:00|9:\d\d)$/);
    expect(screen.getByText('1 checked in')).toBeInTheDocument();
    expect(screen.getByText('0 refused attempts')).toBeInTheDocument();
    const list = screen.getByRole('table', { name: 'Students checked in' });
    const row = within(list).getByText('Ananya Rao').closest('tr')!;
    expect(within(row).getByText('No device key')).toBeInTheDocument();
    expect(within(row).getByText('Present')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: "Remove Ananya Rao's check-in" }));
    const dialog = await screen.findByRole('dialog', { name: "Remove Ananya Rao's check-in" });
    await user.click(within(dialog).getByRole('button', { name: 'Remove check-in' }));
    expect(within(dialog).getByText('Give the reason for removing the check-in')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Not in the room');
    await user.click(within(dialog).getByRole('button', { name: 'Remove check-in' }));
    expect(await within(list).findByText('Removed: Not in the room')).toBeInTheDocument();
    expect(screen.getByText('0 checked in')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Close check-in' }));
    expect(await screen.findByText('Check-in closed')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code to check in/ })).not.toBeInTheDocument();
  });

  it("shows a student checked in as soon as the check-in's stream says so, the code staying the one shown", async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    try {
      await addUser(ctx.database.db, { email: 'bhavana@uni.edu', name: 'Bhavana Iyer', role: 'student', pin: '23CSE302', password: TEST_PASSWORD });
      const bhavanaFetch = createInjectFetch(ctx.app);
      await signInThroughFetch(bhavanaFetch, 'bhavana@uni.edu', 'student');
      const { id } = await json<OpenedCheckin>(await fetch('/api/checkins', post({ className: 'CSE3' })));

      renderRoutes([{ path: '/checkin/:id', element: <ProjectorPage /> }], `/checkin/${id}`);
      expect(await screen.findByText('0 checked in')).toBeInTheDocument();
      const stream = FakeEventSource.instances.find((source) => source.url === `/api/checkins/${id}/events`)!;
      expect(stream).toBeDefined();
      act(() => stream.open());
      const shownCode = screen.getByTestId('typed-code').textContent;

      // From now on the page's own reads wait: the list can come only through the stream.
      held = [];
      const { code, ...before } = await json<Checkin>(await facultyFetch(`/api/checkins/${id}`));
      await json(await bhavanaFetch('/api/checkins/scan', post({ token: code!.token })));
      const { code: _next, ...list } = await json<Checkin>(await facultyFetch(`/api/checkins/${id}`));
      expect(list.checkedIn).toBe(before.checkedIn + 1);
      act(() => stream.send('checkin', JSON.stringify(list)));
      expect(await screen.findByText('1 checked in')).toBeInTheDocument();
      expect(within(screen.getByRole('table', { name: 'Students checked in' })).getByText('Bhavana Iyer')).toBeInTheDocument();
      expect(screen.getByTestId('typed-code').textContent).toBe(shownCode);
      // What is not a check-in's list changes nothing.
      act(() => stream.send('checkin', '{"id":"x"}'));
      act(() => stream.send('checkin', 'not json'));
      expect(screen.getByText('1 checked in')).toBeInTheDocument();

      // Closed elsewhere: the stream says so, and the code goes.
      await json(await facultyFetch(`/api/checkins/${id}/close`, post({})));
      const { code: _none, ...closed } = await json<Checkin>(await facultyFetch(`/api/checkins/${id}`));
      act(() => stream.send('checkin', JSON.stringify(closed)));
      expect(await screen.findByText('Check-in closed')).toBeInTheDocument();
      expect(screen.queryByTestId('typed-code')).not.toBeInTheDocument();
    } finally {
      const waiting = held ?? [];
      held = null;
      for (const release of waiting) release();
      vi.stubGlobal('EventSource', undefined);
    }
  });

  it('says so when there is no such check-in', async () => {
    renderRoutes([{ path: '/checkin/:id', element: <ProjectorPage /> }], '/checkin/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no such check-in');
  });
});

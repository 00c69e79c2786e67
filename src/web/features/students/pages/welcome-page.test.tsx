import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { profiles } from '../../../../server/db/schema';
import { createInjectFetch, signInThroughFetch } from '../../../../server/test/inject-fetch';
import { createTestContext, type TestContext } from '../../../../server/test/test-app';
import { renderRoutes } from '../../../test/render';
import { WelcomePage } from './welcome-page';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.signIn('faculty', { email: 'welcome-faculty@uni.edu' });
  await ctx.signIn('student', { email: 'welcome-student@uni.edu', pin: '22W1' });
  await ctx.database.db.insert(profiles).values([
    { pin: '22W1', name: 'Deepika Nair', designation: 'B.Tech CSE' },
    { pin: '22W2', name: 'Varun Shetty', designation: 'MBA', github: 'https://github.com/varun' },
    { pin: '22W3', name: 'Zoya Khan', designation: 'B.Tech ECE' },
  ]);
  // A fresh database and two password hashes take a while on a busy machine.
}, 60_000);
afterAll(async () => ctx.close());

beforeEach(() => vi.stubGlobal('fetch', createInjectFetch(ctx.app)));
afterEach(() => vi.unstubAllGlobals());

async function signIn(email: string, role: 'faculty' | 'student') {
  await signInThroughFetch(fetch, email, role);
}

function renderWelcome() {
  return renderRoutes([{ path: '/welcome/*', element: <WelcomePage /> }], '/welcome');
}

describe('Welcome', () => {
  it('lists the profiles for faculty, filters them, and deletes one after confirmation', async () => {
    await signIn('welcome-faculty@uni.edu', 'faculty');
    const user = userEvent.setup();
    renderWelcome();
    const list = await screen.findByRole('region', { name: 'Registered Profiles' });
    expect(await within(list).findByText('3 profiles')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: /GitHub/ })).toHaveAttribute('href', 'https://github.com/varun');
    expect(within(list).getByRole('link', { name: 'Attendance of Varun Shetty' })).toHaveAttribute('href', '/faculty?pin=22W2');

    await user.type(within(list).getByRole('textbox', { name: 'Filter profiles' }), 'b.tech');
    await waitFor(() => expect(within(list).queryByRole('heading', { name: 'Varun Shetty' })).not.toBeInTheDocument());
    expect(within(list).getByText('2 of 3 profiles match')).toBeInTheDocument();
    await user.clear(within(list).getByRole('textbox', { name: 'Filter profiles' }));
    await user.type(within(list).getByRole('textbox', { name: 'Filter profiles' }), 'nobody');
    expect(await within(list).findByText('No profiles match “nobody”.')).toBeInTheDocument();
    await user.clear(within(list).getByRole('textbox', { name: 'Filter profiles' }));

    await user.click(await within(list).findByRole('button', { name: 'Delete profile of Zoya Khan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete profile' });
    expect(dialog).toHaveTextContent('Delete the profile of Zoya Khan (PIN 22W3)?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(list).queryByRole('heading', { name: 'Zoya Khan' })).not.toBeInTheDocument());
    expect(within(list).getByText('2 profiles')).toBeInTheDocument();
  });

  it('shows a student only their own profile, without edit or delete', async () => {
    await signIn('welcome-student@uni.edu', 'student');
    renderWelcome();
    const list = await screen.findByRole('region', { name: 'My Profile' });
    expect(await within(list).findByRole('heading', { name: 'Deepika Nair' })).toBeInTheDocument();
    expect(within(list).queryByRole('heading', { name: 'Varun Shetty' })).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { profiles } from '../../../../server/db/schema';
import { putStudents } from '../../../../server/modules/roster/service';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { WelcomePage } from './welcome-page';

const FACULTY = 'welcome-faculty@uni.edu';
const STUDENT = 'welcome-student@uni.edu';
const NEWCOMER = 'welcome-newcomer@uni.edu';

/** A registration by someone not signed in: it waits for faculty. */
async function registerSignedOut(pin: string, name: string, designation: string) {
  const response = await server.ctx.app.inject({ method: 'POST', url: '/api/registrations', payload: { pin, name, designation } });
  expect(response.json()).toMatchObject({ pin, status: 'pending' });
}

// Each test signs in afresh with its own cookie jar.
const server = startTestServer({
  jarPerTest: true,
  seed: async ({ signIn, database: { db } }) => {
    await signIn('faculty', { email: FACULTY });
    await signIn('student', { email: STUDENT, pin: '22W1' });
    await signIn('student', { email: NEWCOMER, pin: '22W9' });
    await db.insert(profiles).values([
      { pin: '22W1', name: 'Deepika Nair', designation: 'B.Tech CSE', status: 'approved' },
      { pin: '22W2', name: 'Varun Shetty', designation: 'MBA', github: 'https://github.com/varun', status: 'approved' },
      { pin: '22W3', name: 'Zoya Khan', designation: 'B.Tech ECE', status: 'approved' },
    ]);
    await putStudents(db, [
      { pin: '22P1', name: 'Pending One', className: 'CSE2' },
      { pin: '22P2', name: 'Pending Two', className: 'CSE2' },
    ]);
    await registerSignedOut('22P1', 'Kiran Kumar', 'B.Tech IT');
    await registerSignedOut('22P2', 'Somebody Else', 'Spam');
    // A stranger's profile on the newcomer's PIN: never shown to the newcomer.
    await registerSignedOut('22W9', 'Not The Newcomer', 'Imposter');
  },
});

function renderWelcome() {
  return renderRoutes(
    [
      { path: '/welcome/*', element: <WelcomePage /> },
      { path: '/register', element: <p>Registration form</p> },
    ],
    '/welcome',
  );
}

describe('Welcome for faculty', () => {
  beforeEach(() => server.signIn(FACULTY, 'faculty'));

  it('lists the approved profiles, filters them, and deletes one after confirmation', async () => {
    const user = userEvent.setup();
    renderWelcome();
    const list = await screen.findByRole('region', { name: 'Registered Profiles' });
    expect(await within(list).findByText('3 profiles')).toBeInTheDocument();
    expect(within(list).queryByRole('heading', { name: 'Kiran Kumar' })).not.toBeInTheDocument();
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

  it('shows the profiles waiting for review with a badge; Approve shows one on the portal, Reject asks and removes one', async () => {
    const user = userEvent.setup();
    renderWelcome();
    const review = await screen.findByRole('region', { name: 'Pending review' });
    expect(await within(review).findByText('3 profiles are waiting for review')).toBeInTheDocument();
    const kiran = within(review).getByRole('heading', { name: 'Kiran Kumar' }).closest('li')!;
    expect(within(kiran).getByText('Pending review')).toBeInTheDocument();
    expect(within(kiran).getByText('PIN: 22P1')).toBeInTheDocument();
    const list = screen.getByRole('region', { name: 'Registered Profiles' });
    expect(await within(list).findByText('2 profiles')).toBeInTheDocument();

    await user.click(within(kiran).getByRole('button', { name: 'Approve profile of Kiran Kumar' }));
    expect(await screen.findByText('The profile of Kiran Kumar has been approved. It now shows on their record.')).toBeInTheDocument();
    await waitFor(() => expect(within(review).queryByRole('heading', { name: 'Kiran Kumar' })).not.toBeInTheDocument());
    expect(await within(list).findByRole('heading', { name: 'Kiran Kumar' })).toBeInTheDocument();
    expect(within(review).getByText('2 profiles are waiting for review')).toBeInTheDocument();
    // The button that had the focus is gone: the focus stays in the review section.
    await waitFor(() => expect(within(review).getByRole('heading', { name: 'Pending review' })).toHaveFocus());

    await user.click(within(review).getByRole('button', { name: 'Reject profile of Somebody Else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject profile' });
    expect(dialog).toHaveTextContent(
      'Reject the profile of Somebody Else (PIN 22P2)? It is deleted without being shown anywhere; the student can still register their own.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reject profile' })).not.toBeInTheDocument());
    expect(within(review).getByRole('heading', { name: 'Somebody Else' })).toBeInTheDocument();

    await user.click(within(review).getByRole('button', { name: 'Reject profile of Somebody Else' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Reject profile' })).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('The profile of Somebody Else has been rejected and deleted.')).toBeInTheDocument();
    await waitFor(() => expect(within(review).queryByRole('heading', { name: 'Somebody Else' })).not.toBeInTheDocument());
    expect(within(list).queryByRole('heading', { name: 'Somebody Else' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(review).getByRole('heading', { name: 'Pending review' })).toHaveFocus());

    const left = (await (await fetch('/api/registrations?status=all')).json()) as { pin: string; status: string }[];
    expect(left.map((p) => `${p.pin} ${p.status}`).sort()).toEqual(
      ['22P1 approved', '22W1 approved', '22W2 approved', '22W9 pending'],
    );
  });
});

describe('Welcome for a student', () => {
  it('shows only their own profile, which they edit (not its PIN) and may delete', async () => {
    await server.signIn(STUDENT, 'student');
    const user = userEvent.setup();
    renderWelcome();
    const list = await screen.findByRole('region', { name: 'My Profile' });
    expect(await within(list).findByRole('heading', { name: 'Deepika Nair' })).toBeInTheDocument();
    expect(within(list).queryByRole('heading', { name: 'Varun Shetty' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Pending review' })).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: /^(Edit|Delete)$/ })).not.toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Edit my profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit my profile' });
    const pin = within(dialog).getByRole('textbox', { name: 'PIN Number' });
    expect(pin).toHaveValue('22W1');
    expect(pin).toHaveAttribute('readonly');
    expect(within(dialog).getByText('Only faculty can change the PIN Number.')).toBeInTheDocument();
    const designation = within(dialog).getByRole('textbox', { name: 'Designation/Branch' });
    await user.clear(designation);
    await user.type(designation, 'M.Tech CSE');
    await user.type(within(dialog).getByRole('textbox', { name: 'LinkedIn URL' }), 'https://www.linkedin.com/in/deepika');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your profile has been saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit my profile' })).not.toBeInTheDocument());
    expect(await within(list).findByText('M.Tech CSE')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: /LinkedIn/ })).toHaveAttribute('href', 'https://www.linkedin.com/in/deepika');

    await user.click(within(list).getByRole('button', { name: 'Delete my profile' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete my profile' });
    expect(confirm).toHaveTextContent('Delete your profile (PIN 22W1)? Your attendance records are kept.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Your profile has been deleted.')).toBeInTheDocument();
    expect(await within(list).findByText('You have not registered a profile yet.')).toBeInTheDocument();
  });

  it('offers a student without an approved profile to register theirs, and never shows a stranger’s pending one', async () => {
    await server.signIn(NEWCOMER, 'student');
    const user = userEvent.setup();
    const { router } = renderWelcome();
    const list = await screen.findByRole('region', { name: 'My Profile' });
    expect(await within(list).findByText('You have not registered a profile yet.')).toBeInTheDocument();
    expect(screen.queryByText('Not The Newcomer')).not.toBeInTheDocument();
    // The list may answer before who is signed in does (no page guard here): the link's words wait for it.
    await user.click(await within(list).findByRole('link', { name: 'Register my profile' }));
    expect(router.state.location.pathname).toBe('/register');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { students } from '../../../server/db/schema';
import { seedRegister } from '../../../server/test/registers';
import { StudentSearchPage } from '../../features/students/pages/student-search-page';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';

const PIN = '22B81A0701';
const ADMIN_EMAIL = 'erase-admin@uni.edu';
const FACULTY_EMAIL = 'erase-faculty@uni.edu';

const server = startTestServer({
  jarPerTest: true,
  seed: async ({ signIn, database }) => {
    await signIn('student', { email: 'erase-student@uni.edu', pin: PIN, className: 'CSE4' });
    await signIn('admin', { email: ADMIN_EMAIL });
    await signIn('faculty', { email: FACULTY_EMAIL });
    await seedRegister(database, { className: 'CSE4', date: '2026-03-02' }, [{ pin: PIN, name: 'Nandini Pillai', present: true }]);
  },
});

const renderRecord = () => renderRoutes([{ path: '/faculty', element: <StudentSearchPage /> }], `/faculty?pin=${PIN}`);

describe('erasing a student from their record', () => {
  it('is not offered to faculty', async () => {
    await server.signIn(FACULTY_EMAIL, 'faculty');
    renderRecord();
    expect(await screen.findByRole('button', { name: 'Export to PDF' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Erase personal data' })).not.toBeInTheDocument();
  });

  it('says what goes, erases only once the PIN is typed, and then the PIN is gone', async () => {
    const user = userEvent.setup();
    await server.signIn(ADMIN_EMAIL, 'admin');
    renderRecord();
    await user.click(await screen.findByRole('button', { name: 'Erase personal data' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/account and every signed-in browser/)).toBeInTheDocument();
    expect(within(dialog).getByText(/profile and photo/)).toBeInTheDocument();
    expect(within(dialog).getByText(/correction requests and the contact messages/)).toBeInTheDocument();
    const erase = within(dialog).getByRole('button', { name: 'Erase' });
    expect(erase).toBeDisabled();

    const input = within(dialog).getByRole('textbox', { name: `Type the PIN ${PIN} to confirm` });
    await user.type(input, '22B81A0702');
    expect(erase).toBeDisabled();
    await user.clear(input);
    await user.type(input, PIN.toLowerCase());
    expect(erase).toBeEnabled();
    await user.click(erase);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/personal data is erased\. Their marks stay as ERASED-[0-9A-F]{8}\./)).toBeInTheDocument();
    expect(await server.ctx.database.db.select().from(students).where(eq(students.pin, PIN))).toEqual([]);
  });
});

import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { seedRegister } from '../../../server/test/registers';
import { renderRoutes } from '../../test/render';
import { startSignedInApp } from '../../test/server';
import { StudentSearchPage } from '../../features/students/pages/student-search-page';
import { FETCH_ERROR_MESSAGE } from './student-search';

// The record's own chunk cannot be loaded: the connection dropped, or a newer release replaced it.
vi.mock('./student-record-view', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const PIN = '22B81A0511';

startSignedInApp('faculty', {
  email: 'chunk-faculty@uni.edu',
  seed: ({ database }) => seedRegister(database, { className: 'CSE4', date: '2026-03-02' }, [{ pin: PIN, name: 'Meera Nair', present: true }]),
});

describe('a student record whose code cannot be loaded', () => {
  it('says so in the search, with Try Again, and the page stays', async () => {
    // React reports the error the section caught.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderRoutes([{ path: '/faculty', element: <StudentSearchPage /> }], `/faculty?pin=${PIN}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(FETCH_ERROR_MESSAGE);
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    // The search itself is still there to use.
    expect(screen.getByRole('search', { name: 'Student search' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'PIN Number' })).toHaveValue(PIN);
    expect(reported).toHaveBeenCalled();
    reported.mockRestore();
  });
});

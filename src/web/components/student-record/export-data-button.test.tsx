import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PersonalDataSchema } from '../../../shared/schemas/personal-data';
import { seedRegister } from '../../../server/test/registers';
import { StudentSearchPage } from '../../features/students/pages/student-search-page';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';

const PIN = '22B81A0601';
const STUDENT_EMAIL = 'data-student@uni.edu';
const ADMIN_EMAIL = 'data-admin@uni.edu';
const FACULTY_EMAIL = 'data-faculty@uni.edu';

const server = startTestServer({
  jarPerTest: true,
  seed: async ({ signIn, database }) => {
    await signIn('student', { email: STUDENT_EMAIL, pin: PIN, className: 'CSE4' });
    await signIn('admin', { email: ADMIN_EMAIL });
    await signIn('faculty', { email: FACULTY_EMAIL });
    await seedRegister(database, { className: 'CSE4', date: '2026-03-02' }, [{ pin: PIN, name: 'Kavya Iyer', present: true }]);
  },
});

const saved: { download: string; blob: Blob }[] = [];
beforeAll(() => {
  // jsdom has no object URLs: each one made stands for its blob, and a click on the link is the download.
  const blobs = new Map<string, Blob>();
  Object.defineProperty(URL, 'createObjectURL', {
    value: (blob: Blob) => {
      const url = `blob:${blobs.size}`;
      blobs.set(url, blob);
      return url;
    },
    configurable: true,
  });
  Object.defineProperty(URL, 'revokeObjectURL', { value: () => undefined, configurable: true });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ download: this.download, blob: blobs.get(this.getAttribute('href') ?? '')! });
  });
});
afterEach(() => {
  saved.length = 0;
});

function renderRecord() {
  return renderRoutes([{ path: '/faculty', element: <StudentSearchPage /> }], `/faculty?pin=${PIN}`);
}

async function downloadedData() {
  await waitFor(() => expect(saved).toHaveLength(1));
  expect(saved[0]!.download).toBe(`personal-data-${PIN}.json`);
  return PersonalDataSchema.parse(JSON.parse(await saved[0]!.blob.text()));
}

describe('downloading a student\'s data', () => {
  it('gives a student their own data from their record', async () => {
    await server.signIn(STUDENT_EMAIL, 'student');
    renderRecord();
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    const data = await downloadedData();
    expect(data.account?.email).toBe(STUDENT_EMAIL);
    expect(data.marks).toHaveLength(1);
  });

  it('gives an admin the data of the student on screen', async () => {
    await server.signIn(ADMIN_EMAIL, 'admin');
    renderRecord();
    await userEvent.click(await screen.findByRole('button', { name: 'Download all data' }));
    expect((await downloadedData()).roster?.pin).toBe(PIN);
  });

  it('is not offered to faculty', async () => {
    await server.signIn(FACULTY_EMAIL, 'faculty');
    renderRecord();
    expect(await screen.findByRole('button', { name: 'Export to PDF' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download (my|all) data/ })).not.toBeInTheDocument();
  });
});

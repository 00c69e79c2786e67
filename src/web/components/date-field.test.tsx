import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppMessages, showLanguage } from '../i18n/i18n';
import { formatDate } from '../lib/calendar-date';
import { renderWithProviders } from '../test/render';
import { DateField } from './date-field';

// The app's messages, as the app loads them with its code; Telugu's read before the test (compiled on import, slow on a busy machine).
beforeAll(async () => {
  await Promise.all([loadAppMessages(), import('../i18n/catalogs/te'), import('../locales/te/start.po')]);
}, 120_000);
afterAll(() => showLanguage('en'));

describe('the date field', () => {
  it('writes its date and draws its calendar in the language shown', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DateField label="Day" defaultValue="2026-11-24" />);
    const field = screen.getByRole('button', { name: 'Day' });
    expect(field).toHaveTextContent(formatDate('2026-11-24'));
    await user.click(field);
    expect(await screen.findByText('November 2026')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await act(() => showLanguage('te'));
    expect(field).toHaveTextContent(formatDate('2026-11-24'));
    expect(field).toHaveTextContent(/[\u0C00-\u0C7F]/);
    await user.click(field);
    // The calendar's month and weekdays come in Telugu once its words have loaded.
    await waitFor(() => expect(screen.getByText('నవంబర్ 2026')).toBeInTheDocument());
  }, 60_000);

  it('says "Pick a date" until a date is picked, in the language shown', async () => {
    await act(() => showLanguage('en'));
    const { unmount } = renderWithProviders(<DateField label="From" />);
    expect(screen.getByRole('button', { name: 'From' })).toHaveTextContent('Pick a date');
    unmount();
    await act(() => showLanguage('te'));
    renderWithProviders(<DateField label="From" />);
    expect(screen.getByRole('button', { name: 'From' })).toHaveTextContent('తేదీని ఎంచుకోండి');
  });
});

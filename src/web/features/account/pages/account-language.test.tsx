import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUserResponseSchema } from '../../../../shared/schemas/auth';
import { routes } from '../../../app/router';
import { loadAppMessages, showLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/calendar-date';
import { renderRoutes } from '../../../test/render';
import { startSignedInApp } from '../../../test/server';

startSignedInApp('faculty', { email: 'language-faculty@uni.edu' });

// The app's messages, as the app loads them with its code; Hindi's read before the test (compiled on import, slow on a busy machine).
beforeAll(async () => {
  await Promise.all([loadAppMessages(), import('../../../i18n/catalogs/hi'), import('../../../locales/hi/start.po')]);
}, 120_000);
afterAll(() => showLanguage('en'));

const storedLanguage = async () => CurrentUserResponseSchema.parse(await (await fetch('/api/auth/me')).json()).user?.language;

describe('/account, Language', () => {
  it('offers the language in the menu and on the page; the one chosen shows at once, in words and dates, and is kept on the account', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/account');
    const section = await screen.findByRole('region', { name: 'Language' }, { timeout: 10_000 });
    const picker = within(section).getByRole('combobox', { name: "The portal's language" });
    expect(picker).toHaveValue('en');
    expect(within(section).getByText('The portal and its e-mails to you use it, on every device you sign in on.')).toBeInTheDocument();
    const englishDate = formatDate('2026-11-24');

    // The phone's menu has the picker too, named.
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Attendance' });
    expect(within(menu).getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Attendance' })).not.toBeInTheDocument());

    await user.selectOptions(picker, 'hi');
    expect(await screen.findByRole('heading', { level: 1, name: 'मेरा खाता' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'अलर्ट ईमेल' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('hi');
    await waitFor(async () => expect(await storedLanguage()).toBe('hi'));
    // Dates follow: Hindi's month names, with Latin digits.
    const hindiDate = formatDate('2026-11-24');
    expect(hindiDate).not.toBe(englishDate);
    expect(hindiDate).toMatch(/[\u0900-\u097F]/);
    expect(hindiDate).toContain('2026');

    await user.selectOptions(screen.getByRole('combobox', { name: 'पोर्टल की भाषा' }), 'en');
    expect(await screen.findByRole('heading', { level: 1, name: 'My account' })).toBeInTheDocument();
    await waitFor(async () => expect(await storedLanguage()).toBe('en'));
    expect(formatDate('2026-11-24')).toBe(englishDate);
  }, 60_000);
});

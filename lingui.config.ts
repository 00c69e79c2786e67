import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * The web app's messages: English (the source), Hindi and Telugu, in gettext PO files under
 * src/web/locales/<language>/ (docs/i18n.md). `npm run i18n:extract` collects them from the code.
 * The build compiles them (vite.config.ts) and fails on a missing or broken translation.
 *
 * One catalog for what the sign-in page needs before it shows (loaded with it), and one per part
 * of the app (loaded with the app's code, all at once): each part can be translated on its own.
 */
const START = [
  'src/web/main.tsx',
  'src/web/app/open-app.tsx',
  'src/web/app/sign-in-shell.tsx',
  'src/web/app/skip-link.tsx',
  'src/web/components/load-states.tsx',
  'src/web/components/page-loader.tsx',
  'src/web/components/forms.tsx',
  'src/web/components/notice-footer-links.tsx',
  'src/web/features/auth/pages/login-page.tsx',
  'src/web/features/auth/components/login-form.tsx',
  'src/web/features/auth/components/single-sign-on.tsx',
  'src/web/features/auth/components/totp-step.tsx',
  'src/web/i18n/language-switcher.tsx',
  'src/web/i18n/start-messages.ts',
  'src/web/lib/http.ts',
];

/** The app's parts: each a catalog of its own, from these folders, leaving out what START holds. */
const PARTS: Record<string, string[]> = {
  admin: ['src/web/features/admin'],
  register: ['src/web/features/attendance', 'src/web/features/checkins'],
  records: ['src/web/features/reports', 'src/web/features/students', 'src/web/components/student-record', 'src/web/features/corrections'],
  account: ['src/web/features/account', 'src/web/features/auth', 'src/web/features/contact', 'src/web/features/notices', 'src/web/features/notifications'],
  frame: ['src/web/app', 'src/web/components', 'src/web/lib', 'src/web/i18n'],
  // What the server says in English (refusals, fields' problems), by its English text (server-text.ts).
  server: ['src/web/i18n/server-messages.ts', 'src/web/i18n/server-templates.ts'],
};

/** Files inside a part's folders that another part holds. */
const OWNED_ELSEWHERE: Record<string, string[]> = {
  frame: ['src/web/components/student-record/**', 'src/web/i18n/server-messages.ts', 'src/web/i18n/server-templates.ts'],
  account: [],
  admin: [],
  register: [],
  records: [],
};

export const LOCALES = ['en', 'hi', 'te'] as const;

export default defineConfig({
  sourceLocale: 'en',
  locales: [...LOCALES],
  catalogs: [
    { path: '<rootDir>/src/web/locales/{locale}/start', include: START },
    ...Object.entries(PARTS).map(([name, include]) => ({
      path: `<rootDir>/src/web/locales/{locale}/${name}`,
      include,
      exclude: [...START, ...(OWNED_ELSEWHERE[name] ?? []), '**/*.test.ts', '**/*.test.tsx'],
    })),
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});

import { getConfig } from '@lingui/conf';
import { createCompiledCatalog, getCatalogs } from '@lingui/cli/api';
import { parse, type Token } from '@messageformat/parser';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/languages';
import { EMAIL_MESSAGE, OIDC_ERROR_MESSAGES, PASSWORD_MESSAGE, PASSWORD_TOO_LONG_MESSAGE } from '../../shared/sign-in-rules';
import { INVALID_TOTP_MESSAGE, PENDING_SIGN_IN_MESSAGE, TOTP_CODE_MESSAGE } from '../../shared/schemas/auth';
import { CONTRACT_MISMATCH_MESSAGE, UNREACHABLE_MESSAGE } from '../lib/http';
import { ClassNameSchema } from '../../shared/schemas/classes';
import { ContactFormSchema } from '../../shared/schemas/contact';
import { CreateCorrectionSchema, DeclineCorrectionSchema } from '../../shared/schemas/corrections';
import { RegistrationRequestSchema } from '../../shared/schemas/profiles';
import { SaveAttendanceRequestSchema } from '../../shared/schemas/attendance';
import { StudentRecordQuerySchema } from '../../shared/schemas/students';
import { TermNameSchema } from '../../shared/schemas/terms';
import { PutTimetableSchema, SlotInputSchema } from '../../shared/schemas/timetable';
import { SERVER_MESSAGES } from './server-messages';
import { SERVER_TEMPLATES } from './server-templates';
import { serverText } from './server-text';
import { i18n } from './i18n';
import { START_SERVER_MESSAGES } from './start-messages';

const config = getConfig({ cwd: process.cwd() });

/** The names of a message's arguments ({name}, {n, plural, ...}), at any depth. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
      if (token.type === 'plural' || token.type === 'select') {
        names.add(token.arg);
        for (const option of token.cases) visit(option.tokens);
      }
    }
  };
  visit(parse(message, { strict: false }));
  return [...names].sort();
}

describe('the messages', async () => {
  const catalogs = await getCatalogs(config);

  it('are the code\'s: every catalog holds exactly the messages its part of the code has (npm run i18n:extract)', async () => {
    for (const catalog of catalogs) {
      const inCode = Object.keys((await catalog.collect()) ?? {}).sort();
      const inCatalog = Object.entries(await catalog.read('en'))
        .filter(([, entry]) => !entry.obsolete)
        .map(([id]) => id)
        .sort();
      expect(inCatalog, `${catalog.path}: run npm run i18n:extract`).toEqual(inCode);
    }
  }, 120_000);

  it.each(LANGUAGES)('exist in %s, compile, and keep every argument of the English', async (language) => {
    for (const catalog of catalogs) {
      const { missing, messages } = await catalog.getTranslations(language, { sourceLocale: config.sourceLocale ?? 'en', fallbackLocales: {} });
      expect(missing.map((entry) => entry.id), `${catalog.path} in ${language}: messages without a translation`).toEqual([]);
      const { errors } = createCompiledCatalog(language, messages, { namespace: 'es' });
      expect(errors.map((error) => `${error.id}: ${String(error.error)}`), `${catalog.path} in ${language}`).toEqual([]);
      const english = await catalog.read('en');
      const translated = await catalog.read(language);
      for (const [id, entry] of Object.entries(english)) {
        if (entry.obsolete) continue;
        const source = entry.message ?? id;
        const translation = translated[id]?.translation || source;
        expect(argumentsOf(translation), `${catalog.path} in ${language}: "${source}"`).toEqual(argumentsOf(source));
      }
    }
  });

  it('translate the server\'s and the rules\' words that the sign-in page shows', () => {
    const declared = new Set(START_SERVER_MESSAGES.map((message) => message.id));
    const shown = [
      EMAIL_MESSAGE,
      PASSWORD_MESSAGE,
      PASSWORD_TOO_LONG_MESSAGE,
      ...Object.values(OIDC_ERROR_MESSAGES),
      INVALID_TOTP_MESSAGE,
      PENDING_SIGN_IN_MESSAGE,
      TOTP_CODE_MESSAGE,
      UNREACHABLE_MESSAGE,
      CONTRACT_MISMATCH_MESSAGE,
    ];
    expect(shown.filter((text) => !declared.has(text))).toEqual([]);
  });
});

describe("the server's and the shared rules' words", () => {
  const declared = new Set([...START_SERVER_MESSAGES, ...SERVER_MESSAGES].map((message) => message.id));

  it('are declared once, each under its English text', () => {
    const ids = [...START_SERVER_MESSAGES, ...SERVER_MESSAGES].map((message) => message.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const message of SERVER_MESSAGES) expect(message.message).toBe(message.id);
  });

  it('translate every message constant of the shared rules (src/shared: each *_MESSAGE, *_MESSAGES)', () => {
    const modules = import.meta.glob<Record<string, unknown>>(['../../shared/**/*.ts', '!../../shared/**/*.test.ts'], { eager: true });
    const constants: string[] = [];
    for (const [file, exports] of Object.entries(modules)) {
      for (const [name, value] of Object.entries(exports)) {
        if (!/_MESSAGES?$/.test(name)) continue;
        const texts = typeof value === 'string' ? [value] : Object.values(value as Record<string, string>);
        constants.push(...texts.map((text) => `${file} ${name}: ${text}`));
        expect(texts.length, `${file} ${name}`).toBeGreaterThan(0);
      }
    }
    expect(constants.length).toBeGreaterThan(40);
    expect(constants.filter((entry) => !declared.has(entry.slice(entry.indexOf(': ') + 2)))).toEqual([]);
  });

  it("translate the shared rules' messages built from their limits, as the rules write them", () => {
    const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];
    const long = (n: number) => 'x'.repeat(n + 1);
    const link = { imageUrl: 1, linkedin: 1, github: 1, leetcode: 1, resume: 1, portfolio: 1 };
    const written = [
      ...messagesOf(ContactFormSchema.safeParse({ name: '', email: '', subject: '', message: '' })),
      ...messagesOf(ContactFormSchema.safeParse({ name: long(200), email: `${long(250)}@x.in`, phone: long(40), subject: long(200), message: long(5000) })),
      ...messagesOf(RegistrationRequestSchema.safeParse({ name: long(200), designation: long(200), pin: 'A1', imageAlt: long(300), ...link })),
      ...messagesOf(RegistrationRequestSchema.safeParse({ name: 'A', designation: 'B', pin: 'A1', ...Object.fromEntries(Object.keys(link).map((key) => [key, `https://${long(2048)}`])) })),
      ...messagesOf(RegistrationRequestSchema.safeParse({ name: 'A', designation: 'B', pin: 'A1', ...Object.fromEntries(Object.keys(link).map((key) => [key, 'ftp://x'])) })),
      ...messagesOf(CreateCorrectionSchema.safeParse({ date: '2026-01-05', reason: '' })),
      ...messagesOf(CreateCorrectionSchema.safeParse({ date: '2026-01-05', reason: long(500) })),
      ...messagesOf(DeclineCorrectionSchema.safeParse({ reply: '' })),
      ...messagesOf(DeclineCorrectionSchema.safeParse({ reply: long(500) })),
      ...messagesOf(ClassNameSchema.safeParse(long(32))),
      ...messagesOf(TermNameSchema.safeParse(long(100))),
      ...messagesOf(StudentRecordQuerySchema.safeParse({ limit: '0' })),
      ...messagesOf(SlotInputSchema.safeParse({ weekday: 1, period: 13, subject: 'DS' })),
      ...messagesOf(PutTimetableSchema.safeParse({ slots: Array.from({ length: 85 }, (_, i) => ({ weekday: 1 + (i % 7), period: 1 + (i % 12), subject: 'DS' })) })),
      ...messagesOf(SaveAttendanceRequestSchema.safeParse({ records: Array.from({ length: 2001 }, (_, i) => ({ pin: `P${i}`, status: 'present' })) })),
    ];
    const expected = [
      'Full Name is required',
      'Email has at most 254 characters',
      'Phone Number has at most 40 characters',
      'Message has at most 5000 characters',
      'Designation/Branch has at most 200 characters',
      'Image Description has at most 300 characters',
      'LeetCode URL must be text',
      'Portfolio Link has at most 2048 characters',
      'Profile Image URL must be a link starting with http:// or https://',
      'A reason is required',
      'A reply has at most 500 characters',
      'A class name has at most 32 characters',
      "A term's name has at most 100 characters",
      'limit must be a whole number from 1 to 500',
      'period is 1 to 12',
      'A week has at most 84 slots',
      'A register holds at most 2000 students',
    ];
    for (const text of expected) expect(written, text).toContain(text);
    expect(written.filter((text) => !declared.has(text))).toEqual([]);
  });
});

describe("the server's words built with values", () => {
  it('are each written by the server or the shared rules, value for value (a template literal whose words match)', () => {
    const sources = Object.values(
      import.meta.glob<string>(['../../server/**/*.ts', '../../shared/**/*.ts', '!../../**/*.test.ts', '!../../server/test/**'], { eager: true, query: '?raw', import: 'default' }),
    ).join('\n');
    for (const { id } of SERVER_TEMPLATES) {
      // Each {value} of the template is a ${…} of the server's template literal.
      const source = id
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'))
        .join('\\$\\{[^`{}]+\\}');
      expect(new RegExp(`\`${source}\``).test(sources), id).toBe(true);
    }
  });

  it('are shown in the language shown with their values, and as they came before its messages load', async () => {
    const { messages } = await import('./catalogs/te');
    const before = 'PIN 23A51A05301 is not on the CSE-A roster';
    i18n.activate('te');
    try {
      expect(serverText(before)).toBe(before);
      i18n.load('te', messages);
      expect(serverText(before)).toBe('PIN 23A51A05301 CSE-A విద్యార్థుల జాబితాలో లేదు');
      expect(serverText('These dates overlap Autumn 2026 (2026-07-01 to 2026-11-30): terms cannot overlap')).toBe(
        'ఈ తేదీలు Autumn 2026 (2026-07-01 నుండి 2026-11-30)తో కలుస్తున్నాయి: టర్మ్‌లు ఒకదానితో ఒకటి కలవకూడదు',
      );
      // A term's name that holds the template's own words is read whole: the dates come after it.
      expect(serverText('These dates overlap Sem 1 (2026 to 2027) (2026-07-01 to 2026-11-30): terms cannot overlap')).toBe(
        'ఈ తేదీలు Sem 1 (2026 to 2027) (2026-07-01 నుండి 2026-11-30)తో కలుస్తున్నాయి: టర్మ్‌లు ఒకదానితో ఒకటి కలవకూడదు',
      );
      // The more particular template first: no English "and 3 more" left inside.
      expect(serverText('PINs A1, A2 and 3 more are not on the CSE-A roster')).toBe('PINలు A1, A2 మరియు మరో 3 CSE-A విద్యార్థుల జాబితాలో లేవు');
      expect(serverText('Something the server never says 42')).toBe('Something the server never says 42');
    } finally {
      i18n.activate('en');
    }
  });
});

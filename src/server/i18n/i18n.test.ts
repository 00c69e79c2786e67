import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/languages';
import { noticeText, type NoticeContent } from '../modules/alerts/notices';
import { en, type MessageId } from './en';
import { languageOfHeader, readerLanguage, MESSAGES, translator } from './index';

/** The names of a compiled message's arguments, at any depth of its plurals and selects. */
function argumentsOf(tokens: CompiledMessage, names = new Set<string>()): string[] {
  for (const token of tokens) {
    if (typeof token === 'string') continue;
    const [name, , format] = token;
    names.add(name);
    if (format && typeof format === 'object') for (const choice of Object.values(format)) if (Array.isArray(choice)) argumentsOf(choice as CompiledMessage, names);
  }
  return [...names].sort();
}

const ids = Object.keys(en) as MessageId[];

describe("the server's messages", () => {
  it.each(LANGUAGES)('exist in %s, compile, and keep every argument of the English', (language) => {
    const messages = MESSAGES[language];
    expect(Object.keys(messages).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const text = messages[id];
      expect(text.trim(), `${language} ${id}`).not.toBe('');
      expect(argumentsOf(compileMessageOrThrow(text)), `${language} ${id}: ${text}`).toEqual(argumentsOf(compileMessageOrThrow(en[id])));
    }
  });

  it.each(LANGUAGES)('fill every argument in %s, leaving no brace behind', (language) => {
    const tr = translator(language);
    for (const id of ids) {
      const values = Object.fromEntries(argumentsOf(compileMessageOrThrow(en[id])).map((name) => [name, 7]));
      const text = tr.t(id, values);
      expect(text, `${language} ${id}`).not.toMatch(/[{}]/);
      if (Object.keys(values).length > 0) expect(text, `${language} ${id}`).toContain('7');
    }
  });

  it('write numbers with Latin digits and Indian grouping, and choose plural forms by the language', () => {
    expect(translator('hi').number(1234567.891, 1)).toBe('12,34,567.9');
    expect(translator('te').number(40, 1)).toBe('40.0');
    expect(translator('te').t('digest.subject', { count: 1 })).toBe('హాజరు అలర్ట్‌లు: 1 కొత్తది');
    expect(translator('te').t('digest.subject', { count: 123456 })).toBe('హాజరు అలర్ట్‌లు: 1,23,456 కొత్తవి');
    expect(translator('hi').t('digest.subject', { count: 2 })).toBe('उपस्थिति अलर्ट: 2 नए');
    // English is written as it always was.
    expect(translator(null).t('digest.subject', { count: 1 })).toBe('Attendance alerts: 1 new');
    expect(translator('en').t('setPassword.expiry', { hours: 72 })).toBe('The link works once, for 72 hours. If you did not expect it, ignore this e-mail.');
  });

  it('write dates and lists as each language does; English keeps its dates as they are', () => {
    const dates = ['2026-10-01', '2026-10-02', '2026-10-05'];
    const write = (language: 'en' | 'hi' | 'te') => {
      const tr = translator(language);
      return tr.list(dates.map((date) => tr.date(date)));
    };
    expect(write('en')).toBe('2026-10-01, 2026-10-02 and 2026-10-05');
    expect(write('hi')).toMatch(/^1 \S+ 2026, 2 \S+ 2026,? और 5 \S+ 2026$/);
    expect(write('te')).toMatch(/^1 \S+ 2026, 2 \S+ 2026 మరియు 5 \S+ 2026$/);
  });

  it("reads the reader's language: the account's choice, else the first of the browser's the portal has, by weight", () => {
    expect(languageOfHeader(undefined)).toBe('en');
    expect(languageOfHeader('te-IN,te;q=0.9,en;q=0.8')).toBe('te');
    expect(languageOfHeader('fr-FR, te;q=0.5, hi;q=0.7')).toBe('hi');
    expect(languageOfHeader('hi;q=0, en')).toBe('en');
    expect(languageOfHeader('*')).toBe('en');
    expect(readerLanguage({ language: 'hi' }, 'te')).toBe('hi');
    expect(readerLanguage({}, 'te')).toBe('te');
    expect(readerLanguage(null, undefined)).toBe('en');
  });
});

describe("the notices' texts", () => {
  const notices: NoticeContent[] = [
    { kind: 'below-threshold', params: { threshold: 75, percent: 40, attended: 2, held: 5, subject: null, absences: ['2026-10-01'] } },
    { kind: 'below-threshold', params: { threshold: 75, percent: 62.5, attended: 5, held: 8, subject: 'Data Structures', absences: [] } },
    { kind: 'consecutive-absences', params: { count: 3, subject: null, dates: ['2026-10-01', '2026-10-02', '2026-10-05'] } },
    { kind: 'consecutive-absences', params: { count: 3, subject: 'Data Structures', dates: ['2026-10-01', '2026-10-02', '2026-10-05'] } },
    { kind: 'register-missing', params: { className: 'CSE3', period: 2, subject: 'Data Structures', startsAt: '09:50', endsAt: '10:40', date: '2026-10-05' } },
  ];

  it('are in English as they always were', () => {
    const english = translator('en');
    expect(notices.map((notice) => noticeText(english, notice))).toEqual([
      { title: 'Attendance below 75%', body: 'Your attendance this term is 40.0%: 2 of 5 lectures attended, below the 75% required. Absent on 2026-10-01.' },
      { title: 'Attendance below 75% in Data Structures', body: 'Your attendance in Data Structures this term is 62.5%: 5 of 8 lectures attended, below the 75% required.' },
      {
        title: 'Absent 3 times in a row',
        body: 'You were marked absent on 2026-10-01, 2026-10-02 and 2026-10-05. If a mark is wrong, ask for a correction from your record.',
      },
      {
        title: 'Absent 3 times in a row in Data Structures',
        body: 'You were marked absent in Data Structures on 2026-10-01, 2026-10-02 and 2026-10-05. If a mark is wrong, ask for a correction from your record.',
      },
      { title: 'Register not taken: CSE3, period 2', body: 'The Data Structures lecture of CSE3 (period 2, 09:50-10:40 on 2026-10-05) has no register yet.' },
    ]);
  });

  it.each(['hi', 'te'] as const)('are whole in %s, with the values they were given', (language) => {
    const tr = translator(language);
    for (const notice of notices) {
      const { title, body } = noticeText(tr, notice);
      for (const text of [title, body]) {
        expect(text).not.toMatch(/[{}]/);
        expect(text).not.toMatch(/\b(the|of|on|in|below|lecture|register|absent)\b/i);
      }
      if ('subject' in notice.params && notice.params.subject) expect(`${title} ${body}`).toContain(notice.params.subject);
    }
  });
});

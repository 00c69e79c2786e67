/**
 * The server's words in a person's language (docs/i18n.md): e-mails, the notices in the portal's
 * bell and the pages an e-mail's links open. Messages are ICU MessageFormat strings (en.ts, the
 * source, with hi.ts and te.ts), compiled once per language on first use and formatted by Lingui's
 * runtime, as the web app's are: plurals by the language's rules, numbers with Latin digits and
 * Indian grouping (INTL_LOCALES).
 */
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { DEFAULT_LANGUAGE, INTL_LOCALES, languageOf, type Language } from '../../shared/languages';
import { en, type MessageId } from './en';
import { hi } from './hi';
import { te } from './te';

export type { MessageId } from './en';

/** Every language's messages, by id. */
export const MESSAGES: Record<Language, Record<MessageId, string>> = { en, hi, te };

/** A message's arguments: text as it is, numbers written in the language. */
export type MessageValues = Record<string, string | number>;

export interface Translator {
  readonly language: Language;
  /** The message in the language, its arguments filled in. */
  t(id: MessageId, values?: MessageValues): string;
  /** A number as the language writes it, with exactly `fractionDigits` decimals when given. */
  number(value: number, fractionDigits?: number): string;
  /** A calendar date (YYYY-MM-DD): as it is in English, '5 अक्टू॰ 2026' in the others (the month's short name). */
  date(isoDate: string): string;
  /** Items joined as the language lists them: 'a, b and c'. */
  list(items: readonly string[]): string;
}

/** The arguments that choose a plural form: those stay numbers, so that the language's rules pick the form. */
function pluralArguments(tokens: CompiledMessage, names = new Set<string>()): Set<string> {
  for (const token of tokens) {
    if (typeof token === 'string') continue;
    const [name, type, format] = token;
    if (type === 'plural' || type === 'selectordinal') names.add(name);
    if ((type === 'plural' || type === 'selectordinal' || type === 'select') && format && typeof format === 'object') {
      for (const [key, choice] of Object.entries(format)) if (key !== 'offset' && Array.isArray(choice)) pluralArguments(choice as CompiledMessage, names);
    }
  }
  return names;
}

interface Compiled {
  i18n: I18n;
  plurals: Map<MessageId, Set<string>>;
}

const compiled = new Map<Language, Compiled>();

/** The language's messages compiled (once): a message that does not compile throws here, and in the tests. */
function compiledIn(language: Language): Compiled {
  let done = compiled.get(language);
  if (!done) {
    const messages: Record<string, CompiledMessage> = {};
    const plurals = new Map<MessageId, Set<string>>();
    for (const [id, text] of Object.entries(MESSAGES[language]) as [MessageId, string][]) {
      messages[id] = compileMessageOrThrow(text);
      plurals.set(id, pluralArguments(messages[id]));
    }
    done = { i18n: setupI18n({ locale: language, locales: INTL_LOCALES[language], messages: { [language]: messages } }), plurals };
    compiled.set(language, done);
  }
  return done;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: Language, fractionDigits: number | undefined): Intl.NumberFormat {
  const key = `${language}/${fractionDigits ?? ''}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      INTL_LOCALES[language],
      fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits },
    );
    numberFormats.set(key, format);
  }
  return format;
}

/** Speaks `language`; an account without a choice (null) gets English. */
export function translator(language: Language | null | undefined): Translator {
  const lang = language ?? DEFAULT_LANGUAGE;
  const { i18n, plurals } = compiledIn(lang);
  const dates = new Intl.DateTimeFormat(INTL_LOCALES[lang], { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const lists = new Intl.ListFormat(INTL_LOCALES[lang], { type: 'conjunction' });
  const number = (value: number, fractionDigits?: number) => numberFormat(lang, fractionDigits).format(value);
  return {
    language: lang,
    t(id, values = {}) {
      const plural = plurals.get(id);
      const written: MessageValues = {};
      for (const [name, value] of Object.entries(values)) written[name] = typeof value === 'number' && !plural?.has(name) ? number(value) : value;
      return i18n._(id, written);
    },
    number,
    date(isoDate) {
      if (lang === 'en') return isoDate;
      // Day, month's name and year, without the comma some languages put after the day, which
      // would read as a separator in a list of dates.
      const parts = dates.formatToParts(new Date(`${isoDate}T00:00:00Z`));
      const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
      return `${part('day')} ${part('month')} ${part('year')}`;
    },
    list: (items) => lists.format(items),
  };
}

/**
 * The language an Accept-Language header asks for first among the portal's (by its q-values),
 * else English: the language of a page or answer for someone whose account has not chosen one.
 */
export function languageOfHeader(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const tags = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
  return languageOf(tags);
}

/** The language for a reader: the account's choice, else what their browser asks for. */
export function readerLanguage(account: { language?: Language | null | undefined } | null | undefined, acceptLanguage: string | undefined): Language {
  return account?.language ?? languageOfHeader(acceptLanguage);
}

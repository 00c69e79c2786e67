import { i18n, type Messages } from '@lingui/core';
import { DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage, languageOf, type Language } from '../../shared/languages';
import { messages as englishStart } from '../locales/en/start.po';

/**
 * The language the portal speaks (docs/i18n.md): the account's choice once someone is signed in,
 * else the last choice made on this device, else the browser's languages, else English.
 *
 * Each language's messages come in two parts, each its own file: what the sign-in page needs
 * before it shows (English's is in the entry, so an English visitor waits for nothing), and the
 * rest of the app's, loaded with the app's code.
 */

type Catalog = Promise<{ messages: Messages }>;

const START: Record<Exclude<Language, 'en'>, () => Catalog> = {
  hi: () => import('../locales/hi/start.po'),
  te: () => import('../locales/te/start.po'),
};

const APP: Record<Language, () => Catalog> = {
  en: () => import('./catalogs/en'),
  hi: () => import('./catalogs/hi'),
  te: () => import('./catalogs/te'),
};

/** The device's last choice, kept where the sign-in page can read it before anyone signs in. */
const CHOICE_KEY = 'portal-language';

const loaded = new Set<string>(['en:start']);
let appWanted = false;

i18n.load('en', englishStart);
i18n.activate('en');

async function loadPart(language: Language, part: 'start' | 'app'): Promise<void> {
  const key = `${language}:${part}`;
  if (loaded.has(key)) return;
  const { messages } = await (part === 'app' ? APP[language]() : START[language as Exclude<Language, 'en'>]());
  i18n.load(language, messages);
  loaded.add(key);
}

/** The language this device chose last, if any. */
export function savedLanguage(): Language | null {
  try {
    const saved = window.localStorage.getItem(CHOICE_KEY);
    return isLanguage(saved) ? saved : null;
  } catch {
    return null;
  }
}

/** The language to open in: the device's last choice, else the browser's languages. */
export function initialLanguage(): Language {
  return savedLanguage() ?? languageOf(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
}

/** The language shown now. */
export function currentLanguage(): Language {
  return isLanguage(i18n.locale) ? i18n.locale : DEFAULT_LANGUAGE;
}

/** The locale numbers are written in: the language's, with Indian grouping and Latin digits. */
export function numberLocale(): string {
  return INTL_LOCALES[currentLanguage()];
}

/** The locale dates are written in: in English the browser's own (its order of day and month); else the language's. */
export function dateLocale(): string | undefined {
  const language = currentLanguage();
  return language === 'en' ? undefined : INTL_LOCALES[language];
}

/**
 * Shows the portal in `language`: its messages are loaded first (the app's too, once the app is
 * wanted), then every text changes at once and `<html lang>` follows. `remember` keeps the
 * choice on this device for its next visit.
 */
export async function showLanguage(language: Language, { remember = false }: { remember?: boolean } = {}): Promise<void> {
  await Promise.all([loadPart(language, 'start'), appWanted ? loadPart(language, 'app') : undefined]);
  if (remember) {
    try {
      window.localStorage.setItem(CHOICE_KEY, language);
    } catch {
      // A browser that keeps nothing (private mode) asks again next time.
    }
  }
  if (i18n.locale !== language) i18n.activate(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/** The app's messages in the language shown (and in any language shown later): loaded beside the app's code. */
export function loadAppMessages(): Promise<void> {
  appWanted = true;
  return loadPart(currentLanguage(), 'app');
}

export { i18n };

/**
 * The languages of the portal: English (the source of every text), Hindi and Telugu. Plain data:
 * the sign-in page, the app and the server (its e-mails) read it.
 */
export const LANGUAGES = ['en', 'hi', 'te'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's name in itself, as a switcher shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी', te: 'తెలుగు' };

/**
 * The locale that numbers and dates are written in: Indian grouping (12,34,567) with Latin digits
 * in every language (Hindi's and Telugu's own digits are rarely used for figures at universities).
 */
export const INTL_LOCALES: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN-u-nu-latn', te: 'te-IN-u-nu-latn' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The first of the browser's languages (`navigator.languages`) that the portal has, else English. */
export function languageOf(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

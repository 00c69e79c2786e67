import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One language's translations, by their English text, from the catalogs the app is built from. */
function translations(language: string): Map<string, string> {
  const folder = path.join('src/web/locales', language);
  const found = new Map<string, string>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.po'))) {
    const text = readFileSync(path.join(folder, file), 'utf8');
    for (const match of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"$/gm)) {
      const unescape = (value: string) => value.replace(/\\(["\\n])/g, (_, char: string) => (char === 'n' ? '\n' : char));
      if (match[1] && match[2]) found.set(unescape(match[1]), unescape(match[2]));
    }
  }
  return found;
}

const cache = new Map<string, Map<string, string>>();

/**
 * What the page says in `language` for an English text of the app (a message's own English, with
 * `{name}` arguments filled from `values`): the journeys find the page's words as its readers
 * see them, from the catalogs the app was built from. A text without a translation fails.
 */
export function said(language: 'hi' | 'te', english: string, values: Record<string, string | number> = {}): string {
  let known = cache.get(language);
  if (!known) cache.set(language, (known = translations(language)));
  const translated = known.get(english);
  if (translated === undefined) throw new Error(`No ${language} translation of "${english}"`);
  return translated.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

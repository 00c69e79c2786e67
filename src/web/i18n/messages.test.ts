import { getConfig } from '@lingui/conf';
import { createCompiledCatalog, getCatalogs } from '@lingui/cli/api';
import { parse, type Token } from '@messageformat/parser';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/languages';
import { EMAIL_MESSAGE, OIDC_ERROR_MESSAGES, PASSWORD_MESSAGE, PASSWORD_TOO_LONG_MESSAGE } from '../../shared/sign-in-rules';
import { INVALID_TOTP_MESSAGE, PENDING_SIGN_IN_MESSAGE, TOTP_CODE_MESSAGE } from '../../shared/schemas/auth';
import { CONTRACT_MISMATCH_MESSAGE, UNREACHABLE_MESSAGE } from '../lib/http';
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

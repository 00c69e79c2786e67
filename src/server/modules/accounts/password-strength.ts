import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const COMMON_PASSWORD_MESSAGE = 'Choose a less common password';

/** zxcvbn's score runs from 0 (guessed at once) to 4; 3 and up resist an offline attack for long. */
const MIN_SCORE = 3;

let checker: Promise<ZxcvbnFactory> | undefined;

/**
 * Loaded on first use: the dictionaries take a second to load and most processes (a server
 * that only signs people in, a CLI command that lists accounts) never set a password.
 */
function getChecker(): Promise<ZxcvbnFactory> {
  checker ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([{ ZxcvbnFactory }, common, english]) =>
      new ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      }),
  );
  return checker;
}

/**
 * True when the password is hard to guess: not a common password, a keyboard run or a sequence
 * (`password1234`, `qwerty123456`, `1234567890` are refused), also given what the account is
 * known by (its e-mail and name).
 */
export async function isStrongPassword(password: string, userInputs: string[] = []): Promise<boolean> {
  return (await getChecker()).check(password, userInputs).score >= MIN_SCORE;
}

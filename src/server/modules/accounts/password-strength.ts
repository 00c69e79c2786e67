import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

export const COMMON_PASSWORD_MESSAGE = 'Choose a less common password';

/** zxcvbn's score runs from 0 (guessed at once) to 4; 3 and up resist an offline attack for long. */
const MIN_SCORE = 3;

let checker: ZxcvbnFactory | undefined;

/** Built on first use: the dictionaries take a moment to load and most processes never set a password. */
function getChecker(): ZxcvbnFactory {
  checker ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return checker;
}

/**
 * True when the password is hard to guess: not a common password, a keyboard run or a sequence
 * (`password1234`, `qwerty123456`, `1234567890` are refused), also given what the account is
 * known by (its e-mail and name).
 */
export function isStrongPassword(password: string, userInputs: string[] = []): boolean {
  return getChecker().check(password, userInputs).score >= MIN_SCORE;
}

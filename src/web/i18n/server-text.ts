import { i18n } from '@lingui/core';

/**
 * A text that came in English from the server or the shared rules (a refusal's message, a field's
 * problem), in the language shown: messages declared by their English text (start-messages.ts,
 * server-messages.ts) have translations under that text; any other comes as it was.
 */
export function serverText<T extends string | undefined>(text: T): T {
  return (text ? i18n._(text) : text) as T;
}

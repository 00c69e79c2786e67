import { i18n } from '@lingui/core';
import { SERVER_TEMPLATES } from './server-templates';

/**
 * What a value of these names can be, where the server writes it so: a date, a count. Any other
 * value takes the least text that lets the rest match, so a free text (a term's name) that holds a
 * template's words is still read whole where the words after it are dates.
 */
const VALUE_PATTERNS: Record<string, string> = {
  today: '\\d{4}-\\d{2}-\\d{2}',
  startsOn: '\\d{4}-\\d{2}-\\d{2}',
  endsOn: '\\d{4}-\\d{2}-\\d{2}',
  period: '\\d+',
  count: '\\d+',
};

/** A template's English text as a pattern that takes each value in braces, and the values' names. */
const TEMPLATES = SERVER_TEMPLATES.map(({ id }) => {
  const names: string[] = [];
  const source = id
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
      names.push(name);
      return `(${VALUE_PATTERNS[name] ?? '.+?'})`;
    })
    .join('');
  return { id, names, pattern: new RegExp(`^${source}$`, 's') };
});

/**
 * A text that came in English from the server or the shared rules (a refusal's message, a field's
 * problem), in the language shown: messages declared by their English text (start-messages.ts,
 * server-messages.ts) have translations under that text, and those built with values
 * (server-templates.ts) under their template, shown with the same values; any other comes as it was.
 */
export function serverText<T extends string | undefined>(text: T): T {
  if (!text) return text;
  const messages = i18n.messages;
  if (messages[text] !== undefined) return i18n._(text) as T;
  for (const { id, names, pattern } of TEMPLATES) {
    const match = pattern.exec(text);
    // Before the app's messages have loaded (the sign-in page), as it came.
    if (match) return messages[id] === undefined ? text : (i18n._(id, Object.fromEntries(names.map((name, index) => [name, match[index + 1]]))) as T);
  }
  return text;
}

import { msg } from '@lingui/core/macro';

/**
 * What the server says in English that the app shows as it comes (refusals, fields' problems),
 * declared under its English text: serverText, and so every ApiError's message, finds each one's
 * translation by that text. A text not declared here shows in English. The sign-in page's own are
 * in start-messages.ts.
 */
export const SERVER_MESSAGES = [msg({ id: 'Please sign in', message: 'Please sign in' })];

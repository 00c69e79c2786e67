import { msg } from '@lingui/core/macro';

/**
 * Texts that come in English from the server or the shared rules and that the sign-in page shows
 * (a refused sign-in, a field's problem), declared under their English text: serverText finds
 * each one's translation by that text. i18n-messages.test.ts holds this list to the constants it
 * repeats.
 */
export const START_SERVER_MESSAGES = [
  // The sign-in rules (shared/sign-in-rules.ts).
  msg({ id: 'Please enter a valid email address', message: 'Please enter a valid email address' }),
  msg({ id: 'Password is required', message: 'Password is required' }),
  msg({ id: 'Passwords have at most 1024 characters', message: 'Passwords have at most 1024 characters' }),
  msg({ id: 'That sign-in took too long or was already used. Please try again.', message: 'That sign-in took too long or was already used. Please try again.' }),
  msg({ id: 'The campus sign-in service cannot be reached right now. Please try again later.', message: 'The campus sign-in service cannot be reached right now. Please try again later.' }),
  msg({ id: 'Your campus account did not confirm your e-mail address, so the portal cannot tell who you are.', message: 'Your campus account did not confirm your e-mail address, so the portal cannot tell who you are.' }),
  msg({ id: 'No account of this portal uses that e-mail address. Ask an administrator to add you.', message: 'No account of this portal uses that e-mail address. Ask an administrator to add you.' }),
  msg({ id: 'This account is disabled. Ask an administrator.', message: 'This account is disabled. Ask an administrator.' }),
  msg({ id: 'This is a faculty account. Please use the Faculty tab to sign in.', message: 'This is a faculty account. Please use the Faculty tab to sign in.' }),
  msg({ id: 'This is a student account. Please use the Student tab to sign in.', message: 'This is a student account. Please use the Student tab to sign in.' }),
  msg({ id: 'Single sign-on did not complete. Please try again.', message: 'Single sign-on did not complete. Please try again.' }),
  // The server's refusals of a sign-in.
  msg({ id: 'Invalid credentials', message: 'Invalid credentials' }),
  msg({ id: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.', message: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.' }),
  msg({ id: 'Too many requests. Please wait a moment and try again.', message: 'Too many requests. Please wait a moment and try again.' }),
  msg({ id: 'That code is not right. Please try again.', message: 'That code is not right. Please try again.' }),
  msg({ id: 'Your sign-in has timed out. Please sign in again.', message: 'Your sign-in has timed out. Please sign in again.' }),
  msg({ id: 'Enter the 6-digit code from your authenticator app', message: 'Enter the 6-digit code from your authenticator app' }),
  // The page's own, when the server cannot be reached or answers what the page cannot read (lib/http.ts).
  msg({ id: 'Cannot reach the server. Check your connection and try again.', message: 'Cannot reach the server. Check your connection and try again.' }),
  msg({
    id: 'The server sent an answer this page does not understand. Please reload the page and try again.',
    message: 'The server sent an answer this page does not understand. Please reload the page and try again.',
  }),
];

import type { Language } from '../../../shared/languages';
import { PORTAL_NAME } from '../../../shared/constants';
import { SET_PASSWORD_LINK_HOURS } from '../../../shared/schemas/admin-users';
import { translator } from '../../i18n';

export interface SetPasswordMail {
  to: string;
  name: string;
  url: string;
  /** A new account, or a reset of an existing one's password. */
  kind: 'new' | 'reset';
  /** The account's language (null: none chosen, English). */
  language: Language | null;
}

/** Where a set-password link goes besides the admin's screen, and the address it is built on. */
export interface LinkDelivery {
  /** The portal's address, without a trailing slash. */
  baseUrl: string;
  /** PORTAL_SMTP_URL is set: the link is also e-mailed, through the mail outbox. */
  email: boolean;
}

/** The e-mail of a set-password link, as plain text in the account's language. */
export function setPasswordMailText(mail: SetPasswordMail): { subject: string; text: string } {
  const tr = translator(mail.language);
  const portal = PORTAL_NAME;
  const subject = mail.kind === 'new' ? tr.t('setPassword.subject.new', { portal }) : tr.t('setPassword.subject.reset', { portal });
  const opening = mail.kind === 'new' ? tr.t('setPassword.opening.new', { portal }) : tr.t('setPassword.opening.reset', { portal });
  const text = [
    tr.t('mail.hello', { name: mail.name }),
    '',
    opening,
    tr.t('setPassword.open'),
    '',
    mail.url,
    '',
    tr.t('setPassword.expiry', { hours: SET_PASSWORD_LINK_HOURS }),
  ].join('\n');
  return { subject, text };
}

import { PORTAL_NAME } from '../../../shared/constants';
import { SET_PASSWORD_LINK_HOURS } from '../../../shared/schemas/admin-users';

export interface SetPasswordMail {
  to: string;
  name: string;
  url: string;
  /** A new account, or a reset of an existing one's password. */
  kind: 'new' | 'reset';
}

/** Where a set-password link goes besides the admin's screen, and the address it is built on. */
export interface LinkDelivery {
  /** The portal's address, without a trailing slash. */
  baseUrl: string;
  /** PORTAL_SMTP_URL is set: the link is also e-mailed, through the mail outbox. */
  email: boolean;
}

/** The e-mail of a set-password link, as plain text. */
export function setPasswordMailText(mail: SetPasswordMail): { subject: string; text: string } {
  const subject =
    mail.kind === 'new' ? `Your ${PORTAL_NAME} account: choose your password` : `${PORTAL_NAME}: choose a new password`;
  const opening =
    mail.kind === 'new'
      ? `An administrator has made you an account on the ${PORTAL_NAME}.`
      : `An administrator has made you a link to choose a new password for the ${PORTAL_NAME}.`;
  const text = [
    `Hello ${mail.name},`,
    '',
    opening,
    'Open this link to choose your password:',
    '',
    mail.url,
    '',
    `The link works once, for ${SET_PASSWORD_LINK_HOURS} hours. If you did not expect it, ignore this e-mail.`,
  ].join('\n');
  return { subject, text };
}

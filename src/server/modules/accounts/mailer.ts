import type { Transporter } from 'nodemailer';
import { PORTAL_NAME } from '../../../shared/constants';
import { SET_PASSWORD_LINK_HOURS } from '../../../shared/schemas/admin-users';
import type { SmtpSettings } from '../../config';

export interface SetPasswordMail {
  to: string;
  name: string;
  url: string;
  /** A new account, or a reset of an existing one's password. */
  kind: 'new' | 'reset';
}

export interface Mailer {
  sendSetPasswordLink(mail: SetPasswordMail): Promise<void>;
}

/** Where a set-password link goes besides the admin's screen, and the address it is built on. */
export interface LinkDelivery {
  /** The portal's address, without a trailing slash. */
  baseUrl: string;
  mailer?: Mailer | undefined;
  log?: { warn(details: object, message: string): void } | undefined;
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

/** Sends set-password links through the SMTP server of PORTAL_SMTP_URL. */
export function createMailer(smtp: SmtpSettings): Mailer {
  // Nodemailer is loaded with the first e-mail, not at start.
  let transport: Promise<Transporter> | undefined;
  return {
    async sendSetPasswordLink(mail) {
      const { subject, text } = setPasswordMailText(mail);
      transport ??= import('nodemailer')
        .then(({ default: nodemailer }) => nodemailer.createTransport(smtp.url))
        .catch((err: unknown) => {
          transport = undefined; // Tried again with the next e-mail.
          throw err;
        });
      await (await transport).sendMail({ from: smtp.from, to: mail.to, subject, text });
    },
  };
}

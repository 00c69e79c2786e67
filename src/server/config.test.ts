import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('PORTAL_PUBLIC_URL and PORTAL_SMTP_URL', () => {
  it('are unset by default: links use the request\'s address and nothing is e-mailed', () => {
    const config = loadConfig({});
    expect(config.publicUrl).toBeUndefined();
    expect(config.smtp).toBeUndefined();
  });

  it('keep the public address without a trailing slash, and send e-mail from the contact address', () => {
    const config = loadConfig({
      PORTAL_PUBLIC_URL: 'https://attendance.university.edu/portal/',
      PORTAL_SMTP_URL: 'smtp://mailer:secret@mail.university.edu:587',
      PORTAL_CONTACT_EMAIL: 'office@university.edu',
    });
    expect(config.publicUrl).toBe('https://attendance.university.edu/portal');
    expect(config.smtp).toEqual({ url: 'smtp://mailer:secret@mail.university.edu:587', from: 'office@university.edu' });
  });

  it('refuses to start in production with SMTP but no public address, saying why', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PORTAL_SMTP_URL: 'smtps://mail.university.edu' })).toThrow(
      /PORTAL_PUBLIC_URL must be set when PORTAL_SMTP_URL is/,
    );
    expect(loadConfig({ NODE_ENV: 'production', PORTAL_SMTP_URL: 'smtps://mail.university.edu', PORTAL_PUBLIC_URL: 'https://a.edu' }).publicUrl).toBe('https://a.edu');
    // Outside production the request's address will do, with a warning in the log.
    expect(loadConfig({ PORTAL_SMTP_URL: 'smtps://mail.university.edu' }).publicUrl).toBeUndefined();
  });

  it('refuses addresses that are not http(s) or smtp(s), never echoing an SMTP password', () => {
    expect(() => loadConfig({ PORTAL_PUBLIC_URL: 'ftp://x.edu' })).toThrow(/PORTAL_PUBLIC_URL must be an http/);
    expect(() => loadConfig({ PORTAL_PUBLIC_URL: 'https://x.edu/?a=1' })).toThrow(/without \? or #/);
    expect(() => loadConfig({ PORTAL_SMTP_URL: 'http://user:hunter2@x.edu' })).toThrow(/^PORTAL_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address$/);
    expect(() => loadConfig({ PORTAL_SMTP_URL: 'not a url hunter2' })).toThrow(/^PORTAL_SMTP_URL must be/);
  });
});

import { describe, expect, it } from 'vitest';
import { configWarnings, loadConfig } from './config';

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

describe('single sign-on and two-step sign-in settings', () => {
  const sso = { PORTAL_OIDC_ISSUER: 'https://login.university.edu/realms/campus', PORTAL_OIDC_CLIENT_ID: 'portal', PORTAL_OIDC_CLIENT_SECRET: 's3cret' };

  it('are off by default', () => {
    const config = loadConfig({});
    expect(config.oidc).toBeUndefined();
    expect(config.passwordLogin).toBe(true);
    expect(config.requireTotp).toBe('off');
  });

  it('take the issuer, client and name, and PORTAL_OIDC_EMAIL_VERIFIED=assume', () => {
    expect(loadConfig({ ...sso, PORTAL_OIDC_NAME: 'Riverside Account', PORTAL_OIDC_EMAIL_VERIFIED: 'assume' }).oidc).toEqual({
      issuer: sso.PORTAL_OIDC_ISSUER,
      clientId: 'portal',
      clientSecret: 's3cret',
      name: 'Riverside Account',
      emailVerified: 'assume',
    });
    expect(loadConfig(sso).oidc?.name).toBe('Campus Account');
  });

  it('need all three of issuer, client id and secret', () => {
    expect(() => loadConfig({ PORTAL_OIDC_ISSUER: sso.PORTAL_OIDC_ISSUER })).toThrow(/PORTAL_OIDC_ISSUER, PORTAL_OIDC_CLIENT_ID and PORTAL_OIDC_CLIENT_SECRET together/);
  });

  it('accept http:// only for a provider on this machine', () => {
    expect(() => loadConfig({ ...sso, PORTAL_OIDC_ISSUER: 'http://login.university.edu' })).toThrow(/must be https/);
    expect(loadConfig({ ...sso, PORTAL_OIDC_ISSUER: 'http://127.0.0.1:8080/realms/test' }).oidc?.issuer).toBe('http://127.0.0.1:8080/realms/test');
    expect(loadConfig({ ...sso, PORTAL_OIDC_ISSUER: 'http://localhost:8080' }).oidc).toBeDefined();
  });

  it('turn password sign-in off only when single sign-on is there to replace it', () => {
    expect(loadConfig({ ...sso, PORTAL_PASSWORD_LOGIN: 'false' }).passwordLogin).toBe(false);
    expect(() => loadConfig({ PORTAL_PASSWORD_LOGIN: 'false' })).toThrow(/needs single sign-on/);
    expect(() => loadConfig({ PORTAL_PASSWORD_LOGIN: 'no' })).toThrow(/"true" or "false"/);
  });

  it('keep statements prepared on PostgreSQL unless PORTAL_PREPARED_STATEMENTS=false', () => {
    expect(loadConfig({}).preparedStatements).toBe(true);
    expect(loadConfig({ PORTAL_PREPARED_STATEMENTS: 'false' }).preparedStatements).toBe(false);
    expect(() => loadConfig({ PORTAL_PREPARED_STATEMENTS: 'off' })).toThrow(/PORTAL_PREPARED_STATEMENTS must be "true" or "false"/);
  });

  it('require TOTP of staff with PORTAL_REQUIRE_TOTP=staff, and refuse other values', () => {
    expect(loadConfig({ PORTAL_REQUIRE_TOTP: 'staff' }).requireTotp).toBe('staff');
    expect(() => loadConfig({ PORTAL_REQUIRE_TOTP: 'everyone' })).toThrow(/PORTAL_REQUIRE_TOTP/);
  });
});

describe('PORTAL_SECRET', () => {
  const key = (letter: string) => letter.repeat(32);

  it('holds one key, or several separated by commas with the signing key first', () => {
    expect(loadConfig({}).secret).toBeUndefined();
    expect(loadConfig({ PORTAL_SECRET: key('a') }).secret).toEqual([key('a')]);
    expect(loadConfig({ PORTAL_SECRET: ` ${key('b')} , ${key('a')}` }).secret).toEqual([key('b'), key('a')]);
  });

  it('refuses a short, empty or repeated key, saying which without echoing any', () => {
    expect(() => loadConfig({ PORTAL_SECRET: 'short' })).toThrow(/^PORTAL_SECRET has 5 characters; each key needs at least 32$/);
    expect(() => loadConfig({ PORTAL_SECRET: `${key('a')},tooshort` })).toThrow(/^PORTAL_SECRET's key 2 of 2 has 8 characters; each key needs at least 32$/);
    expect(() => loadConfig({ PORTAL_SECRET: `${key('a')},,${key('b')}` })).toThrow(/key 2 of 3 is empty: separate keys with single commas/);
    expect(() => loadConfig({ PORTAL_SECRET: `${key('a')},` })).toThrow(/key 2 of 2 is empty/);
    expect(() => loadConfig({ PORTAL_SECRET: `${key('a')},${key('a')}` })).toThrow(/^PORTAL_SECRET names one key twice$/);
  });
});

describe('operations: proxies, metrics, shutdown and database limits', () => {
  it('trust no proxy by default, every proxy with true, and only the listed addresses and CIDRs otherwise', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ PORTAL_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ PORTAL_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ PORTAL_TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ PORTAL_TRUST_PROXY: ' 10.0.0.5, 192.168.1.0/24 ,::1,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '192.168.1.0/24',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuse a proxy list with anything but addresses and CIDRs, naming the entry', () => {
    for (const [value, named] of [
      ['10.0.0.5,proxy.internal', 'proxy.internal'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['fd00::/129', 'fd00::/129'],
      ['10.0.0.1/8/8', '10.0.0.1/8/8'],
      ['300.1.1.1', '300.1.1.1'],
      [',', ','],
    ]) {
      expect(() => loadConfig({ PORTAL_TRUST_PROXY: value }), value).toThrow(`PORTAL_TRUST_PROXY must be true, false or a comma-separated list`);
      expect(() => loadConfig({ PORTAL_TRUST_PROXY: value }), value).toThrow(`not "${named}"`);
    }
  });

  it('warn in production when every proxy is trusted, and only then', () => {
    const warned = (env: NodeJS.ProcessEnv) => configWarnings(loadConfig(env));
    expect(warned({ NODE_ENV: 'production', PORTAL_TRUST_PROXY: 'true' })).toEqual([expect.stringContaining('PORTAL_TRUST_PROXY=true')]);
    expect(warned({ NODE_ENV: 'production', PORTAL_TRUST_PROXY: '10.0.0.5' })).toEqual([]);
    expect(warned({ PORTAL_TRUST_PROXY: 'true' })).toEqual([]);
  });

  it('take the metrics token, refusing one that is short or has spaces', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    const token = 'a'.repeat(32);
    expect(loadConfig({ PORTAL_METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(() => loadConfig({ PORTAL_METRICS_TOKEN: 'short' })).toThrow('PORTAL_METRICS_TOKEN must be at least 32 characters');
    expect(() => loadConfig({ PORTAL_METRICS_TOKEN: `${token} b` })).toThrow('without spaces');
  });

  it('default to a 10 s grace, a 15 s statement timeout and 10 connections, and take whole numbers', () => {
    const defaults = loadConfig({});
    expect([defaults.shutdownGraceMs, defaults.statementTimeoutMs, defaults.databasePool]).toEqual([10_000, 15_000, 10]);
    const set = loadConfig({ PORTAL_SHUTDOWN_GRACE_S: '25', PORTAL_STATEMENT_TIMEOUT_MS: '5000', PORTAL_DB_POOL: '4' });
    expect([set.shutdownGraceMs, set.statementTimeoutMs, set.databasePool]).toEqual([25_000, 5000, 4]);
    for (const name of ['PORTAL_SHUTDOWN_GRACE_S', 'PORTAL_STATEMENT_TIMEOUT_MS', 'PORTAL_DB_POOL']) {
      for (const bad of ['0', '-1', '2.5', 'ten']) {
        expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(`${name} must be a whole number of 1 or more, not "${bad}"`);
      }
    }
  });
});

describe('PORTAL_BACKUP_DIR, PORTAL_BACKUP_AT, PORTAL_BACKUP_INTERVAL_HOURS and PORTAL_BACKUP_KEEP', () => {
  it('back the embedded database up into its data folder daily at 02:30, keeping 14; PostgreSQL every 24 hours, only when a folder is set', () => {
    expect(loadConfig({ PORTAL_DATA_DIR: '/srv/portal/data' }).backup).toEqual({
      dir: '/srv/portal/data/backups',
      intervalHours: 24,
      at: { hour: 2, minute: 30 },
      keep: 14,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/portal' }).backup.dir).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/portal', PORTAL_BACKUP_DIR: '/backups' }).backup.at).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/portal', PORTAL_BACKUP_DIR: '/backups', PORTAL_BACKUP_INTERVAL_HOURS: '0.5', PORTAL_BACKUP_KEEP: '48' }).backup).toEqual({
      dir: '/backups',
      intervalHours: 0.5,
      keep: 48,
    });
  });

  it('take a time of day on either engine, and an interval on the embedded database instead of its 02:30', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/portal', PORTAL_BACKUP_DIR: '/backups', PORTAL_BACKUP_AT: '23:05' }).backup.at).toEqual({ hour: 23, minute: 5 });
    expect(loadConfig({ PORTAL_BACKUP_AT: ' 00:00 ' }).backup.at).toEqual({ hour: 0, minute: 0 });
    const byInterval = loadConfig({ PORTAL_BACKUP_INTERVAL_HOURS: '6' }).backup;
    expect(byInterval.at).toBeUndefined();
    expect(byInterval.intervalHours).toBe(6);
    // 0 still schedules none; with a time of day beside it, none either.
    expect(loadConfig({ PORTAL_BACKUP_INTERVAL_HOURS: '0', PORTAL_BACKUP_AT: '02:30' }).backup.intervalHours).toBe(0);
    for (const bad of ['2:30', '24:00', '02:60', '2am', '02:30:00']) {
      expect(() => loadConfig({ PORTAL_BACKUP_AT: bad })).toThrow(`PORTAL_BACKUP_AT must be a time of day, HH:MM from 00:00 to 23:59 (such as 02:30), not "${bad}"`);
    }
    expect(() => loadConfig({ PORTAL_BACKUP_AT: '02:30', PORTAL_BACKUP_INTERVAL_HOURS: '12' })).toThrow(/PORTAL_BACKUP_AT and PORTAL_BACKUP_INTERVAL_HOURS are both set/);
  });

  it('refuse an interval or a count that is not one, saying which', () => {
    expect(() => loadConfig({ PORTAL_BACKUP_INTERVAL_HOURS: 'daily' })).toThrow(/PORTAL_BACKUP_INTERVAL_HOURS must be a number of hours/);
    expect(() => loadConfig({ PORTAL_BACKUP_INTERVAL_HOURS: '-1' })).toThrow(/PORTAL_BACKUP_INTERVAL_HOURS/);
    // 0: none scheduled (the backup before an upgrade stays).
    expect(loadConfig({ PORTAL_BACKUP_INTERVAL_HOURS: '0' }).backup.intervalHours).toBe(0);
    expect(() => loadConfig({ PORTAL_BACKUP_KEEP: '0' })).toThrow(/PORTAL_BACKUP_KEEP must be a whole number of 1 or more/);
  });
});

describe('PORTAL_CAMPUS_NETWORKS', () => {
  it('reads CIDRs separated by commas, an address alone as its own network, and none by default', () => {
    expect(loadConfig({}).campusNetworks).toEqual([]);
    expect(loadConfig({ PORTAL_CAMPUS_NETWORKS: ' 10.20.0.0/16, 192.168.4.7 ,2001:db8::/32' }).campusNetworks).toEqual([
      '10.20.0.0/16',
      '192.168.4.7/32',
      '2001:db8::/32',
    ]);
  });

  it('refuses what is not a network', () => {
    for (const value of ['campus', '10.0.0.0/33', '10.0.0.0/8/1', '2001:db8::/129', '10.0.0/8']) {
      expect(() => loadConfig({ PORTAL_CAMPUS_NETWORKS: value }), value).toThrow(/PORTAL_CAMPUS_NETWORKS must be a comma-separated list/);
    }
  });
});

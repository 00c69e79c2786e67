import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** PORTAL_PREPARED_STATEMENTS=false: no statement kept prepared, on either database (a pooler that cannot keep them). */
  preparedStatements: boolean;
  dataDir: string;
  timeZone: string;
  production: boolean;
  demo: boolean;
  /**
   * PORTAL_TRUST_PROXY: the proxies whose X-Forwarded-For names the client (addresses or CIDRs),
   * `true` for any proxy, `false` for none.
   */
  trustProxy: TrustProxy;
  logLevel: string;
  webDir: string;
  /** The address, phone and e-mail blocks of the contact page. */
  contact: ContactDetails;
  /** The form-submission service that contact messages are forwarded to; unset: kept in the inbox only. */
  formService: FormService | undefined;
  limits: Limits;
  /**
   * PORTAL_SECRET's keys for signed cookies: the first signs, every one verifies (so a key can be
   * rotated). Unset: a key kept in the database, the same for every server process.
   */
  secret: string[] | undefined;
  /**
   * The portal's own address (`https://attendance.university.edu`, no trailing slash), used in
   * set-password links and e-mails; unset: the address the request came to, with a warning.
   */
  publicUrl: string | undefined;
  /** Where set-password links are e-mailed from; unset: links are only shown to the admin. */
  smtp: SmtpSettings | undefined;
  /** The university's own name, logo and colour (decision 16), beside the portal's fixed strings. */
  branding: Branding;
  /** PORTAL_REQUIRE_TOTP: `staff` makes faculty and admins set up TOTP at their next password sign-in. */
  requireTotp: 'off' | 'staff';
  /** Single sign-on with OpenID Connect (decision 17); undefined when not configured. */
  oidc: OidcSettings | undefined;
  /** PORTAL_PASSWORD_LOGIN=false turns password sign-in off (single sign-on only). */
  passwordLogin: boolean;
  /** PORTAL_METRICS_TOKEN: the bearer token that opens /metrics to other machines; unset: loopback only. */
  metricsToken: string | undefined;
  /** PORTAL_SHUTDOWN_GRACE_S, in ms: how long requests in flight may take to finish once a stop is asked. */
  shutdownGraceMs: number;
  /** PORTAL_STATEMENT_TIMEOUT_MS: PostgreSQL cancels a statement that runs longer. */
  statementTimeoutMs: number;
  /** PORTAL_DB_POOL: the most connections one process opens to PostgreSQL. */
  databasePool: number;
  /** Where and how often the running portal backs its database up (docs/decisions/0035-backups.md). */
  backup: BackupSettings;
  /** The university's own privacy and accessibility notices (Markdown), read at start; undefined: the portal's own. */
  notices: Notices;
  /** How long personal data is kept (decision 40), applied once a day. */
  retention: RetentionSettings;
  /** PORTAL_THRESHOLD: the percentage below which the below-threshold alert warns a student (75). */
  alertThreshold: number;
  /**
   * PORTAL_CAMPUS_NETWORKS: the campus's networks as CIDRs (such as 10.20.0.0/16,2001:db8::/32), from
   * which a campus-only check-in accepts scans (decision 45); empty: no check-in can be campus-only.
   */
  campusNetworks: string[];
}

/**
 * PORTAL_CAMPUS_NETWORKS: comma-separated CIDRs (an address alone is a /32 or /128), written back
 * with their prefix.
 */
export function campusNetworks(env: NodeJS.ProcessEnv): string[] {
  const raw = env.PORTAL_CAMPUS_NETWORKS?.trim() ?? '';
  if (raw === '') return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address = '', prefix, extra] = entry.split('/');
      const version = isIP(address);
      const max = version === 4 ? 32 : 128;
      if (version === 0 || extra !== undefined || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= max))) {
        throw new Error(`PORTAL_CAMPUS_NETWORKS must be a comma-separated list of networks as CIDRs (such as 10.20.0.0/16), not "${entry}"`);
      }
      return `${address}/${prefix ?? max}`;
    });
}

export interface RetentionSettings {
  /** PORTAL_RETAIN_MESSAGES_DAYS: contact messages older than this are deleted; null keeps them. */
  messagesDays: number | null;
  /** PORTAL_RETAIN_WITHDRAWN_DAYS: students withdrawn longer than this are erased; null (the default) never. */
  withdrawnDays: number | null;
}

export const DEFAULT_RETAIN_MESSAGES_DAYS = 365;

/** PORTAL_THRESHOLD: a percentage from 1 to 99. */
function alertThreshold(env: NodeJS.ProcessEnv): number {
  const raw = env.PORTAL_THRESHOLD?.trim();
  if (raw === undefined || raw === '') return 75;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 1 || value > 99) throw new Error(`PORTAL_THRESHOLD must be a percentage from 1 to 99, not "${raw}"`);
  return value;
}

/** A retention period in days: a whole number of 1 or more, or `off`; unset is `fallback`. */
function retentionDays(env: NodeJS.ProcessEnv, name: string, fallback: number | null): number | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw.toLowerCase() === 'off') return null;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 36_500) {
    throw new Error(`${name} must be a whole number of days (1 or more) or "off", not "${raw}"`);
  }
  return value;
}

export interface Notices {
  privacy: string | undefined;
  accessibility: string | undefined;
}

export const NO_NOTICES: Notices = { privacy: undefined, accessibility: undefined };

/** The largest notice file read: a notice is a page of text. */
export const MAX_NOTICE_BYTES = 64 * 1024;

/** A notice's Markdown from the file an environment variable names; a file that cannot be used stops the start. */
function noticeFile(env: NodeJS.ProcessEnv, name: 'PORTAL_PRIVACY_FILE' | 'PORTAL_ACCESSIBILITY_FILE'): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.resolve(value));
  } catch {
    throw new Error(`${name} names a file that cannot be read: "${value}"`);
  }
  if (bytes.length > MAX_NOTICE_BYTES) throw new Error(`${name} is larger than ${MAX_NOTICE_BYTES / 1024} KB: "${value}"`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${name} must be a UTF-8 text (Markdown) file: "${value}"`);
  }
  if (text.trim() === '') throw new Error(`${name} names an empty file: "${value}"`);
  return text;
}

/** Which proxies are believed about the client's address (Fastify's `trustProxy`). */
export type TrustProxy = boolean | string[];

/** The names proxy-addr knows for ranges of addresses, accepted beside addresses and CIDRs. */
const ADDRESS_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of PORTAL_TRUST_PROXY's list: an IPv4 or IPv6 address, with or without a /prefix, or a range's name. */
function proxyAddress(entry: string): boolean {
  if (ADDRESS_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * PORTAL_TRUST_PROXY: unset or false, no proxy (the socket's address is the client's); true, every
 * proxy (any client can then claim any address); or a comma-separated list of the proxies'
 * addresses or CIDRs, whose X-Forwarded-For alone is believed.
 */
function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = env.PORTAL_TRUST_PROXY?.trim() ?? '';
  const lower = raw.toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(lower)) return false;
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.filter((entry) => !proxyAddress(entry));
  if (bad.length > 0 || entries.length === 0) {
    throw new Error(
      `PORTAL_TRUST_PROXY must be true, false or a comma-separated list of the proxies' addresses or CIDRs (such as 10.0.0.5,192.168.1.0/24), not "${bad[0] ?? raw}"`,
    );
  }
  return entries;
}

function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.PORTAL_METRICS_TOKEN;
  if (value === undefined || value.trim() === '') return undefined;
  // Sent in a header by the scraper: printable, without spaces, and too long to guess.
  if (!/^[\x21-\x7e]{32,}$/.test(value)) {
    throw new Error('PORTAL_METRICS_TOKEN must be at least 32 characters, without spaces (e.g. the output of: openssl rand -hex 32)');
  }
  return value;
}

/** What an operator should know of the configuration at start, one sentence each. */
export function configWarnings(config: Pick<Config, 'production' | 'trustProxy'>): string[] {
  const warnings: string[] = [];
  if (config.production && config.trustProxy === true) {
    warnings.push(
      'PORTAL_TRUST_PROXY=true believes X-Forwarded-For from any client, which can then choose the address that sign-in limits count: list the proxies\' addresses instead',
    );
  }
  return warnings;
}

export interface BackupSettings {
  /** PORTAL_BACKUP_DIR; the embedded database's default is `<data folder>/backups`, PostgreSQL's none (no scheduled backups). */
  dir: string | undefined;
  /** PORTAL_BACKUP_INTERVAL_HOURS: hours between scheduled backups (24); 0 schedules none. */
  intervalHours: number;
  /**
   * PORTAL_BACKUP_AT: the time of day (the portal's zone) of a daily scheduled backup, instead of
   * one every `intervalHours`. The embedded database's default is 02:30 (its requests wait while a
   * backup is read), unless PORTAL_BACKUP_INTERVAL_HOURS is set; PostgreSQL's none.
   */
  at?: { hour: number; minute: number };
  /** PORTAL_BACKUP_KEEP: the newest scheduled backups kept (14); older ones are removed. */
  keep: number;
}

/** The embedded database's daily backup, at a quiet hour: its one session waits while a backup is read. */
export const EMBEDDED_BACKUP_AT = { hour: 2, minute: 30 } as const;

function backupSettings(env: NodeJS.ProcessEnv, databaseUrl: string | undefined, dataDir: string): BackupSettings {
  const dir = env.PORTAL_BACKUP_DIR?.trim();
  const hours = env.PORTAL_BACKUP_INTERVAL_HOURS?.trim();
  const atText = env.PORTAL_BACKUP_AT?.trim();
  let intervalHours = 24;
  if (hours) {
    intervalHours = Number(hours);
    if (!Number.isFinite(intervalHours) || intervalHours < 0 || intervalHours > 24 * 366) {
      throw new Error(`PORTAL_BACKUP_INTERVAL_HOURS must be a number of hours (at most a year), such as 24 or 0.5, or 0 for none, not "${hours}"`);
    }
  }
  let at: BackupSettings['at'];
  if (atText) {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(atText);
    if (!match) throw new Error(`PORTAL_BACKUP_AT must be a time of day, HH:MM from 00:00 to 23:59 (such as 02:30), not "${atText}"`);
    if (hours && intervalHours > 0) {
      throw new Error(
        'PORTAL_BACKUP_AT and PORTAL_BACKUP_INTERVAL_HOURS are both set: set PORTAL_BACKUP_AT for a daily backup at that time, or PORTAL_BACKUP_INTERVAL_HOURS for one every so many hours',
      );
    }
    at = { hour: Number(match[1]), minute: Number(match[2]) };
  } else if (!databaseUrl && !hours) {
    at = { ...EMBEDDED_BACKUP_AT };
  }
  return {
    dir: dir ? path.resolve(dir) : databaseUrl ? undefined : path.join(dataDir, 'backups'),
    intervalHours,
    at,
    keep: positiveWhole(env, 'PORTAL_BACKUP_KEEP', 14),
  };
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's words: "Sign in with <name>". */
  name: string;
  /** `assume` for providers that never send email_verified (Microsoft Entra by default). */
  emailVerified: 'require' | 'assume';
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function oidc(env: NodeJS.ProcessEnv): OidcSettings | undefined {
  const issuer = env.PORTAL_OIDC_ISSUER?.trim();
  const clientId = env.PORTAL_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.PORTAL_OIDC_CLIENT_SECRET?.trim();
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret) {
    throw new Error('Single sign-on needs PORTAL_OIDC_ISSUER, PORTAL_OIDC_CLIENT_ID and PORTAL_OIDC_CLIENT_SECRET together');
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`PORTAL_OIDC_ISSUER must be an address, not "${issuer}"`);
  }
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)))) {
    throw new Error('PORTAL_OIDC_ISSUER must be https:// (http:// only for a provider on this machine)');
  }
  const verified = env.PORTAL_OIDC_EMAIL_VERIFIED?.trim().toLowerCase() || 'require';
  if (verified !== 'require' && verified !== 'assume') throw new Error('PORTAL_OIDC_EMAIL_VERIFIED must be "assume" or unset');
  const name = env.PORTAL_OIDC_NAME?.trim() || 'Campus Account';
  if (name.length > 60) throw new Error('PORTAL_OIDC_NAME has at most 60 characters');
  return { issuer, clientId, clientSecret, name, emailVerified: verified };
}

function preparedStatements(env: NodeJS.ProcessEnv): boolean {
  const value = env.PORTAL_PREPARED_STATEMENTS?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'true') return true;
  if (value !== 'false') throw new Error('PORTAL_PREPARED_STATEMENTS must be "true" or "false"');
  return false;
}

function passwordLogin(env: NodeJS.ProcessEnv, sso: OidcSettings | undefined): boolean {
  const value = env.PORTAL_PASSWORD_LOGIN?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'true') return true;
  if (value !== 'false') throw new Error('PORTAL_PASSWORD_LOGIN must be "true" or "false"');
  if (!sso) throw new Error('PORTAL_PASSWORD_LOGIN=false needs single sign-on (PORTAL_OIDC_ISSUER and the rest)');
  return false;
}

export interface Branding {
  /** PORTAL_NAME: the university's name, e.g. "Riverside University". */
  name: string | undefined;
  /** PORTAL_LOGO: a local PNG or JPEG file, served by the portal at /api/branding/logo. */
  logoFile: string | undefined;
  /** PORTAL_COLOR: the primary colour as #rrggbb; actions and focus take its shades. */
  color: string | undefined;
}

export const NO_BRANDING: Branding = { name: undefined, logoFile: undefined, color: undefined };

/** The logo may be this large at most: it is sent with every first page load. */
export const MAX_LOGO_BYTES = 512 * 1024;

function requireTotp(env: NodeJS.ProcessEnv): 'off' | 'staff' {
  const value = env.PORTAL_REQUIRE_TOTP?.trim().toLowerCase() || 'off';
  if (value !== 'off' && value !== 'staff') throw new Error(`PORTAL_REQUIRE_TOTP must be "staff" or "off", not "${value}"`);
  return value;
}

function branding(env: NodeJS.ProcessEnv): Branding {
  const name = env.PORTAL_NAME?.trim() || undefined;
  if (name && name.length > 80) throw new Error('PORTAL_NAME has at most 80 characters');
  let color = env.PORTAL_COLOR?.trim() || undefined;
  if (color) {
    const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
    if (short) color = `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
    if (!/^#[0-9a-f]{6}$/i.test(color)) throw new Error(`PORTAL_COLOR must be a colour as #rrggbb, such as #1d4f91, not "${color}"`);
    color = color.toLowerCase();
  }
  const logo = env.PORTAL_LOGO?.trim() || undefined;
  let logoFile: string | undefined;
  if (logo) {
    logoFile = path.resolve(logo);
    if (!/\.(png|jpe?g)$/i.test(logoFile)) throw new Error(`PORTAL_LOGO must be a PNG or JPEG file, not "${logo}"`);
    let size: number;
    try {
      size = statSync(logoFile).size;
    } catch {
      throw new Error(`PORTAL_LOGO names a file that cannot be read: "${logo}"`);
    }
    if (size > MAX_LOGO_BYTES) throw new Error(`PORTAL_LOGO is larger than ${MAX_LOGO_BYTES / 1024} KB: "${logo}"`);
  }
  return { name, logoFile, color };
}

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…`, as nodemailer reads it (never logged). */
  url: string;
  /** The sender of the e-mails: the contact page's e-mail address. */
  from: string;
}

/**
 * Limits on what one client may do, set so that a whole lab behind one NAT address gets through:
 * registrations and contact messages accepted per address per 10 minutes, failed sign-ins per
 * address per 15 minutes (per e-mail it stays 5, and a browser that signed in before has its own).
 */
export interface Limits {
  registrations: number;
  contact: number;
  signInPerAddress: number;
}

export const DEFAULT_SHUTDOWN_GRACE_S = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
export const DEFAULT_DB_POOL = 10;

export const DEFAULT_LIMITS: Limits = { registrations: 100, contact: 30, signInPerAddress: 100 };

/** PORTAL_SECRET: one key, or several separated by commas (the first signs, all verify). */
function secret(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const keys = value.split(',').map((key) => key.trim());
  // The keys are never echoed: only their places in the list.
  keys.forEach((key, index) => {
    const which = keys.length === 1 ? 'PORTAL_SECRET' : `PORTAL_SECRET's key ${index + 1} of ${keys.length}`;
    if (key === '') throw new Error(`${which} is empty: separate keys with single commas, the signing key first`);
    if (key.length < 32) throw new Error(`${which} has ${key.length} characters; each key needs at least 32`);
  });
  if (new Set(keys).size !== keys.length) throw new Error('PORTAL_SECRET names one key twice');
  return keys;
}

function positiveWhole(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of 1 or more, not "${raw}"`);
  return value;
}

export interface ContactDetails {
  address: string;
  phone: string;
  email: string;
}

export interface FormService {
  endpoint: string;
  accessKey: string;
}

/** Shown until an operator sets PORTAL_CONTACT_*: clearly an example, never a real office. */
export const DEMO_CONTACT: ContactDetails = {
  address: 'Administrative Block, Main Campus, University Road, Hyderabad 500001',
  phone: '+91 40 2345 6789',
  email: 'office@demo.university.edu',
};

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function formService(env: NodeJS.ProcessEnv): FormService | undefined {
  const endpoint = env.PORTAL_FORM_ENDPOINT?.trim();
  const accessKey = env.PORTAL_FORM_ACCESS_KEY?.trim();
  if (!endpoint && !accessKey) return undefined;
  // Half a configuration would silently keep every message in the inbox only.
  if (!endpoint || !accessKey) {
    throw new Error('PORTAL_FORM_ENDPOINT and PORTAL_FORM_ACCESS_KEY must be set together');
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error('PORTAL_FORM_ENDPOINT must be an http:// or https:// address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error('PORTAL_FORM_ENDPOINT must be an http:// or https:// address');
  }
  return { endpoint, accessKey };
}

function httpAddress(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http:// or https:// address, not "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${name} must be an http:// or https:// address, not "${value}"`);
  }
  return url;
}

/** The portal's public address without a trailing slash, or undefined. */
function publicUrl(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const url = httpAddress('PORTAL_PUBLIC_URL', trimmed);
  if (url.search || url.hash) throw new Error('PORTAL_PUBLIC_URL must be the portal\'s address, without ? or #');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function smtpUrl(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  let protocol: string;
  try {
    protocol = new URL(trimmed).protocol;
  } catch {
    // The URL may hold a password: never echo it.
    throw new Error('PORTAL_SMTP_URL must be an smtp:// or smtps:// address');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new Error('PORTAL_SMTP_URL must be an smtp:// or smtps:// address');
  return trimmed;
}

/** Reads the configuration from the environment; throws with a readable message on bad values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  }
  const timeZone = env.PORTAL_TIMEZONE || Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!validTimeZone(timeZone)) {
    throw new Error(`PORTAL_TIMEZONE must be an IANA time zone such as Asia/Kolkata, not "${timeZone}"`);
  }
  const production = env.NODE_ENV === 'production';
  const contactEmail = env.PORTAL_CONTACT_EMAIL?.trim() || DEMO_CONTACT.email;
  const smtp = smtpUrl(env.PORTAL_SMTP_URL);
  const portalUrl = publicUrl(env.PORTAL_PUBLIC_URL);
  const sso = oidc(env);
  // An e-mailed link built from a request's Host header could point anywhere the sender chose.
  if (production && smtp && !portalUrl) {
    throw new Error(
      'PORTAL_PUBLIC_URL must be set when PORTAL_SMTP_URL is (NODE_ENV=production): e-mailed set-password links need the portal\'s own address, e.g. https://attendance.university.edu',
    );
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    preparedStatements: preparedStatements(env),
    dataDir: path.resolve(env.PORTAL_DATA_DIR || 'data'),
    timeZone,
    production,
    demo: !production && flag(env.PORTAL_DEMO, true),
    trustProxy: trustProxy(env),
    logLevel: env.LOG_LEVEL || 'info',
    webDir: path.resolve(env.PORTAL_WEB_DIR || 'dist/web'),
    contact: {
      address: env.PORTAL_CONTACT_ADDRESS?.trim() || DEMO_CONTACT.address,
      phone: env.PORTAL_CONTACT_PHONE?.trim() || DEMO_CONTACT.phone,
      email: contactEmail,
    },
    formService: formService(env),
    limits: {
      registrations: positiveWhole(env, 'PORTAL_LIMIT_REGISTRATIONS', DEFAULT_LIMITS.registrations),
      contact: positiveWhole(env, 'PORTAL_LIMIT_CONTACT', DEFAULT_LIMITS.contact),
      signInPerAddress: positiveWhole(env, 'PORTAL_LIMIT_SIGN_IN_ADDRESS', DEFAULT_LIMITS.signInPerAddress),
    },
    secret: secret(env.PORTAL_SECRET),
    publicUrl: portalUrl,
    smtp: smtp ? { url: smtp, from: contactEmail } : undefined,
    branding: branding(env),
    requireTotp: requireTotp(env),
    oidc: sso,
    passwordLogin: passwordLogin(env, sso),
    metricsToken: metricsToken(env),
    shutdownGraceMs: positiveWhole(env, 'PORTAL_SHUTDOWN_GRACE_S', DEFAULT_SHUTDOWN_GRACE_S) * 1000,
    statementTimeoutMs: positiveWhole(env, 'PORTAL_STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS),
    databasePool: positiveWhole(env, 'PORTAL_DB_POOL', DEFAULT_DB_POOL),
    backup: backupSettings(env, env.DATABASE_URL || undefined, path.resolve(env.PORTAL_DATA_DIR || 'data')),
    notices: { privacy: noticeFile(env, 'PORTAL_PRIVACY_FILE'), accessibility: noticeFile(env, 'PORTAL_ACCESSIBILITY_FILE') },
    retention: {
      messagesDays: retentionDays(env, 'PORTAL_RETAIN_MESSAGES_DAYS', DEFAULT_RETAIN_MESSAGES_DAYS),
      withdrawnDays: retentionDays(env, 'PORTAL_RETAIN_WITHDRAWN_DAYS', null),
    },
    alertThreshold: alertThreshold(env),
    campusNetworks: campusNetworks(env),
  };
}

import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  timeZone: string;
  production: boolean;
  demo: boolean;
  trustProxy: boolean;
  logLevel: string;
  webDir: string;
}

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
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.PORTAL_DATA_DIR || 'data'),
    timeZone,
    production,
    demo: !production && flag(env.PORTAL_DEMO, true),
    trustProxy: flag(env.PORTAL_TRUST_PROXY, false),
    logLevel: env.LOG_LEVEL || 'info',
    webDir: path.resolve(env.PORTAL_WEB_DIR || 'dist/web'),
  };
}

import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The one place that decides which Chromium the browser journeys drive
 * (docs/decisions/0007-test-browser.md). The order, and why:
 *
 * 1. `CHROMIUM_PATH`: whoever sets it knows what they want, so it wins, and a path that does not
 *    exist is an error rather than a silent fall-through to another browser.
 * 2. A system Chromium or Chrome: a browser the machine already keeps up to date, found at the
 *    usual locations and then on PATH.
 * 3. The Chromium inside the `@sparticuz/chromium` dev dependency: always there after
 *    `npm install`, so `npm test` needs nothing but Node. It comes last because it is a fixed
 *    build for Linux x64 that is unpacked (about 200 MB) into the temp folder on first use.
 *
 * `PORTAL_TEST_BROWSER=bundled` uses only the third (CI sets it, to prove that a fresh machine
 * works) and `PORTAL_TEST_BROWSER=system` only the second. Playwright's own browser download is
 * never used.
 */

export type BrowserSource = 'CHROMIUM_PATH' | 'system' | 'bundled';

export interface ResolvedBrowser {
  path: string;
  source: BrowserSource;
}

const SYSTEM_LOCATIONS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function fail(message: string): never {
  throw new Error(`Browser journeys: ${message}`);
}

/** The `PORTAL_TEST_BROWSER` setting; unset or empty means the whole order. */
function forcedSource(env: NodeJS.ProcessEnv): 'bundled' | 'system' | undefined {
  const value = env.PORTAL_TEST_BROWSER?.trim() ?? '';
  if (value === '') return undefined;
  if (value === 'bundled' || value === 'system') return value;
  return fail(`PORTAL_TEST_BROWSER is "${value}"; use "bundled", "system", or leave it unset.`);
}

function fromChromiumPath(env: NodeJS.ProcessEnv): string | undefined {
  const path = env.CHROMIUM_PATH;
  if (path === undefined || path === '') return undefined;
  if (!isExecutableFile(path)) {
    fail(`CHROMIUM_PATH is set to "${path}", which is not an executable file. Point it at a Chromium or Chrome, or unset it to use a system browser or the bundled one.`);
  }
  return path;
}

function systemBrowser(env: NodeJS.ProcessEnv): string | undefined {
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean);
  const candidates = [...SYSTEM_LOCATIONS, ...onPath.flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name)))];
  return candidates.find(isExecutableFile);
}

async function bundledBrowser(): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(`the Chromium inside @sparticuz/chromium runs on Linux x64 only, not ${process.platform} ${process.arch}. Install Chromium or Chrome, or set CHROMIUM_PATH.`);
  }
  // Unpacks the browser into the temp folder the first time and reuses it afterwards.
  const { default: chromium } = await import('@sparticuz/chromium');
  const path = await chromium.executablePath();
  if (!isExecutableFile(path)) fail(`@sparticuz/chromium gave "${path}", which is not an executable file.`);
  return path;
}

/**
 * The settings' mistakes that need no search: a wrong `PORTAL_TEST_BROWSER` or a `CHROMIUM_PATH`
 * that is not there. The config calls this so that they fail at once, before the portal is built.
 */
export function checkBrowserSettings(env: NodeJS.ProcessEnv = process.env): void {
  if (!forcedSource(env)) fromChromiumPath(env);
}

/** Finds the Chromium for the journeys, or throws an error that says what to change. */
export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<ResolvedBrowser> {
  const forced = forcedSource(env);
  if (forced === 'bundled') return { path: await bundledBrowser(), source: 'bundled' };
  if (forced === 'system') {
    const path = systemBrowser(env);
    if (!path) fail(`PORTAL_TEST_BROWSER=system, but there is no Chromium or Chrome at ${SYSTEM_LOCATIONS.join(', ')} or on PATH.`);
    return { path, source: 'system' };
  }
  const configured = fromChromiumPath(env);
  if (configured) return { path: configured, source: 'CHROMIUM_PATH' };
  const system = systemBrowser(env);
  if (system) return { path: system, source: 'system' };
  return { path: await bundledBrowser(), source: 'bundled' };
}

/**
 * The browser's own version line ("Chromium 153.0.8010.0"); also proves that it starts at all,
 * e.g. that a half-unpacked copy or a missing system library is reported here, once.
 */
export function browserVersion(path: string): string {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.error || result.status !== 0) {
    fail(`"${path} --version" did not run (${result.error?.message ?? `exit code ${String(result.status)}`}). ${output}`.trim());
  }
  return output.split('\n')[0] ?? output;
}

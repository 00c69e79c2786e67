import { browserVersion, resolveChromium } from './browser';

/**
 * Runs once, before any worker starts: finds the browser (e2e/browser.ts) and puts its path in
 * CHROMIUM_PATH, which the workers inherit and playwright.config.ts passes to Playwright. The
 * bundled Chromium must be unpacked, which takes an await that a config file cannot rely on.
 */
export default async function globalSetup(): Promise<void> {
  const { path, source } = await resolveChromium();
  let version: string;
  try {
    version = browserVersion(path);
  } catch (error) {
    if (source !== 'bundled') throw error;
    // A copy left half-unpacked by an interrupted run is reused as it is; say how to get a new one.
    throw new Error(`${(error as Error).message} Delete "${path}" to unpack the bundled Chromium again.`, { cause: error });
  }
  console.log(`Browser journeys: ${version} at ${path} (${source === 'bundled' ? 'from @sparticuz/chromium' : source})`);
  process.env.CHROMIUM_PATH = path;
}

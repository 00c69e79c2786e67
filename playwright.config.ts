import { defineConfig } from '@playwright/test';
import { checkBrowserSettings } from './e2e/browser';
import { IDP_NAME, identityProviderPort } from './e2e/identity-provider';
import { TEST_IDP_CLIENT_ID, TEST_IDP_CLIENT_SECRET } from './src/server/test/oidc-client-settings';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = `e2e/.data/${PORT}`;
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// A wrong CHROMIUM_PATH or PORTAL_TEST_BROWSER fails here, before the portal is built.
checkBrowserSettings();

export default defineConfig({
  testDir: 'e2e',
  outputDir: `test-results/${PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Finds the browser (CHROMIUM_PATH, a system Chromium or Chrome, else the bundled one) and sets
  // CHROMIUM_PATH before the workers start; they load this file again and read it below.
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // The browser's today and the portal's are the same day (PORTAL_TIMEZONE below), and the
    // journeys' midnight guard (e2e/fixtures.ts) keeps them from running across its end.
    timezoneId: 'UTC',
  },
  webServer: {
    // The README's own start command, on a fresh embedded database with demo data. With E2E_PORT
    // set, the build goes to its own folder so that several runs can share a working tree.
    command: process.env.E2E_PORT
      ? `rm -rf ${DATA_DIR} && npx vite build --logLevel warn --outDir ../../dist/web-${PORT} && npx tsx src/server/main.ts`
      : `rm -rf ${DATA_DIR} && npm start`,
    url: `http://localhost:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      PORTAL_DATA_DIR: DATA_DIR,
      PORTAL_DEMO: 'true',
      PORTAL_TIMEZONE: 'UTC',
      LOG_LEVEL: 'warn',
      PORTAL_OIDC_ISSUER: `http://127.0.0.1:${identityProviderPort(PORT)}`,
      PORTAL_OIDC_CLIENT_ID: TEST_IDP_CLIENT_ID,
      PORTAL_OIDC_CLIENT_SECRET: TEST_IDP_CLIENT_SECRET,
      PORTAL_OIDC_NAME: IDP_NAME,
      ...(process.env.E2E_PORT ? { PORTAL_WEB_DIR: `dist/web-${PORT}` } : {}),
    },
  },
});

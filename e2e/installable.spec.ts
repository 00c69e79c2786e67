import { freePort } from '../src/server/test/free-port';
import { auditInstallability, installabilityProblems, type InstallabilityFindings } from './installability';
import { expect, test } from './fixtures';

/**
 * The portal installs as an app (decision 50): Lighthouse 12, through the Node API, in the
 * journeys' Chromium, with the portal's installability audit (e2e/installability.ts) on one page.
 */
test("Lighthouse's installability audit passes on the portal", async ({ playwright, launchOptions, baseURL }) => {
  test.setTimeout(120_000);
  const port = await freePort();
  // The journeys' own browser and flags, with a debugging port for Lighthouse to drive it.
  const browser = await playwright.chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), `--remote-debugging-port=${port}`] });
  try {
    const result = await auditInstallability(`${baseURL}/login`, port);
    expect(result.problems).toEqual([]);
    expect(result.score).toBe(1);
    // It read the server's manifest and loaded its icons at their sizes.
    expect(result.findings.manifestUrl).toBe(`${baseURL}/manifest.webmanifest`);
    expect(result.findings.icons.map((icon) => `${icon.sizes} ${icon.width}x${icon.height} ${icon.type}`)).toEqual([
      '192x192 192x192 image/png',
      '512x512 512x512 image/png',
    ]);
  } finally {
    await browser.close();
  }
});

/** What the page's browser would report for an installable portal; each case below breaks one thing. */
function findings(change: Partial<InstallabilityFindings> & { manifest?: Record<string, unknown> } = {}): InstallabilityFindings {
  const { manifest, ...rest } = change;
  const icon = (size: number) => ({ src: `/icons/icon-${size}.png`, sizes: `${size}x${size}`, purpose: 'any', status: 200, type: 'image/png', width: size, height: size });
  return {
    chromeErrors: [],
    manifestUrl: 'http://localhost/manifest.webmanifest',
    manifestText: JSON.stringify({ name: 'University Portal', short_name: 'Attendance', start_url: '/dashboard', scope: '/', display: 'standalone', ...manifest }),
    parseErrors: [],
    pageUrl: 'http://localhost/login',
    secureContext: true,
    icons: [icon(192), icon(512)],
    ...rest,
  };
}

test('the installability audit fails what a browser would not install', () => {
  expect(installabilityProblems(findings())).toEqual([]);
  expect(installabilityProblems(findings({ manifestUrl: '', manifestText: '' }))).toEqual(['The page names no manifest (<link rel="manifest">)']);
  expect(installabilityProblems(findings({ manifestText: '{"name":', parseErrors: [{ message: 'Line: 1, column: 9, Syntax error.', critical: 1 }] }))).toEqual([
    'The manifest cannot be read: Line: 1, column: 9, Syntax error.',
  ]);
  expect(installabilityProblems(findings({ manifest: { name: '', short_name: '' } }))).toEqual(['The manifest has neither name nor short_name']);
  expect(installabilityProblems(findings({ manifest: { display: 'browser' } }))).toEqual([
    "The manifest's display is browser: an app needs fullscreen, standalone, minimal-ui",
  ]);
  expect(installabilityProblems(findings({ manifest: { display: 'browser', display_override: ['standalone'] } }))).toEqual([]);
  expect(installabilityProblems(findings({ manifest: { start_url: 'https://elsewhere.example/' } }))).toEqual([
    "start_url https://elsewhere.example/ is not on the page's origin",
  ]);
  expect(installabilityProblems(findings({ manifest: { start_url: '/dashboard', scope: '/admin/' } }))).toEqual([
    'start_url http://localhost/dashboard is outside the scope http://localhost/admin/',
  ]);
  expect(installabilityProblems(findings({ manifest: { prefer_related_applications: true } }))).toEqual(['The manifest prefers a store app (prefer_related_applications)']);
  const [small, large] = findings().icons;
  expect(installabilityProblems(findings({ icons: [small!] }))).toEqual(['The manifest has no 512x512 icon for any purpose']);
  expect(installabilityProblems(findings({ icons: [small!, { ...large!, status: 404, type: 'text/html', width: null, height: null }] }))).toEqual([
    'No 512x512 icon loads at that size (/icons/icon-512.png: status 404)',
  ]);
  expect(installabilityProblems(findings({ icons: [small!, { ...large!, width: 256, height: 256 }] }))).toEqual([
    'No 512x512 icon loads at that size (/icons/icon-512.png: 256x256)',
  ]);
  expect(installabilityProblems(findings({ icons: [{ ...small!, purpose: 'maskable' }, large!] }))).toEqual(['The manifest has no 192x192 icon for any purpose']);
  expect(installabilityProblems(findings({ secureContext: false }))).toEqual(['The page is not a secure context (https or localhost)']);
  expect(
    installabilityProblems(findings({ chromeErrors: [{ errorId: 'manifest-missing-suitable-icon', errorArguments: [{ name: 'minimum-icon-size-in-pixels', value: '144' }] }] })),
  ).toEqual(['Chrome: manifest-missing-suitable-icon (minimum-icon-size-in-pixels 144)']);
});

/**
 * Lighthouse (mobile) on /login and /faculty-details against the portal's budgets:
 * performance >= 95 on /login and >= 90 on /faculty-details, layout shift <= 0.05, accessibility 100.
 *
 *   npx tsx bench/lighthouse.ts            the median of three runs per page: print it, and write the
 *                                          section of bench/RESULTS.md
 *   npx tsx bench/lighthouse.ts --runs 1   one run per page (a page's score moves by a few points from run to run)
 *
 * Starts the portal as `npm start` does (the server's build, the demo data on a new data folder),
 * signs in as the demo faculty for /faculty-details, and drives the Chromium the browser journeys
 * use (e2e/browser.ts: CHROMIUM_PATH, a system one, or the one inside @sparticuz/chromium) with
 * Lighthouse's default mobile settings (simulated slow 4G and a 4x slower processor).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { resolveChromium } from '../e2e/browser';
import { DEMO_FACULTY } from '../src/server/seed/demo';
import { option } from './args';
import { scratchFolder, stopOnExit } from './children';
import { freePort } from '../src/server/test/free-port';
import { median } from './median';
import { startNodeOptions } from './node-options';
import { machineLine, runDate, writeResultsSection } from './results-file';

const PAGES = [
  { route: '/login', signedIn: false, performance: 95 },
  { route: '/faculty-details', signedIn: true, performance: 90 },
];
const MAX_LAYOUT_SHIFT = 0.05;

/** The flags every Chromium of this project runs with (docs/decisions/0007-test-browser.md). */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    if (Date.now() - started > 180_000) throw new Error(`${what} did not answer within 3 minutes`);
    await delay(100);
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Score {
  performance: number;
  accessibility: number;
  layoutShift: number;
  firstPaintMs: number;
  largestPaintMs: number;
  blockingMs: number;
}

async function main(): Promise<void> {
  const runs = option('runs', 3);
  const folder = scratchFolder('portal-lighthouse-');
  let server: ChildProcess | undefined;
  let chromium: ChildProcess | undefined;
  try {
    const { entry } = await ensureServerBuild();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = stopOnExit(
      spawn(process.execPath, [...startNodeOptions(), entry], {
        env: { ...process.env, PORT: String(port), PORTAL_DATA_DIR: path.join(folder, 'data'), DATABASE_URL: '', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    await waitFor(`${base}/api/health`, server, 'the portal');
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_FACULTY.email, password: DEMO_FACULTY.password, role: 'faculty', remember: false }),
    });
    const cookie = login.headers.getSetCookie().find((value) => value.startsWith('portal_session='))?.split(';')[0];
    if (!cookie) throw new Error(`sign-in failed: ${login.status}`);

    const browser = await resolveChromium();
    const debugPort = await freePort();
    chromium = stopOnExit(
      spawn(browser.path, [...CHROMIUM_FLAGS, `--remote-debugging-port=${debugPort}`, `--user-data-dir=${path.join(folder, 'profile')}`, 'about:blank'], {
        stdio: 'ignore',
      }),
    );
    await waitFor(`http://127.0.0.1:${debugPort}/json/version`, chromium, 'Chromium');

    const scores = new Map<string, Score>();
    for (const page of PAGES) {
      const samples: Score[] = [];
      for (let run = 0; run < runs; run += 1) {
        const result = await lighthouse(
          `${base}${page.route}`,
          {
            port: debugPort,
            logLevel: 'error',
            output: 'json',
            onlyCategories: ['performance', 'accessibility'],
            ...(page.signedIn ? { extraHeaders: { Cookie: cookie } } : {}),
          },
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${page.route}`);
        const { categories, audits, runtimeError } = result.lhr;
        if (runtimeError) throw new Error(`Lighthouse on ${page.route}: ${runtimeError.message}`);
        samples.push({
          performance: Math.round((categories.performance?.score ?? 0) * 100),
          accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
          layoutShift: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
          firstPaintMs: audits['first-contentful-paint']?.numericValue ?? Number.NaN,
          largestPaintMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
          blockingMs: audits['total-blocking-time']?.numericValue ?? Number.NaN,
        });
      }
      const pick = (key: keyof Score) => median(samples.map((sample) => sample[key]));
      scores.set(page.route, {
        performance: pick('performance'),
        accessibility: pick('accessibility'),
        layoutShift: pick('layoutShift'),
        firstPaintMs: pick('firstPaintMs'),
        largestPaintMs: pick('largestPaintMs'),
        blockingMs: pick('blockingMs'),
      });
    }

    const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
    const lines = [
      '| page | performance | accessibility | layout shift | first paint | largest paint | blocking |',
      '|---|---:|---:|---:|---:|---:|---:|',
    ];
    const verdicts: string[] = [];
    for (const page of PAGES) {
      const score = scores.get(page.route)!;
      lines.push(
        `| ${page.route} | ${score.performance} | ${score.accessibility} | ${score.layoutShift.toFixed(3)} | ` +
          `${(score.firstPaintMs / 1000).toFixed(1)} s | ${(score.largestPaintMs / 1000).toFixed(1)} s | ${score.blockingMs.toFixed(0)} ms |`,
      );
      verdicts.push(
        `- ${page.route}: performance ${score.performance} (target >= ${page.performance}: ${mark(score.performance >= page.performance)}), ` +
          `layout shift ${score.layoutShift.toFixed(3)} (target <= ${MAX_LAYOUT_SHIFT}: ${mark(score.layoutShift <= MAX_LAYOUT_SHIFT)}), ` +
          `accessibility ${score.accessibility} (target 100: ${mark(score.accessibility === 100)})`,
      );
    }
    const section = [
      '## Lighthouse (mobile)',
      '',
      `\`npx tsx bench/lighthouse.ts\` on ${runDate()}, ${runs === 1 ? 'one run' : `the median of ${runs} runs`} per page, ` +
        `Lighthouse's default mobile settings, ${browser.source === 'bundled' ? 'the Chromium of @sparticuz/chromium' : 'a system Chromium'}; ${machineLine()}.`,
      '',
      lines.join('\n'),
      '',
      verdicts.join('\n'),
    ].join('\n');
    console.log(section);
    console.log(`\nwritten to ${path.relative(process.cwd(), writeResultsSection('lighthouse', section))}`);
  } finally {
    await stop(chromium);
    await stop(server);
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});

/**
 * Checks that the charts library loads only with the pages that draw charts, so the first screen stays light:
 * builds the web app into a temporary folder (or reads `--dir <built web folder>`), follows the
 * static imports of the login page's first load, and fails when any of those files holds code
 * from recharts or @mantine/charts, or when the login page's CSS holds the charts' styles.
 *
 *   npx tsx bench/check-chunks.ts            build, then check
 *   npx tsx bench/check-chunks.ts --dir dist/web
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';

const CHART_SOURCES = /node_modules\/(recharts|@mantine\/charts)\//;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** Files named by `import ... from "./x.js"` and `import "./x.js"`: loaded before the module runs. */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    found.add(match[1]!.slice(2));
  }
  return [...found];
}

function closure(assets: string, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of staticImports(readFileSync(path.join(assets, file), 'utf8'))) queue.push(next);
  }
  return seen;
}

/** Whether a built file holds chart code, read from its source map (minified code names nothing). */
function holdsCharts(assets: string, file: string): boolean {
  const map = path.join(assets, `${file}.map`);
  if (existsSync(map)) {
    const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
    return sources.some((source) => CHART_SOURCES.test(source));
  }
  return /recharts/.test(readFileSync(path.join(assets, file), 'utf8'));
}

async function main(): Promise<void> {
  let dir = argument('--dir');
  let temporary: string | undefined;
  if (!dir) {
    temporary = mkdtempSync(path.join(tmpdir(), 'portal-chunks-'));
    dir = temporary;
    await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  }
  try {
    const assets = path.join(dir, 'assets');
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    const entryScripts = [...html.matchAll(/<script[^>]+src="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
    const entryStyles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/assets\/([^"]+\.css)"/g)].map((m) => m[1]!);
    const files = readdirSync(assets);
    const loginChunk = files.find((file) => /^login-page-[\w-]+\.js$/.test(file));
    const chartPage = files.find((file) => /^faculty-details-page-[\w-]+\.js$/.test(file));
    if (entryScripts.length === 0 || !loginChunk || !chartPage) {
      throw new Error('cannot find the entry script, the login page chunk or the faculty-details chunk in the build');
    }

    const loginLoad = closure(assets, [...entryScripts, loginChunk]);
    const withCharts = [...loginLoad].filter((file) => holdsCharts(assets, file));
    // The check must be able to fail: the dashboard's own chunks do hold the charts.
    const dashboardHasCharts = [...closure(assets, [chartPage])].some((file) => holdsCharts(assets, file));

    const chartClasses = new Set(
      [...readFileSync('node_modules/@mantine/charts/styles.css', 'utf8').matchAll(/\.(m_[0-9a-f]{8})\b/g)].map((m) => m[1]!),
    );
    const stylesWithCharts = entryStyles.filter((file) => {
      const css = readFileSync(path.join(assets, file), 'utf8');
      return [...chartClasses].some((name) => css.includes(name));
    });

    const kib = (list: Iterable<string>) =>
      ([...list].reduce((sum, file) => sum + readFileSync(path.join(assets, file)).length, 0) / 1024).toFixed(1);
    console.log(`login page first load: ${loginLoad.size} scripts, ${kib(loginLoad)} KiB (${[...loginLoad].sort().join(', ')})`);
    console.log(`faculty-details chunk holds the charts: ${dashboardHasCharts ? 'yes' : 'no'}`);

    const problems: string[] = [];
    if (withCharts.length > 0) problems.push(`the login page loads chart code in ${withCharts.join(', ')}`);
    if (stylesWithCharts.length > 0) problems.push(`the login page's CSS holds chart styles: ${stylesWithCharts.join(', ')}`);
    if (!dashboardHasCharts) problems.push('no chart code found in the faculty-details chunks: the check cannot see recharts');
    if (problems.length > 0) {
      for (const problem of problems) console.error(`FAIL: ${problem}`);
      process.exitCode = 1;
    } else {
      console.log('OK: recharts and the chart styles load only with the chart pages');
    }
  } finally {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

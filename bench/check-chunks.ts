/**
 * Checks that the charts library loads only with the pages that draw charts, so the first screen stays light:
 * builds the web app into a temporary folder (or reads `--dir <built web folder>`), follows the
 * static imports of the login page's first load (the entry), and fails when any of those files holds code
 * from recharts or @mantine/charts, or when the login page's CSS holds the charts' styles.
 *
 *   npx tsx bench/check-chunks.ts            build, then check
 *   npx tsx bench/check-chunks.ts --dir dist/web
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { closure, withBuiltWeb } from './built-web';

const CHART_SOURCES = /node_modules\/(recharts|@mantine\/charts)\//;

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
  await withBuiltWeb(({ assets, entryScripts, entryStyles }) => {
    if (entryScripts.length === 0) throw new Error('cannot find the entry script in the build');

    // The sign-in page shows from the entry alone (src/web/app/sign-in-shell.tsx).
    const loginLoad = closure(assets, entryScripts);
    const withCharts = [...loginLoad].filter((file) => holdsCharts(assets, file));
    // The check must be able to fail: the build does hold the charts (loaded by the report pages).
    const dashboardHasCharts = readdirSync(assets).some((file) => file.endsWith('.js') && holdsCharts(assets, file));

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
    console.log(`the build holds the charts: ${dashboardHasCharts ? 'yes' : 'no'}`);

    const problems: string[] = [];
    if (withCharts.length > 0) problems.push(`the login page loads chart code in ${withCharts.join(', ')}`);
    if (stylesWithCharts.length > 0) problems.push(`the login page's CSS holds chart styles: ${stylesWithCharts.join(', ')}`);
    if (!dashboardHasCharts) problems.push('no chart code found in the build: the check cannot see recharts');
    if (problems.length > 0) {
      for (const problem of problems) console.error(`FAIL: ${problem}`);
      process.exitCode = 1;
    } else {
      console.log('OK: recharts and the chart styles load only with the chart pages');
    }
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

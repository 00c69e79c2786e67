import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { modulesOfPage, PAGE_MODULES, type PageSegment } from '../../web/app/page-modules';
import {
  BUILD_STAMP_FILE,
  isWebBuildFresh,
  pageCopies,
  precompressFolder,
  servedBuildSettings,
  WEB_BUILD_SOURCES,
  webBuildDigest,
  webBuildSettings,
  writeBuildStamp,
  type WebBuildSettings,
} from './web-build';

const SOURCES = ['src/web', 'src/shared', 'vite.config.ts', 'postcss.config.cjs', 'package-lock.json'];

let root: string;
let outDir: string;

async function put(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), content);
}

/**
 * What a successful build leaves: index.html, then the stamp of the sources it read and the
 * settings it ran with (by default, those of the build npm start makes).
 */
async function build(settings: WebBuildSettings = servedBuildSettings()): Promise<void> {
  const sources = webBuildDigest(root, settings, SOURCES);
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'index.html'), '<!doctype html>');
  writeBuildStamp(outDir, sources);
}

const fresh = () => isWebBuildFresh(root, outDir, SOURCES);

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'portal-build-'));
  outDir = path.join(root, 'dist', 'web');
  await put('src/web/index.html', '<div id="root"></div>');
  await put('src/web/app/router.tsx', 'export const routes = [];');
  await put('src/shared/dates.ts', 'export const today = 1;');
  await put('vite.config.ts', 'export default {};');
  await put('package-lock.json', '{"packages":{"node_modules/react":{"version":"19.3.1"}}}');
  // No postcss.config.cjs: a source that does not exist is not an error.
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('isWebBuildFresh', () => {
  it('is false for a fresh clone (nothing built), true once built, and stays true on an unchanged tree', async () => {
    expect(fresh()).toBe(false);
    await build();
    expect(fresh()).toBe(true);
    expect(fresh()).toBe(true);
  });

  it('is false after a source is changed, added, removed or renamed', async () => {
    await build();
    await put('src/web/app/router.tsx', 'export const routes = ["/login"];');
    expect(fresh()).toBe(false);

    await build();
    await put('src/shared/new-rule.ts', 'export {};');
    expect(fresh()).toBe(false);

    await build();
    await rm(path.join(root, 'src/shared/new-rule.ts'));
    expect(fresh()).toBe(false);

    await build();
    await rm(path.join(root, 'src/shared/dates.ts'));
    await put('src/shared/days.ts', 'export const today = 1;');
    expect(fresh()).toBe(false);

    await build();
    await put('postcss.config.cjs', 'module.exports = {};');
    expect(fresh()).toBe(false);

    await build();
    await put('vite.config.ts', 'export default { build: { sourcemap: false } };');
    expect(fresh()).toBe(false);

    // Another version of a package.
    await build();
    await put('package-lock.json', '{"packages":{"node_modules/react":{"version":"19.3.2"}}}');
    expect(fresh()).toBe(false);
  });

  it('is false for a build made in another mode, with another NODE_ENV or other VITE_ variables', async () => {
    // React's development bundle: what NODE_ENV=development in the environment used to give npm start.
    await build(webBuildSettings('production', { NODE_ENV: 'development' }));
    expect(fresh()).toBe(false);
    await build(webBuildSettings('development', { NODE_ENV: 'production' }));
    expect(fresh()).toBe(false);
    await build(webBuildSettings('production', { ...process.env, NODE_ENV: 'production', VITE_EXTRA: '1' }));
    expect(fresh()).toBe(false);
    // A variable of another name is no setting of the build.
    await build(webBuildSettings('production', { ...process.env, NODE_ENV: 'production', PORTAL_EXTRA: '1' }));
    expect(fresh()).toBe(true);
  });

  it("expects a production build whatever NODE_ENV npm start runs with, and a VITE_ variable's value", async () => {
    await build(webBuildSettings('production', { VITE_TITLE: 'Portal', NODE_ENV: 'production' }));
    for (const NODE_ENV of ['development', 'production', 'test', undefined]) {
      expect(isWebBuildFresh(root, outDir, SOURCES, servedBuildSettings({ NODE_ENV, VITE_TITLE: 'Portal' })), NODE_ENV).toBe(true);
    }
    expect(isWebBuildFresh(root, outDir, SOURCES, servedBuildSettings({ VITE_TITLE: 'Other' }))).toBe(false);
  });

  it('ignores times: a file merely touched (a checkout, a copy) needs no build', async () => {
    await build();
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'src/web/index.html'), later, later);
    expect(fresh()).toBe(true);
  });

  it('is false when the build is incomplete: no stamp (a failed or stopped build), a broken stamp, no index.html', async () => {
    await build();
    await rm(path.join(outDir, BUILD_STAMP_FILE));
    expect(fresh()).toBe(false);

    await build();
    await writeFile(path.join(outDir, BUILD_STAMP_FILE), '{"sources":');
    expect(fresh()).toBe(false);

    await build();
    await rm(path.join(outDir, 'index.html'));
    expect(fresh()).toBe(false);
  });

  it('ignores files outside the sources (the built folder, the server, the data) and test files', async () => {
    await build();
    await put('src/web/app/router.test.tsx', 'it.todo("routes");');
    await put('src/shared/dates.test.ts', 'it.todo("dates");');
    await put('src/server/main.ts', 'export {};');
    await put('data/portal.lock', '123');
    await writeFile(path.join(outDir, 'extra.js'), '');
    expect(fresh()).toBe(true);
  });
});

describe('WEB_BUILD_SOURCES', () => {
  it('names files and folders of this project: a renamed config would otherwise drop out of the digest', () => {
    const project = fileURLToPath(new URL('../../..', import.meta.url));
    expect(WEB_BUILD_SOURCES.filter((entry) => !existsSync(path.join(project, entry)))).toEqual([]);
  });
});

describe('precompressFolder', () => {
  it('writes .br and .gz beside text files of 1 KB or more, and removes a stale copy', async () => {
    const big = `export const x = "${'portal '.repeat(400)}";`;
    await put('out/assets/app-1.js', big);
    await put('out/assets/app-1.css', `.a{color:red}${'.b{margin:0}'.repeat(200)}`);
    await put('out/assets/small-1.js', 'export {};');
    await put('out/assets/small-1.js.br', 'left by an earlier build');
    await put('out/assets/app-1.js.map', JSON.stringify({ mappings: 'AAAA;'.repeat(500) }));
    await put('out/logo.png', 'x'.repeat(2048));
    const out = path.join(root, 'out');

    expect(await precompressFolder(out, 1024)).toBe(2);

    const js = path.join(out, 'assets/app-1.js');
    expect(brotliDecompressSync(await readFile(`${js}.br`)).toString()).toBe(big);
    expect(gunzipSync(await readFile(`${js}.gz`)).toString()).toBe(big);
    expect(existsSync(path.join(out, 'assets/app-1.css.br'))).toBe(true);
    expect(existsSync(path.join(out, 'assets/small-1.js.br'))).toBe(false);
    expect(existsSync(path.join(out, 'assets/small-1.js.gz'))).toBe(false);
    expect(existsSync(path.join(out, 'assets/app-1.js.map.br'))).toBe(false);
    expect(existsSync(path.join(out, 'logo.png.br'))).toBe(false);
  });
});

describe('pageCopies', () => {
  const project = '/project';
  const HTML = ['<!doctype html>', '<html>', '  <head>', '    <script type="module" src="/assets/index-1.js"></script>', '  </head>', '  <body></body>', '</html>', ''].join('\n');
  const chunk = (fileName: string, imports: string[], facade?: string, isEntry = false) => ({
    fileName,
    imports,
    isEntry,
    facadeModuleId: facade ? `${project}/${facade}` : null,
  });
  // The entry and what it imports; the app, which imports the kit and a shared chunk; two pages.
  const chunks = [
    chunk('assets/index-1.js', ['assets/runtime-1.js'], 'src/web/main.tsx', true),
    chunk('assets/runtime-1.js', []),
    chunk('assets/app-1.js', ['assets/ui-1.js', 'assets/runtime-1.js'], 'src/web/app/portal-app.tsx'),
    chunk('assets/ui-1.js', ['assets/runtime-1.js']),
    chunk('assets/shared-1.js', ['assets/ui-1.js']),
    chunk('assets/reports-1.js', ['assets/shared-1.js', 'assets/ui-1.js'], 'src/web/reports.tsx'),
    chunk('assets/inbox-1.js', ['assets/ui-1.js'], 'src/web/inbox.tsx'),
    chunk('assets/charts-1.js', ['assets/ui-1.js'], 'src/web/charts.tsx'),
  ];
  const links = (html: string) => [...html.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

  it("names every script a page's modules load and the entry does not, once each, indented as the head", () => {
    const copies = pageCopies(HTML, chunks, { reports: ['src/web/app/portal-app.tsx', 'src/web/reports.tsx'], inbox: ['src/web/inbox.tsx'] }, { root: project, base: '/' });
    expect([...copies.keys()]).toEqual(['reports', 'inbox']);
    const reports = copies.get('reports')!;
    expect(links(reports)).toEqual(['/assets/app-1.js', '/assets/ui-1.js', '/assets/reports-1.js', '/assets/shared-1.js']);
    // Nothing loaded later (charts) and nothing of the entry's; the rest of the page as it was.
    expect(reports).not.toContain('charts-1');
    expect(reports).not.toContain('runtime-1');
    expect(reports).toContain('    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/app-1.js">\n');
    expect(reports.replace(/ *<link[^>]+>\n/g, '')).toBe(HTML);
    expect(links(copies.get('inbox')!)).toEqual(['/assets/inbox-1.js', '/assets/ui-1.js']);
  });

  it('puts the mark before the links', () => {
    const copy = pageCopies(HTML, chunks, { inbox: ['src/web/inbox.tsx'] }, { root: project, base: '/', mark: '<meta name="signed-in">' }).get('inbox')!;
    expect(copy).toContain('    <meta name="signed-in">\n    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/inbox-1.js">\n');
  });

  it('puts the base before each file, and fails when a module is not a chunk of its own', () => {
    expect(links(pageCopies(HTML, chunks, { inbox: ['src/web/inbox.tsx'] }, { root: project, base: '/portal/' }).get('inbox')!)).toEqual([
      '/portal/assets/inbox-1.js',
      '/portal/assets/ui-1.js',
    ]);
    expect(() => pageCopies(HTML, chunks, { gone: ['src/web/gone.tsx'] }, { root: project, base: '/' })).toThrow(/gone\.tsx is not a chunk of its own/);
    expect(() => pageCopies('<p>no head</p>', chunks, {}, { root: project, base: '/' })).toThrow(/no <\/head>/);
  });

  it("names this project's page modules: every one exists", () => {
    const web = fileURLToPath(new URL('../../web', import.meta.url));
    const modules = (Object.keys(PAGE_MODULES) as PageSegment[]).flatMap((segment) => modulesOfPage(segment));
    expect(modules.filter((module) => !existsSync(path.join(web, module)))).toEqual([]);
  });
});

/**
 * The web app's build as the server delivers it (docs/decisions/0011-http-delivery.md):
 *
 * - at build time, a `.br` and a `.gz` beside each text file of 1 KB or more (the server's
 *   compression threshold, handed in by vite.config.ts), so the server sends them without
 *   compressing anything per request (`webBuildPlugin`);
 * - for each page a signed-in browser opens, a copy of index.html that names the files the page
 *   loads before it shows, to be fetched beside the entry (`pageCopies`);
 * - a build stamp holding a digest of everything the build reads and of the settings it ran with
 *   (Vite's mode, NODE_ENV), written last, so `npm start` rebuilds only when a source or a setting
 *   differs from those of the build it serves (`isWebBuildFresh`), which is always a production
 *   one (`webBuildCommand`).
 *
 * Loaded by vite.config.ts and by `npm start` before the server: it imports nothing heavy.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { sourcesDigest } from '../../../scripts/source-digest.mjs';

/** Where `vite build` writes the web app, from the project folder. */
export const WEB_OUT_DIR = 'dist/web';

/**
 * Beside index.html, the build's copies of it for the pages a signed-in browser opens, each naming
 * the files its page loads (`pageCopies`): `pages/faculty-details.html`. Sent in place of
 * index.html, never by their own names.
 */
export const PAGE_COPIES_FOLDER = 'pages';

/** Beside index.html: the digest of the sources it was built from. A dotfile: never served. */
export const BUILD_STAMP_FILE = '.build-stamp.json';

/**
 * What the build reads, from the project folder. Folders are read whole but for their test files
 * (never part of the bundle); a file too many costs a rebuild, a file
 * forgotten a stale page. The lock file stands for the installed packages, this file and
 * compression.ts (its threshold) for the pre-compression.
 */
export const WEB_BUILD_SOURCES = [
  'src/web',
  'src/shared',
  'vite.config.ts',
  'postcss.config.cjs',
  'tsconfig.json',
  'package-lock.json',
  'src/server/plugins/web-build.ts',
  'src/server/plugins/compression.ts',
  'scripts/source-digest.mjs',
];

/** Text files worth compressing. Source maps are left to the server: only developer tools load them. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/** The mode, and NODE_ENV, of the build `npm start` makes and serves, whatever the environment says. */
export const SERVED_MODE = 'production';

/** The variables of the environment that Vite hands the web app's code (import.meta.env). */
const VITE_VARIABLE = /^VITE_/;

/** What besides the files decides the build's output. */
export interface WebBuildSettings {
  /** Vite's mode (`--mode`): which `.env` files it reads, `import.meta.env.MODE`. */
  mode: string;
  /** NODE_ENV as the build saw it: `production` takes React's production bundle, anything else its development one. */
  nodeEnv: string;
  /** The environment's `VITE_` variables, sorted by name. */
  viteEnv: Record<string, string>;
}

/** The settings of a build in `mode` run in `environment`. */
export function webBuildSettings(mode: string, environment: NodeJS.ProcessEnv): WebBuildSettings {
  const viteEnv = Object.entries(environment)
    .filter((entry): entry is [string, string] => VITE_VARIABLE.test(entry[0]) && entry[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { mode, nodeEnv: environment.NODE_ENV ?? '', viteEnv: Object.fromEntries(viteEnv) };
}

/** The environment `webBuildCommand` runs the build in: this one, NODE_ENV production. */
function servedEnvironment(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...environment, NODE_ENV: SERVED_MODE };
}

/** The settings of the build `npm start` makes in `environment` (`webBuildCommand`). */
export function servedBuildSettings(environment: NodeJS.ProcessEnv = process.env): WebBuildSettings {
  return webBuildSettings(SERVED_MODE, servedEnvironment(environment));
}

/**
 * How `npm start` builds the web app: Vite's command line, run by this Node.js from the project
 * folder `root`, in production mode and with NODE_ENV production whatever `environment` says (with
 * `NODE_ENV=development` Vite would build React's development bundle, much heavier).
 */
export function webBuildCommand(root: string, environment: NodeJS.ProcessEnv = process.env): { args: string[]; env: NodeJS.ProcessEnv } {
  return { args: [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', SERVED_MODE], env: servedEnvironment(environment) };
}

interface BuildStamp {
  sources: string;
}

/**
 * The digest of the web build's sources under `root` and of its settings
 * (scripts/source-digest.mjs): what the build stamp holds.
 */
export function webBuildDigest(root: string, settings: WebBuildSettings, sources: readonly string[] = WEB_BUILD_SOURCES): string {
  return sourcesDigest(root, sources, settings);
}

function readStamp(outDir: string): BuildStamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(path.join(outDir, BUILD_STAMP_FILE), 'utf8')) as Partial<BuildStamp>;
    return typeof stamp.sources === 'string' ? { sources: stamp.sources } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the build in `outDir` is complete and was made from the sources as they are now under
 * `root`, with the settings given (by default, those of the build `npm start` makes): its
 * index.html and stamp exist (the stamp is written last, so a build that failed or was stopped has
 * none) and the stamp's digest is today's.
 */
export function isWebBuildFresh(
  root: string,
  outDir: string,
  sources: readonly string[] = WEB_BUILD_SOURCES,
  settings: WebBuildSettings = servedBuildSettings(),
): boolean {
  try {
    if (!statSync(path.join(outDir, 'index.html')).isFile()) return false;
  } catch {
    return false;
  }
  const stamp = readStamp(outDir);
  return stamp !== undefined && stamp.sources === webBuildDigest(root, settings, sources);
}

export function writeBuildStamp(outDir: string, sources: string): void {
  const stamp: BuildStamp = { sources };
  writeFileSync(path.join(outDir, BUILD_STAMP_FILE), `${JSON.stringify(stamp)}\n`);
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const item of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, item.name);
    if (item.isDirectory()) found.push(...(await filesUnder(full)));
    else if (item.isFile()) found.push(full);
  }
  return found;
}

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip, level 9) beside each text file of
 * `minBytes` or more under `folder`, each only when smaller than the original. Returns how many
 * files were compressed.
 */
export async function precompressFolder(folder: string, minBytes: number): Promise<number> {
  const files = (await filesUnder(folder)).filter((file) => COMPRESSIBLE.test(file));
  let count = 0;
  // Two at a time: zlib works on the thread pool, and the machine may be busy with more than this.
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      // A sibling left by an earlier build into the same folder must not outlive its original.
      await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
      if ((await stat(file)).size < minBytes) continue;
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < content.length) await writeFile(`${file}.br`, br);
      if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
      count += 1;
    }
  };
  await Promise.all([worker(), worker()]);
  return count;
}

/** A chunk of the bundle as `pageCopies` reads it. */
interface BundleChunk {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
}

interface PageCopyOptions {
  /** The project folder, which the pages' module paths are from. */
  root: string;
  /** The web app's base address (Vite's `base`), before each file's name. */
  base: string;
  /** A tag each copy has before its links (the sign-in mark, app/page-modules.ts). */
  mark?: string | undefined;
}

/**
 * The copies of index.html for each page (`pages`: the page's first segment, and the modules the
 * app's start loads for it, as paths from the project folder), each with a `<link
 * rel="modulepreload">` for every script those modules load that the entry does not: the browser
 * fetches them while it fetches and runs the entry, instead of once the entry asks for them, a round
 * of requests less before the page shows on a slow link (docs/decisions/0019). At low priority, so
 * that the entry and its style sheet, which show the first screen, come first. Fails when a module
 * is not a chunk of its own: the page would silently lose its preloads.
 */
export function pageCopies(
  indexHtml: string,
  chunks: readonly BundleChunk[],
  pages: Readonly<Record<string, readonly string[]>>,
  { root, base, mark = '' }: PageCopyOptions,
): Map<string, string> {
  const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [path.resolve(c.facadeModuleId!), c]));
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const loaded = (roots: string[]) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const next of byFile.get(file)?.imports ?? []) visit(next);
    };
    roots.forEach(visit);
    return seen;
  };
  const withEntry = loaded(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
  if (!/<\/head>/.test(indexHtml)) throw new Error('index.html has no </head>');
  const copies = new Map<string, string>();
  for (const [segment, modules] of Object.entries(pages)) {
    const roots = modules.map((module) => {
      const chunk = byModule.get(path.resolve(root, module));
      if (!chunk) throw new Error(`The page ${segment}: ${module} is not a chunk of its own`);
      return chunk.fileName;
    });
    const links = [...loaded(roots)]
      .filter((file) => !withEntry.has(file))
      .map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${base}${file}">`);
    if (mark) links.unshift(mark);
    // Indented as the head's other lines.
    copies.set(
      segment,
      indexHtml.replace(/([ \t]*)<\/head>/, (_end, indent: string) => `${links.map((link) => `${indent}  ${link}\n`).join('')}${indent}</head>`),
    );
  }
  return copies;
}

/**
 * The Vite plugin: when the build starts, removes the old stamp (only a build that completes has
 * one) and reads the digest of the sources and of the settings the build runs with (a file edited
 * during the build then makes the next start rebuild, and so does a build in another mode); once
 * the bundle is made, adds the pages' copies of index.html; once every file is written, the public
 * folder's too, pre-compresses them and writes the stamp.
 */
export function webBuildPlugin({
  root,
  minBytes,
  pages = {},
  mark,
}: {
  root: string;
  minBytes: number;
  /** By page (its first segment): the modules the app's start loads for it, from `root` (see `pageCopies`). */
  pages?: Readonly<Record<string, readonly string[]>>;
  /** A tag in each page's copy, before its links. */
  mark?: string;
}): Plugin {
  let outDir = '';
  let base = '/';
  let write = true;
  let settings: WebBuildSettings | undefined;
  let sources = '';
  let log: (message: string) => void = () => undefined;
  return {
    name: 'portal-web-build',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      write = config.build.write;
      base = config.base;
      log = (message) => config.logger.info(message);
      // Once Vite has read the configuration, NODE_ENV is what it builds with (it sets it when unset).
      settings = webBuildSettings(config.mode, process.env);
    },
    buildStart() {
      if (write) rmSync(path.join(outDir, BUILD_STAMP_FILE), { force: true });
      if (!settings) throw new Error('The build started before its configuration was read');
      sources = webBuildDigest(root, settings);
    },
    generateBundle: {
      // After the HTML plugin has written index.html into the bundle.
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset' || Object.keys(pages).length === 0) return;
        const html = typeof index.source === 'string' ? index.source : new TextDecoder().decode(index.source);
        const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
        for (const [segment, source] of pageCopies(html, chunks, pages, { root, base, mark })) {
          this.emitFile({ type: 'asset', fileName: `${PAGE_COPIES_FOLDER}/${segment}.html`, source });
        }
      },
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const count = await precompressFolder(outDir, minBytes);
        writeBuildStamp(outDir, sources);
        log(`pre-compressed ${count} files (.br and .gz)`);
      },
    },
  };
}

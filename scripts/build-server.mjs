/**
 * The server's build: src/server/start.ts and everything it imports,
 * bundled by esbuild into one folder of JavaScript per version of the sources,
 * `dist/server/<digest>/start.js`, with the packages it imports but for KEPT_PACKAGES. `npm start`
 * runs it, so no TypeScript is compiled at start (docs/decisions/0015-built-server.md).
 *
 *   node scripts/build-server.mjs     build unless the sources' build exists (npm run build)
 *
 * A build is written to a temporary folder and renamed into place when complete, so a stopped
 * build leaves nothing that looks finished. Each version has its own folder, because a server
 * still running an older version may yet load one of its chunks; the newest few are kept.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourcesDigest } from './source-digest.mjs';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the builds go, from the project folder. */
export const SERVER_OUT_DIR = 'dist/server';

/**
 * What the bundle is made of, from the project folder (test files never are). The lock file
 * stands for the packages: they stay in node_modules, but their versions decide the imports.
 */
export const SERVER_BUILD_SOURCES = [
  'src/server',
  'src/shared',
  'scripts/build-server.mjs',
  'scripts/source-digest.mjs',
  'tsconfig.json',
  'package-lock.json',
];

/**
 * Packages left in node_modules and loaded from there: those that read files of their own beside
 * their code in ways a bundle cannot follow (PGlite's WebAssembly, the PDF fonts), those with
 * native code, and those loaded only on use (mail, single sign-on, password strength, photos,
 * PostgreSQL's driver and job queue when the portal runs on the embedded database). Every other
 * package the server imports is bundled into its build.
 */
export const KEPT_PACKAGES = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  '@zxcvbn-ts/core',
  '@zxcvbn-ts/language-common',
  '@zxcvbn-ts/language-en',
  'graphile-worker',
  'nodemailer',
  'openid-client',
  'pdfkit',
  'pg',
  'sharp',
];

/**
 * Bundled packages that find files of their own from `__dirname` (the API documentation's pages
 * and logo), which an ES module lacks: there, `__dirname` becomes the package's folder in
 * node_modules, looked up when the code runs, as an import of the package would be.
 */
const OWN_FILES_PACKAGES = ['@fastify/swagger-ui'];

const ownFilesPlugin = {
  name: 'packages-own-files',
  setup(build) {
    for (const name of OWN_FILES_PACKAGES) {
      const folder = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
      const escaped = folder.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
      build.onLoad({ filter: new RegExp(`${escaped}.*\\.js$`) }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!/\b__dirname\b/.test(source)) return undefined;
        const root = args.path.slice(0, args.path.lastIndexOf(folder) + folder.length);
        const within = path.relative(root, path.dirname(args.path)).split(path.sep).join('/');
        const at = `require("node:path").join(require("node:path").dirname(require.resolve(${JSON.stringify(`${name}/package.json`)})), ${JSON.stringify(within)})`;
        return { contents: source.replace(/\b__dirname\b/g, `(${at})`), loader: 'js' };
      });
    }
  },
};

/** Builds kept: the current one and the two before it. */
const KEEP = 3;

/** The folder of the build of the sources as they are now under `root`. */
export function serverBuildFolder(root = PROJECT_ROOT) {
  const digest = sourcesDigest(root, SERVER_BUILD_SOURCES).slice('sha256:'.length);
  return path.join(root, SERVER_OUT_DIR, digest.slice(0, 16));
}

function pruneOlderBuilds(root, current) {
  const parent = path.join(root, SERVER_OUT_DIR);
  const builds = readdirSync(parent, { withFileTypes: true })
    .filter((item) => item.isDirectory())
    .map((item) => path.join(parent, item.name))
    .filter((folder) => folder !== current);
  // Leftovers of stopped builds, and all but the newest KEEP - 1 others.
  const finished = builds.filter((folder) => !folder.includes('.tmp-'));
  for (const folder of builds.filter((f) => f.includes('.tmp-'))) rmSync(folder, { recursive: true, force: true });
  finished.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const folder of finished.slice(KEEP - 1)) rmSync(folder, { recursive: true, force: true });
}

/**
 * The entry of the server's build for the sources under `root`, built first when missing.
 * `built` says whether this call built it.
 */
export async function ensureServerBuild(root = PROJECT_ROOT) {
  const folder = serverBuildFolder(root);
  const entry = path.join(folder, 'start.js');
  if (existsSync(entry)) return { entry, built: false };
  const { build, stop } = await import('esbuild');
  const temporary = `${folder}.tmp-${process.pid}`;
  rmSync(temporary, { recursive: true, force: true });
  try {
    await buildInto(build, root, temporary);
  } finally {
    // esbuild's own process stays until this one exits unless stopped: for npm start, the life of
    // the server (it held some 180 MB). A later build starts it again.
    await stop();
  }
  try {
    renameSync(temporary, folder);
  } catch (err) {
    // Another start built the same sources at the same moment: theirs is as good.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(entry)) throw err;
  }
  pruneOlderBuilds(root, folder);
  return { entry, built: true };
}

/** The server's bundle of the sources under `root`, written to `outdir`. */
function buildInto(build, root, outdir) {
  return build({
    absWorkingDir: root,
    entryPoints: { start: 'src/server/start.ts' },
    outdir,
    bundle: true,
    // main.ts and the rest load only once the data folder is locked: separate chunks.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The packages are bundled too: loading one file instead of the hundreds of small ones that
    // Fastify, Drizzle and Zod are made of took some 0.3 s off a start. Left in node_modules: those
    // in KEPT_PACKAGES. Bundled CommonJS calls `require`, which an ES module lacks: each file
    // makes its own.
    external: KEPT_PACKAGES.flatMap((name) => [name, `${name}/*`]),
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [ownFilesPlugin],
    sourcemap: 'linked',
    // Without spaces and with shorter syntax, names kept (stack traces still name the functions):
    // a bundle's text stays in memory, and the unminified one weighed some 10 MB more at idle.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const started = Date.now();
  ensureServerBuild()
    .then(({ entry, built }) => {
      const where = path.relative(PROJECT_ROOT, entry);
      console.log(built ? `built the server in ${Date.now() - started} ms: ${where}` : `the server's build is up to date: ${where}`);
    })
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    });
}

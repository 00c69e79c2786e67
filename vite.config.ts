import { fileURLToPath } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { COMPRESS_THRESHOLD_BYTES } from './src/server/plugins/compression.js';
import { COLOR_SCHEME_SCRIPT } from './src/shared/color-scheme-script.js';
import { webBuildPlugin } from './src/server/plugins/web-build.js';
import { linguiMacros } from './scripts/lingui-macros.mjs';
import { modulesOfPage, PAGE_MODULES, SIGNED_IN_META, type PageSegment } from './src/web/app/page-modules.js';

/** The project folder, wherever the build is started from. */
const projectRoot = fileURLToPath(new URL('.', import.meta.url));

/** What the app's start loads for each page, from the project folder: named in the page's copy of index.html. */
const pages = Object.fromEntries((Object.keys(PAGE_MODULES) as PageSegment[]).map((segment) => [segment, modulesOfPage(segment).map((module) => `src/web/${module}`)]));

export default defineConfig(({ command }) => ({
  root: 'src/web',
  // Pre-compressed .br and .gz files beside the built ones, each page's copy of index.html naming
  // its files, and the stamp that lets `npm start` skip the build when nothing changed
  // (src/server/plugins/web-build.ts).
  resolve: {
    // React Router's package resolves to its development build for every bundler; the build takes
    // the production one, without the development warnings (about a fifth smaller).
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL('node_modules/react-router/dist/production/index.mjs', import.meta.url)) }] : [],
  },
  plugins: [
    // Messages: the macros in the code become runtime calls; the catalogs (.po) compile when
    // imported, and a missing or broken translation fails the build (lingui.config.ts).
    linguiMacros(),
    lingui({ failOnMissing: true, failOnCompileError: true }),
    react(),
    webBuildPlugin({ root: projectRoot, minBytes: COMPRESS_THRESHOLD_BYTES, pages, mark: `<meta name="${SIGNED_IN_META}" content="">` }),
    // The service worker (app/service-worker.ts registers it): the app's files kept on the device,
    // so that a reload without a connection opens the portal, any of its addresses answered with
    // index.html. The manifest is the server's (it carries the branding), the API never cached here
    // (the register page keeps its own answers: features/attendance/api/kept-get.ts).
    VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      manifest: false,
      filename: 'sw.js',
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // The pages' copies of index.html are never served by their own names (src/server/app.ts).
        globIgnores: ['pages/**', '**/*.map'],
        // Hashed names: their address changes with their content.
        dontCacheBustURLsMatching: /^assets\//,
        navigateFallback: '/index.html',
        // The server's own addresses: the API (its sign-in redirects too), a check-in QR's link, the metrics.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/c\//, /^\/metrics$/, /^\/manifest\.webmanifest$/],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    // Light or dark is decided before the first paint (the server's policy allows this script by hash).
    { name: 'color-scheme-script', transformIndexHtml: () => [{ tag: 'script', children: COLOR_SCHEME_SCRIPT, injectTo: 'head-prepend' }] },
  ],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 800,
    // A few larger chunks instead of one per set of pages sharing a module (docs/decisions/0019):
    // on a slow link each file costs a round trip, and /faculty-details loaded 46 of them.
    rolldownOptions: {
      output: {
        // A language's messages are named for it (messages-hi-start-<hash>.js): the page-weight
        // benchmark adds the sign-in page's part to /login's weight in each language.
        chunkFileNames: (chunk) => {
          const catalog = /[\\/]locales[\\/](\w+)[\\/](\w+)\.po$/.exec(chunk.facadeModuleId ?? '') ?? /[\\/]i18n[\\/]catalogs[\\/](\w+)\.ts$/.exec(chunk.facadeModuleId ?? '');
          if (catalog) return `assets/messages-${catalog[1]}-${catalog[2] ?? 'app'}-[hash].js`;
          return 'assets/[name]-[hash].js';
        },
        codeSplitting: {
          groups: [
            // What the entry needs (the sign-in page and every start): the entry's one file.
            { name: 'initial', tags: ['$initial'], priority: 30 },
            // The kit and the app's libraries that the signed-in pages use, as they use them: one
            // file, cached once. Libraries a page loads on demand (charts, dates, QR codes,
            // notifications) are not named here and keep their own files.
            {
              name: 'ui',
              test: /node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui|@tabler|@tanstack|react-router|zod|react-remove-scroll|react-number-format|react-textarea-autosize|use-callback-ref|use-sidecar|tslib|get-nonce|detect-node-es|aria-hidden|clsx|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            // The app's own modules that more than one page uses: one file. Not the date field: it
            // brings the date picker's library, which only the pages with a date load.
            {
              name: 'shared',
              test: /[\\/]src[\\/](web|shared)[\\/](?!components[\\/]date-field)/,
              minShareCount: 2,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev:web` serves the app with hot reload; the API runs in `npm run dev`.
    proxy: { '/api': 'http://localhost:3000' },
  },
}));

/** How long browsers and caches keep the web app's files (decision 11). */
import path from 'node:path';

/** Built assets carry a content hash in their names and never change. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The page that names the current assets: the browser asks again every time (a 304 when unchanged). */
export const PAGE_CACHE = 'no-cache';
/** The web app's other files (favicon, default avatar): unhashed names, so only a short while. */
export const OTHER_FILE_CACHE = 'public, max-age=3600';

/** The service worker the build writes (vite.config.ts). */
export const SERVICE_WORKER_FILE = 'sw.js';

/** The name of a pre-compressed file's original: `app-1a2b.js.br` -> `app-1a2b.js`. */
function originalName(filePath: string): string {
  return filePath.replace(/\.(br|gz)$/, '');
}

/**
 * The `Cache-Control` of a file of the built web app, by its path on disk (a pre-compressed
 * `.br` or `.gz` counts as its original): hashed files under `assets/` are kept a year,
 * `index.html`, its copies for each page and the service worker are checked at every load, anything else an hour.
 */
export function webFileCacheControl(webDir: string, filePath: string): string {
  const relative = path.relative(webDir, originalName(filePath)).split(path.sep);
  if (relative.length > 1 && relative[0] === 'assets') return IMMUTABLE_CACHE;
  if (relative.at(-1)?.endsWith('.html')) return PAGE_CACHE;
  // The service worker names the app's files: checked at every load, as index.html, so that a new release reaches the device.
  if (relative.length === 1 && relative[0] === SERVICE_WORKER_FILE) return PAGE_CACHE;
  return OTHER_FILE_CACHE;
}

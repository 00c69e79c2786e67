/**
 * A digest of the files a build reads: their paths and contents, so that a changed, added,
 * removed or renamed file changes it, and a file merely touched (a checkout, a copy) does not.
 *
 * Plain JavaScript: `npm start` (scripts/start.mjs) checks the server's build with it before
 * anything is built, and the web build (src/server/plugins/web-build.ts) stamps its output with it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Test files are never part of a build. */
const TEST_FILE = /\.test\.tsx?$/;

/** Every file under `entry` (a file or a folder), as paths from `root` with `/`. */
function listFiles(root, entry) {
  let isFolder;
  try {
    isFolder = statSync(path.join(root, entry)).isDirectory();
  } catch {
    return []; // A source that does not exist (a config file removed) is simply not part of the digest.
  }
  if (!isFolder) return [entry];
  const files = [];
  for (const item of readdirSync(path.join(root, entry), { withFileTypes: true })) {
    const child = `${entry}/${item.name}`;
    if (item.isDirectory()) files.push(...listFiles(root, child));
    else if (item.isFile() && !TEST_FILE.test(item.name)) files.push(child);
  }
  return files;
}

/**
 * `sha256:<hex>` over every file of `sources` (files or folders, from `root`; folders whole but
 * for their test files), in path order, then over `settings` when given: what else the build's
 * output depends on (the web build's mode and environment), as JSON.
 */
export function sourcesDigest(root, sources, settings) {
  const files = sources.flatMap((entry) => listFiles(root, entry)).sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const content = readFileSync(path.join(root, file));
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  if (settings !== undefined) hash.update(`\0settings\0${JSON.stringify(settings)}`);
  return `sha256:${hash.digest('hex')}`;
}

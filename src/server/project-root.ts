/**
 * The project folder (package.json, drizzle/, dist/), found upwards from this module: it is in
 * src/server when run from the sources and in dist/server/<build> when run from the server's
 * build, so no fixed number of `..` would do for both.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(from: string): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json')) && existsSync(path.join(folder, 'drizzle'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`Cannot find the portal's project folder above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

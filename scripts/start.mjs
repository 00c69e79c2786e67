/**
 * npm start: the server's built JavaScript (scripts/build-server.mjs), built first when its
 * sources changed, then src/server/start.ts as built: the data folder's lock, the web app's
 * build when stale, and the server (decisions 9, 15 and 27).
 *
 * The build has source maps: `NODE_OPTIONS=--enable-source-maps npm start` makes stack traces
 * name the TypeScript sources, at the cost of a slower start.
 */
import { pathToFileURL } from 'node:url';
import { ensureServerBuild } from './build-server.mjs';

try {
  const { entry, built } = await ensureServerBuild();
  if (built) console.log('The server was built from its sources.');
  await import(pathToFileURL(entry).href);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}

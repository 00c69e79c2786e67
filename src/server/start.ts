/**
 * npm start: take the embedded data folder, build the web app if its sources changed, serve.
 * Run from the server's build (scripts/start.mjs), not from this source.
 *
 * The lock comes before the build (docs/decisions/0009-data-folder-lock.md): a second npm start
 * on the same folder stops here at once, without rebuilding the web app under the running portal.
 * On PostgreSQL (DATABASE_URL) there is no lock: several processes share the database.
 *
 * The build is skipped when dist/web holds a complete production build of the sources as they
 * are: a fresh clone builds once, a restart on an unchanged tree does not. The build is always a
 * production one, whatever NODE_ENV says, and a build in another mode is made again.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from './config';
import { lockDataFolder } from './db/data-folder-lock';
import { PROJECT_ROOT } from './project-root';

/**
 * Runs the web app's build (`webBuildCommand`: production, whatever NODE_ENV says), with its output
 * on this terminal. The server's build is already there: this process runs it.
 */
function buildWebApp({ args, env }: { args: string[]; env: NodeJS.ProcessEnv }): Promise<void> {
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: 'inherit' });
  // Stopped during the build: stop the build too, and exit normally so the lock is released.
  const stop = (signal: NodeJS.Signals) => {
    child.kill(signal);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (code === 0) resolve();
      else reject(new Error(`The web app build failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

async function start(): Promise<void> {
  const config = loadConfig();
  const lock = config.databaseUrl ? undefined : lockDataFolder(config.dataDir);
  // After the lock, like everything else: a refused start reads no sources. The database opens
  // meanwhile: the embedded one starts in a thread of its own (docs/decisions/0023-pglite-thread.md)
  // while this one checks the web app, loads the server's code and builds the app, its routes
  // included, reading from the database only once it is open (docs/decisions/0015-built-server.md).
  // Its failure is reported below.
  const { beginOpening } = await import('./db/client');
  const database = beginOpening({
    databaseUrl: config.databaseUrl,
    preparedStatements: config.preparedStatements,
    dataDir: config.dataDir,
    backupDir: config.backup.dir,
    lock,
    poolSize: config.databasePool,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  database.catch(() => undefined);
  const { isWebBuildFresh, webBuildCommand, WEB_OUT_DIR } = await import('./plugins/web-build');
  if (isWebBuildFresh(PROJECT_ROOT, path.join(PROJECT_ROOT, WEB_OUT_DIR))) {
    console.log(`The web app in ${WEB_OUT_DIR} is up to date with its sources: not rebuilt.`);
  } else {
    await buildWebApp(webBuildCommand(PROJECT_ROOT));
  }
  // Loaded only now, so that a refused start costs no more than reading the configuration.
  const { startServer } = await import('./main');
  await startServer({ config, database });
}

start().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

/**
 * A portal server as a process of its own, started the way the browser journeys start one
 * (`tsx src/server/main.ts`, the API and the web app of the sources), but by node itself so that
 * the child's pid is the server's: a signal sent to it reaches the server, not tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root';

export interface PortalProcess {
  child: ChildProcess;
  /** Where it listens, on 127.0.0.1. */
  port: number;
  /** What it printed so far, standard output and error together. */
  output(): string;
  /** Called with each JSON line of its log (pino's), from the time it is called. */
  onLog(listener: (line: { msg?: string; reqId?: string }) => void): void;
  /** Resolves when the process has ended, with how. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, and waits for the end. */
  kill(): Promise<void>;
}

/**
 * Starts a server with `env` added to this process's environment, and waits until it listens.
 * Unless `env` says otherwise: the API alone (no web build), no demo data, UTC, no scheduled
 * backups, and warnings only in its log.
 */
export async function startPortalProcess(env: NodeJS.ProcessEnv): Promise<PortalProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      PORTAL_DEMO: 'false',
      PORTAL_TIMEZONE: 'UTC',
      PORTAL_BACKUP_INTERVAL_HOURS: '0',
      PORTAL_WEB_DIR: path.join(tmpdir(), 'no-web-build'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const listeners: Array<(line: { msg?: string; reqId?: string }) => void> = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line) as { msg?: string; reqId?: string };
      for (const listener of listeners) listener(parsed);
    }
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exit;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /running at http:\/\/localhost:(\d+)/.exec(output);
        if (found) resolve(Number(found[1]));
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      void exit.then(({ code, signal }) => reject(new Error(`A portal process ended (${signal ?? code}) before serving:\n${output}`)));
    });
    return { child, port, output: () => output, onLog: (listener) => void listeners.push(listener), exit, kill };
  } catch (err) {
    await kill();
    throw err;
  }
}

/**
 * A portal server as a process of its own, started the way the browser journeys start one
 * (`tsx src/server/main.ts`, the API and the web app of the sources), but by node itself so that
 * the child's pid is the server's: a signal sent to it reaches the server, not tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '../project-root';

export interface PortalProcess {
  child: ChildProcess;
  /** Where it listens, on 127.0.0.1. */
  port: number;
  /** What it printed so far, standard output and error together. */
  output(): string;
  /** Resolves when the process has ended. */
  exited: Promise<void>;
  /** SIGKILL, and waits for the end. */
  kill(): Promise<void>;
}

/** Starts a server with `env` added to this process's environment, and waits until it listens. */
export async function startPortalProcess(env: NodeJS.ProcessEnv): Promise<PortalProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
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
      child.once('exit', (code, signal) => reject(new Error(`A portal process ended (${signal ?? code}) before serving:\n${output}`)));
    });
    return { child, port, output: () => output, exited, kill };
  } catch (err) {
    await kill();
    throw err;
  }
}

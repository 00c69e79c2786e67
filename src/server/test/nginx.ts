/**
 * A real nginx in front of server processes, for tests of the portal behind a reverse proxy. It
 * runs the proxy rules the portal ships (deploy/nginx/proxy.conf) in a configuration of its own:
 * its own prefix, temporary folders and log in a scratch folder, its own ports on 127.0.0.1, and
 * never the system's service.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root';
import { freePort } from './free-port';

export const PROXY_RULES = path.join(PROJECT_ROOT, 'deploy/nginx/proxy.conf');

/** The nginx program on this machine, or undefined. */
export function findNginx(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx', 'nginx']) {
    const probe = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (!probe.error && probe.status === 0) return candidate;
  }
  return undefined;
}

export interface Proxy {
  /** The proxy's address balancing over every process. */
  balanced: string;
  /** By process (in the order given): the proxy's address that sends everything to that one. */
  direct: string[];
  stop(): Promise<void>;
}

/**
 * Starts nginx with the shipped proxy rules in front of the processes listening on `ports`: one
 * address of the proxy balances over them all (the upstream group `portal`, as deployed), and one
 * per process sends everything to that process, through the same rules, so that a test chooses
 * which process a request reaches. With `timingLog`, the balancing address writes a line per
 * answer to that file (`$msec $request_method $uri $status $request_time $upstream_response_time`):
 * when nginx finished it, how long nginx held it and how long the processes took to answer it.
 */
export async function startProxy(nginx: string, ports: number[], { timingLog }: { timingLog?: string } = {}): Promise<Proxy> {
  const rules = readFileSync(PROXY_RULES, 'utf8');
  const listen = await Promise.all([0, ...ports].map(() => freePort()));
  const upstream = (name: string, targets: number[]) =>
    `  upstream ${name} {\n${targets.map((port) => `    server 127.0.0.1:${port};\n`).join('')}    keepalive 8;\n  }\n`;
  // Each answer names the processes that nginx tried for it (`X-Upstream: 127.0.0.1:port[, …]`).
  const server = (port: number, rulesText: string, log = '') =>
    `  server {\n    listen 127.0.0.1:${port};\n${log}    add_header X-Upstream $upstream_addr always;\n${rulesText}\n  }\n`;
  const addresses = listen.map((port) => `http://127.0.0.1:${port}`);
  const stop = await runNginx(
    nginx,
    [
      ...(timingLog ? ["  log_format portal_timing '$msec $request_method $uri $status $request_time $upstream_response_time';"] : []),
      upstream('portal', ports),
      ...ports.map((port, index) => upstream(`portal_${index + 1}`, [port])),
      server(listen[0]!, rules, timingLog ? `    access_log "${timingLog}" portal_timing;\n` : ''),
      // The same rules, the upstream group swapped for one process's.
      ...ports.map((_, index) => server(listen[index + 1]!, rules.replaceAll('http://portal;', `http://portal_${index + 1};`))),
    ],
    addresses,
  );
  return { balanced: addresses[0]!, direct: addresses.slice(1), stop };
}

/**
 * Runs nginx with `http`, the lines of its `http` block, in a scratch folder of its own, and waits
 * until each of `addresses` answers (the processes behind it need not be). Resolves with its stop.
 */
export async function runNginx(nginx: string, http: string[], addresses: string[]): Promise<() => Promise<void>> {
  const prefix = mkdtempSync(path.join(tmpdir(), 'portal-nginx-'));
  // nginx started as root runs its workers as nobody, who must reach the temporary folders.
  chmodSync(prefix, 0o755);
  for (const folder of ['client-body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(prefix, folder));
  const config = [
    'worker_processes 1;',
    'daemon off;',
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'error.log')} warn;`,
    'events { worker_connections 512; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `  ${kind}_temp_path ${path.join(prefix, kind === 'client_body' ? 'client-body' : kind)};`,
    ),
    ...http,
    '}',
  ].join('\n');
  const file = path.join(prefix, 'nginx.conf');
  writeFileSync(file, config);

  const child: ChildProcess = spawn(nginx, ['-p', prefix, '-c', file, '-e', path.join(prefix, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    for (const address of addresses) await waitForListener(address, child, () => errors);
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}

async function waitForListener(address: string, child: ChildProcess, errors: () => string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx ended (exit code ${child.exitCode}):\n${errors()}`);
    try {
      await fetch(`${address}/api/health`);
      return;
    } catch {
      if (attempt >= 100) throw new Error(`nginx does not answer at ${address}:\n${errors()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

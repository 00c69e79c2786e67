/**
 * The image and the compose file, as far as they can be proven without a container engine.
 *
 * The image's last stage is put together from the Dockerfile's own lines: the build stage's
 * outputs, made from the build context (.dockerignore applied) by the stage's `npm run build`; the
 * production dependencies alone, installed from the lock file by `npm ci --omit=dev`; the
 * stage's environment and command. It then runs as the image runs it: as an unprivileged user,
 * on files it cannot write, with a data folder of its own. Two stand-ins, both for time: the build
 * stage uses this checkout's installed packages (the same lock file) instead of installing them
 * again, and the production install may take its packages from npm's cache.
 *
 * The compose file is read for what ties its parts together: the proxy's address that the
 * processes trust, the site and rules the proxy mounts, the upstream group naming the processes at
 * the image's port. The site (deploy/nginx/portal.conf) then runs in a real nginx in front of the
 * image's process, its upstream names and port swapped for this machine's.
 *
 * Runs on the embedded database, the image's default: on PostgreSQL it would prove nothing more.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT } from './project-root';
import { freePort } from './test/free-port';
import { findNginx, PROXY_RULES, runNginx } from './test/nginx';
import { sessionCookie, signIn } from './test/portal-client';

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string | undefined;
  instructions: Instruction[];
}

/** The Dockerfile's stages, each with its instructions (continued lines joined, comments left out). */
function readDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  for (const line of lines) {
    const [, keyword, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!keyword || args === undefined) throw new Error(`Cannot read the Dockerfile's line: ${line}`);
    if (keyword === 'FROM') stages.push({ name: /\sAS\s+(\S+)$/i.exec(args)?.[1], instructions: [] });
    else if (keyword !== 'ARG' || stages.length > 0) stages.at(-1)!.instructions.push({ keyword, args });
  }
  return stages;
}

/** `.dockerignore` as a test of a path relative to the build context (Docker's patterns, no exceptions). */
function dockerIgnore(text: string): (relative: string) => boolean {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (patterns.some((pattern) => pattern.startsWith('!'))) throw new Error('.dockerignore exceptions (!) are not read by this test');
  const expressions = patterns.map((pattern) => {
    const source = pattern
      .replace(/^\/+/, '')
      .split(/(\*\*\/|\*\*|\*|\?)/)
      .map((part) => ({ '**/': '(?:.*/)?', '**': '.*', '*': '[^/]*', '?': '[^/]' })[part] ?? part.replace(/[.+^${}()|[\]\\]/g, '\\$&'))
      .join('');
    return new RegExp(`^${source}$`);
  });
  return (relative) => expressions.some((expression) => expression.test(relative));
}

/** Runs a command to its end; throws with its output when it fails. */
function run(command: string, args: string[], options: SpawnOptions & { timeoutMs: number }): string {
  const result = spawnSync(command, args, { ...options, encoding: 'utf8', timeout: options.timeoutMs });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? result.signal ?? result.status}):\n${output.slice(-3000)}`);
  return output;
}

const dockerfile = readDockerfile(readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8'));
const stage = (name: string) => dockerfile.find((candidate) => candidate.name === name)!;
const final = dockerfile.at(-1)!;
const all = (instructions: Instruction[], keyword: string) => instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);
const one = (instructions: Instruction[], keyword: string) => {
  const found = all(instructions, keyword);
  expect(found, keyword).toHaveLength(1);
  return found[0]!;
};
/** The image's environment, from its ENV lines (`KEY=value …`). */
const imageEnv = Object.fromEntries(all(final.instructions, 'ENV').flatMap((args) => args.split(/\s+/).map((pair) => pair.split('=') as [string, string])));
const IMAGE_PORT = Number(imageEnv.PORT);

const nginx = findNginx();
// Root can write anything whatever the files' modes: the image's process then runs as nobody,
// as the image's runs as its own unprivileged user.
const asRoot = process.getuid?.() === 0;
const runAs = asRoot ? { uid: 65534, gid: 65534 } : {};

describe.skipIf(process.env.TEST_DATABASE_URL !== undefined)('the image, put together from the Dockerfile and run as the image runs it', () => {
  let scratch: string;
  let app: string;
  let data: string;
  let home: string;
  let server: { child: ChildProcess; output: () => string; exit: Promise<number | null> } | undefined;
  let port: number;

  const env = (): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: home,
    ...imageEnv,
    // As `docker run -v portal-data:/data -p …` would: the volume and the port are this machine's.
    PORTAL_DATA_DIR: data,
    HOST: '127.0.0.1',
    PORT: String(port),
    PORTAL_SECRET: 'an image test key of at least 32 characters',
    LOG_LEVEL: 'warn',
  });

  /** The image's CMD, in its folder, as its user. */
  const start = async () => {
    const command = JSON.parse(one(final.instructions, 'CMD')) as string[];
    const child = spawn(command[0]!, command.slice(1), { cwd: app, env: env(), stdio: ['ignore', 'pipe', 'pipe'], ...runAs });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    server = { child, output: () => output, exit };
    // Healthy as Docker decides it: the image's HEALTHCHECK command succeeds, within its start period.
    const healthcheck = one(final.instructions, 'HEALTHCHECK');
    const probe = JSON.parse(/\bCMD\s+(\[.*\])$/.exec(healthcheck)![1]!) as string[];
    const startPeriodMs = Number(/--start-period=(\d+)s/.exec(healthcheck)![1]) * 1000;
    const deadline = Date.now() + startPeriodMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The image's process ended (${child.exitCode}):\n${output}`);
      const check = spawnSync(probe[0]!, probe.slice(1), { env: env(), timeout: 5000, ...runAs });
      if (check.status === 0) return;
      if (Date.now() > deadline) throw new Error(`The image's health check did not pass within its start period:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  /** `docker stop`: SIGTERM, then the process's own orderly end. */
  const stop = async () => {
    if (!server) return;
    server.child.kill('SIGTERM');
    const code = await server.exit;
    server = undefined;
    return code;
  };
  /** `docker run … attendance-portal npm run portal -- ARGS`, as its user, on its data folder. */
  const portalCommand = (args: string[]) => run('npm', ['run', '--silent', 'portal', '--', ...args], { cwd: app, env: env(), timeoutMs: 60_000, ...runAs });

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'portal-image-'));
    // The image's user must reach its folders inside this one.
    chmodSync(scratch, 0o755);
    port = await freePort();

    // The build stage: the build context, then `npm run build` (its packages: this checkout's).
    const build = path.join(scratch, 'build');
    const buildSteps = stage('build').instructions.filter((instruction) => instruction.keyword !== 'WORKDIR');
    expect(buildSteps).toEqual([
      { keyword: 'COPY', args: 'package.json package-lock.json ./' },
      { keyword: 'RUN', args: 'npm ci --no-audit --no-fund' },
      { keyword: 'COPY', args: '. .' },
      { keyword: 'RUN', args: 'npm run build' },
    ]);
    const ignored = dockerIgnore(readFileSync(path.join(PROJECT_ROOT, '.dockerignore'), 'utf8'));
    cpSync(PROJECT_ROOT, build, { recursive: true, filter: (source) => source === PROJECT_ROOT || !ignored(path.relative(PROJECT_ROOT, source).split(path.sep).join('/')) });
    expect(existsSync(path.join(build, 'src/server/image.test.ts')), 'test files stay out of the image').toBe(false);
    symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(build, 'node_modules'));
    // In a build stage's environment: not this test runner's (NODE_ENV=test would make another build).
    const stageEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    run('npm', ['run', 'build'], { cwd: build, env: stageEnv, timeoutMs: 180_000 });

    // The production dependencies' stage.
    const dependencies = path.join(scratch, 'production-dependencies');
    expect(stage('production-dependencies').instructions.filter((instruction) => instruction.keyword !== 'WORKDIR')).toEqual([
      { keyword: 'COPY', args: 'package.json package-lock.json ./' },
      { keyword: 'RUN', args: 'npm ci --omit=dev --no-audit --no-fund && npm cache clean --force' },
    ]);
    mkdirSync(dependencies);
    for (const file of ['package.json', 'package-lock.json']) cpSync(path.join(PROJECT_ROOT, file), path.join(dependencies, file));
    // Not the cache's cleaning: that empties this machine's cache, not an image layer's.
    run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dependencies, env: stageEnv, timeoutMs: 240_000 });

    // The last stage: its COPY lines, from the stages' /app into its WORKDIR.
    expect(one(final.instructions, 'WORKDIR')).toBe('/app');
    app = path.join(scratch, 'app');
    mkdirSync(app);
    const stageDirs: Record<string, string> = { build, 'production-dependencies': dependencies };
    for (const copy of all(final.instructions, 'COPY')) {
      const [from, ...paths] = copy.split(/\s+/);
      const source = /^--from=(\S+)$/.exec(from!)?.[1];
      expect(source, `the last stage copies from the stages only: COPY ${copy}`).toBeDefined();
      const destination = paths.pop()!;
      for (const item of paths) {
        expect(item.startsWith('/app/'), `COPY ${copy}`).toBe(true);
        const from = path.join(stageDirs[source!]!, item.slice('/app/'.length));
        const into = destination.endsWith('/') ? path.join(app, destination, path.basename(item)) : path.join(app, destination);
        // Moved rather than copied: the stages' folders serve nothing else.
        mkdirSync(path.dirname(into), { recursive: true });
        renameSync(from, into);
      }
    }
    // Its one RUN: the data folder (with the backups' folder) belongs to the user, the rest to root.
    expect(all(final.instructions, 'RUN')).toEqual(['mkdir -p /data/backups && chown -R node:node /data']);
    expect(one(final.instructions, 'USER')).toBe('node');
    expect(imageEnv.PORTAL_DATA_DIR).toBe('/data');
    data = path.join(scratch, 'data');
    home = path.join(scratch, 'home');
    mkdirSync(path.join(data, 'backups'), { recursive: true });
    mkdirSync(home);
    if (asRoot) for (const folder of [data, path.join(data, 'backups'), home]) chownSync(folder, runAs.uid!, runAs.gid!);
    // Read-only: what the image's user could not write.
    run('chmod', ['-R', 'a-w', app], { timeoutMs: 60_000 });
  }, 480_000);

  afterAll(async () => {
    await stop();
    if (scratch) {
      run('chmod', ['-R', 'u+w', scratch], { timeoutMs: 60_000 });
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);

  it('holds the production dependencies alone, and the builds it needs', () => {
    // (TypeScript itself is there: graphile-worker's configuration loader takes it as an optional peer.)
    for (const development of ['vite', 'vitest', 'eslint', 'lighthouse', '@sparticuz/chromium', 'drizzle-kit', 'oidc-provider']) {
      expect(existsSync(path.join(app, 'node_modules', development)), development).toBe(false);
    }
    for (const kept of ['fastify', '@electric-sql/pglite', 'tsx']) expect(existsSync(path.join(app, 'node_modules', kept)), kept).toBe(true);
    expect(readdirSync(path.join(app, 'dist/server'))).toHaveLength(1);
    expect(existsSync(path.join(app, 'dist/web/index.html'))).toBe(true);
  });

  it('adds the first account with the portal command, then starts healthy, as its user, without building anything', async () => {
    const added = portalCommand(['user', 'add', '--email', 'admin@university.edu', '--name', 'First Admin', '--role', 'admin', '--password', 'first admin password 1']);
    expect(added).toContain('Added admin admin@university.edu');

    await start();
    expect(server!.output()).toContain('up to date with its sources: not rebuilt');
    expect(server!.output()).not.toContain('was built');
    const address = `http://127.0.0.1:${port}`;
    const page = await fetch(`${address}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const session = await signIn(address, 'admin@university.edu', 'first admin password 1');
    expect(session.status).toBe(200);
    const me = await fetch(`${address}/api/auth/me`, { headers: { cookie: sessionCookie(session) } });
    expect(me.status).toBe(200);
  }, 120_000);

  it("serves through compose's proxy site, deploy/nginx/portal.conf, as compose wires it", async () => {
    if (!nginx) {
      // As the scale-out test: CI installs nginx, so there its absence is a failure.
      expect(process.env.CI, 'nginx is not installed (Debian: apt-get install nginx-light)').toBeUndefined();
      return;
    }
    const compose = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'compose.yaml'), 'utf8')) as {
      services: Record<string, { build?: string; image?: string; environment?: Record<string, string>; volumes?: string[]; ports?: string[]; networks?: Record<string, { ipv4_address?: string }> }>;
    };
    const portals = Object.entries(compose.services).filter(([, service]) => service.build === '.');
    expect(portals.map(([name]) => name)).toEqual(['portal1', 'portal2', 'portal3']);
    const proxy = compose.services.proxy!;
    // The processes trust the proxy's fixed address, and only it.
    for (const [, service] of portals) expect(service.environment!.PORTAL_TRUST_PROXY).toBe(proxy.networks!.portal!.ipv4_address);
    expect(proxy.ports).toEqual(['${PORTAL_HTTP_PORT:-8080}:80']);
    const mounts = Object.fromEntries(proxy.volumes!.map((volume) => volume.replace(/:ro$/, '').split(':').reverse() as [string, string]));
    const site = readFileSync(path.join(PROJECT_ROOT, mounts['/etc/nginx/conf.d/default.conf']!), 'utf8');
    expect(path.join(PROJECT_ROOT, mounts['/etc/nginx/portal/proxy.conf']!)).toBe(PROXY_RULES);
    // The site's upstream names the three processes at the image's port, listens on the port
    // compose publishes, and includes the rules where compose mounts them.
    const upstreams = [...site.matchAll(/^\s*server\s+([\w.-]+):(\d+);/gm)];
    expect(upstreams.map((match) => match[1])).toEqual(portals.map(([name]) => name));
    expect(new Set(upstreams.map((match) => Number(match[2])))).toEqual(new Set([IMAGE_PORT]));
    expect(site).toMatch(/^\s*listen 80;/m);
    expect(site).toMatch(/^\s*include \/etc\/nginx\/portal\/proxy\.conf;/m);

    // The site as it is, in an nginx of this test's: the three names are the one process here.
    const listen = await freePort();
    const address = `http://127.0.0.1:${listen}`;
    const siteHere = site
      .replace(/^(\s*server\s+)[\w.-]+:\d+;/gm, `$1127.0.0.1:${port};`)
      .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${listen};`)
      .replace('/etc/nginx/portal/proxy.conf', PROXY_RULES);
    const stopProxy = await runNginx(nginx, [siteHere], [address]);
    try {
      expect((await fetch(`${address}/api/ready`)).status).toBe(200);
      // Through the proxy, a form's Origin matches the address the browser used.
      const session = await signIn(address, 'admin@university.edu', 'first admin password 1');
      expect(session.status).toBe(200);
      const me = await fetch(`${address}/api/auth/me`, { headers: { cookie: sessionCookie(session) } });
      expect(me.status).toBe(200);
    } finally {
      await stopProxy();
    }
  }, 60_000);

  it('ends in order on docker stop (SIGTERM), then backs up with the portal command', async () => {
    expect(await stop()).toBe(0);
    const backup = portalCommand(['backup']);
    expect(backup).toMatch(/^Wrote .*portal-backup-\w+\.gz: /m);
    expect(readdirSync(path.join(data, 'backups')).filter((name) => name.endsWith('.gz'))).toHaveLength(1);
  }, 120_000);
});

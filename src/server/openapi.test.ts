import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestContext, type TestContext, TEST_APP_CONFIG } from './test/test-app';

/** The parts of the served OpenAPI document that these tests read. */
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
}
interface OpenApiDocument {
  tags?: Array<{ name: string; description?: string }>;
  components?: { securitySchemes?: Record<string, { type: string; in?: string; name?: string; scheme?: string }> };
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Example values for the path parameters: a new parameter name must be added here. */
const PATH_EXAMPLES: Record<string, () => string> = {
  class: () => 'CSE1',
  date: () => '2026-01-05',
  pin: () => '23A51A05301',
  id: () => randomUUID(),
  code: () => 'DS',
  name: () => 'privacy',
  token: () => 'not-a-token',
};

function examplePath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const example = PATH_EXAMPLES[name];
    if (!example) throw new Error(`no example value for the path parameter {${name}} of ${template}`);
    return encodeURIComponent(example());
  });
}

function operationsOf(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ route, method: method.toUpperCase(), operation, name: `${method.toUpperCase()} ${route}` })),
  );
}

/** The name of the apiKey scheme that is the session cookie, or undefined. */
function cookieSchemeOf(doc: OpenApiDocument): string | undefined {
  const schemes = Object.entries(doc.components?.securitySchemes ?? {});
  return schemes.find(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'cookie' && scheme.name === 'portal_session')?.[0];
}

/**
 * Every route of an app as `METHOD /path`, its parameters written as OpenAPI writes them
 * (`/api/students/{pin}`), from Fastify's own listing of its routes: HEAD, which Fastify adds to
 * every GET, left out.
 */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = `${prefixes[depth - 1] ?? ''}${match[2]}`;
    prefixes[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD') routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes;
}

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  pointers: string[];
}

/**
 * Problems Redocly's rules may report and this project accepts, each with its reason.
 * - info-license-strict wants a licence URL: the portal has no licence of its own yet (package.json
 *   is private, and the document says UNLICENSED); add the URL when the university chooses one.
 * - no-ambiguous-paths compares paths without their methods: `GET /api/registrations/by-pin/{pin}`
 *   (finding a profile by PIN) and `POST /api/registrations/{id}/approve` (approving a pending one)
 *   are both fixed addresses of the API, and no request can match both, as one is GET only and the
 *   other POST only.
 * - operation-2xx-response wants a 2XX answer: the two steps of single sign-on are addresses a
 *   browser is sent to, and each answers with a redirect (302), to the provider or into the portal.
 */
const ACCEPTED_PROBLEMS = [
  { ruleId: 'info-license-strict', pointer: '#/info/license/url' },
  { ruleId: 'no-ambiguous-paths', pointer: '#/paths/~1api~1registrations~1by-pin~1{pin}' },
  { ruleId: 'operation-2xx-response', pointer: '#/paths/~1api~1auth~1oidc~1start/get/responses' },
  { ruleId: 'operation-2xx-response', pointer: '#/paths/~1api~1auth~1oidc~1callback/get/responses' },
];

/**
 * Lints the document with the Redocly CLI (a dev dependency; it bundles its own openapi-core, so
 * there is no programmatic API to import) and its `recommended` rules, warnings included.
 */
async function lintWithRedocly(document: unknown): Promise<LintProblem[]> {
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  // An empty folder: no redocly.yaml from anywhere changes the rules.
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const args = [cli, 'lint', file, '--extends=recommended', '--format=json', '--max-problems=1000', '--lint-config=off'];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // The CLI exits 1 when it finds errors; its report is on stdout either way.
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, args, { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 }, (error, out, err) => {
        if (out.trim().startsWith('{')) resolve(out);
        else reject(new Error(`redocly lint gave no report: ${error?.message ?? ''}\n${err}`));
      });
    });
    const report = JSON.parse(stdout) as {
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>;
    };
    return report.problems
      .map((problem) => ({
        ruleId: problem.ruleId,
        severity: problem.severity,
        message: problem.message,
        pointers: problem.location.map((location) => location.pointer ?? '?'),
      }))
      .filter((problem) => !ACCEPTED_PROBLEMS.some((known) => known.ruleId === problem.ruleId && problem.pointers.includes(known.pointer)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let ctx: TestContext;
let doc: OpenApiDocument;

beforeAll(async () => {
  ctx = await createTestContext();
  const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => ctx.close());

describe('the OpenAPI document at /api/docs/json', () => {
  it('lists the API, and every operation names its tag among the described tags', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(20);
    const described = new Set((doc.tags ?? []).filter((tag) => tag.description).map((tag) => tag.name));
    for (const { name, operation } of operations) {
      expect(operation.tags?.length, `${name} has a tag`).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(described.has(tag), `${name}: tag "${tag}" is described`).toBe(true);
    }
  });

  it('gives every operation a unique camelCase operationId', () => {
    const operations = operationsOf(doc);
    const badIds = operations
      .filter(({ operation }) => !/^[a-z][a-zA-Z0-9]*$/.test(operation.operationId ?? ''))
      .map(({ name, operation }) => `${name}: ${operation.operationId ?? 'no operationId'}`);
    expect(badIds).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('declares the session cookie as an apiKey security scheme', () => {
    expect(cookieSchemeOf(doc)).toBeDefined();
  });

  it("declares every operation's security, and it is true: without the cookie a secured one answers 401, a public one does not", async () => {
    const cookie = [{ [cookieSchemeOf(doc) ?? 'the cookie scheme']: [] }];
    // The metrics' bearer token: needed from another machine only, so asked from one.
    const token = [{ metricsToken: [] }];
    expect(doc.components?.securitySchemes?.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const wrong: string[] = [];
    let secured = 0;
    let open = 0;
    for (const { route, method, operation, name } of operationsOf(doc)) {
      const declared = operation.security;
      const byToken = JSON.stringify(declared) === JSON.stringify(token);
      if (declared === undefined || (declared.length > 0 && !byToken && JSON.stringify(declared) !== JSON.stringify(cookie))) {
        wrong.push(`${name} declares ${JSON.stringify(declared)}: want ${JSON.stringify(cookie)} or []`);
        continue;
      }
      // Guards run on onRequest, before the body is read: no body is needed to meet them.
      const res = await ctx.app.inject({ method, url: examplePath(route), ...(byToken ? { remoteAddress: '192.0.2.10' } : {}) });
      if (declared.length > 0) {
        secured += 1;
        if (res.statusCode !== 401) wrong.push(`${name} needs ${byToken ? 'the token' : 'the cookie'}, yet answers ${res.statusCode} without it`);
      } else {
        open += 1;
        if (res.statusCode === 401 || res.statusCode >= 500) wrong.push(`${name} is public, yet answers ${res.statusCode}`);
      }
      if (!Object.hasOwn(operation.responses, String(res.statusCode))) {
        wrong.push(`${name} answers ${res.statusCode}, which its responses do not list`);
      }
    }
    expect(wrong).toEqual([]);
    expect(secured).toBeGreaterThan(0);
    expect(open).toBeGreaterThan(0);
  });

  it("passes Redocly's recommended rules, warnings included", async () => {
    // The contract keeps both /api/registrations/by-pin/{pin} (the original app's) and
    // /api/registrations/{id}/photo. They cannot meet: a profile id is a UUID, never "by-pin", and
    // the router tries the literal first.
    // The QR's address (/c/{token}, decision 45) is a page's: it only ever redirects.
    const accepted = new Set([
      'warn no-ambiguous-paths at #/paths/~1api~1registrations~1{id}~1photo',
      'warn operation-2xx-response at #/paths/~1c~1{token}/get/responses',
    ]);
    const problems = (await lintWithRedocly(doc)).filter((p) => !accepted.has(`${p.severity} ${p.ruleId} at ${p.pointers.join(', ')}`));
    expect(problems.map((p) => `${p.severity} ${p.ruleId} at ${p.pointers.join(', ')}: ${p.message}`)).toEqual([]);
  });
});

describe('the routes and the document', () => {
  it('documents every route the portal registers, whatever it is configured with, but for the documentation itself', async () => {
    // Every optional part on: single sign-on (an issuer that is never reached: nothing here signs in).
    const oidc = { issuer: 'http://127.0.0.1:9', clientId: 'portal', clientSecret: 'secret', name: 'Campus Account', emailVerified: 'require' as const };
    const configured = await buildApp({ database: ctx.database, config: { ...TEST_APP_CONFIG, oidc } });
    try {
      const documented = new Set(operationsOf(doc).map(({ name }) => name));
      const routes = [...new Set([...registeredRoutes(ctx.app), ...registeredRoutes(configured)])];
      expect(routes).toContain('GET /api/students/{pin}');
      expect(routes.filter((route) => !documented.has(route) && !route.split(' ')[1]!.startsWith('/api/docs'))).toEqual([]);
    } finally {
      await configured.close();
    }
  });

  it('keeps the single sign-on routes of a portal without it: they answer 404', async () => {
    for (const url of ['/api/auth/oidc/start?role=faculty', '/api/auth/oidc/callback?code=1&state=2']) {
      const answer = await ctx.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ message: 'Single sign-on is not configured' });
    }
  });
});

describe('the document beside the web app', () => {
  it("leaves out the web app and its own pages: only /api operations (none under /api/docs), /metrics, the check-in QR's address and the web app's manifest", async () => {
    const webDir = await mkdtemp(path.join(tmpdir(), 'portal-web-'));
    try {
      await mkdir(path.join(webDir, 'assets'));
      await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Portal</title>');
      await writeFile(path.join(webDir, 'assets', 'app-1234.js'), 'export {};');
      // A second app on the same database: it only reads the document.
      const app = await buildApp({ database: ctx.database, config: { timeZone: 'UTC', trustProxy: false, webDir, production: false } });
      try {
        expect((await app.inject({ method: 'GET', url: '/assets/app-1234.js' })).statusCode).toBe(200);
        const paths = Object.keys((await app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>().paths);
        expect(paths.filter((p) => !(p.startsWith('/api/') || p === '/metrics' || p === '/c/{token}' || p === '/manifest.webmanifest') || p.startsWith('/api/docs'))).toEqual([]);
        expect(paths.sort()).toEqual(Object.keys(doc.paths).sort());
      } finally {
        await app.close();
      }
    } finally {
      await rm(webDir, { recursive: true, force: true });
    }
  });
});

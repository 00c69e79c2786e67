import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { addUser } from '../modules/accounts/service';
import { putStudents } from '../modules/roster/service';
import { createTestDatabase, type TestDatabase } from '../test/test-db';
import { COMPRESS_THRESHOLD_BYTES } from './compression';
import { IMMUTABLE_CACHE, OTHER_FILE_CACHE, PAGE_CACHE, webFileCacheControl } from './web-cache';
import { BUILD_STAMP_FILE, PAGE_COPIES_FOLDER, precompressFolder } from './web-build';

const PASSWORD = 'correct horse battery';
const INDEX_HTML = '<!doctype html><title>Portal</title><script type="module" src="/assets/app-1a2b3c.js"></script>';
/** The build's copy of index.html for /faculty-details, naming the page's files (web-build.ts). */
const REPORTS_HTML = INDEX_HTML.replace('</script>', '</script><link rel="modulepreload" href="/assets/reports-7a8b9c.js">');
/** A hashed asset well over 1 KB, and compressible. */
const APP_JS = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];\n`;

let database: TestDatabase;
let app: FastifyInstance;
let webDir: string;
let cookie: string;

function decode(encoding: string | undefined, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

function get(url: string, acceptEncoding?: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'GET',
    url,
    headers: { cookie, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...headers },
  });
}

beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'portal-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), INDEX_HTML);
  await mkdir(path.join(webDir, PAGE_COPIES_FOLDER));
  await writeFile(path.join(webDir, PAGE_COPIES_FOLDER, 'faculty-details.html'), REPORTS_HTML);
  await writeFile(path.join(webDir, 'assets', 'app-1a2b3c.js'), APP_JS);
  await writeFile(path.join(webDir, 'assets', 'tiny-4d5e6f.js'), 'export const tiny = 1;\n');
  // Source maps are not pre-compressed: the server compresses them when developer tools ask.
  await writeFile(path.join(webDir, 'assets', 'app-1a2b3c.js.map'), JSON.stringify({ version: 3, mappings: 'AAAA;'.repeat(500) }));
  await writeFile(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(webDir, BUILD_STAMP_FILE), '{"sources":"sha256:0"}\n');
  // As the build does it: .br and .gz beside the text files of 1 KB or more.
  await precompressFolder(webDir, COMPRESS_THRESHOLD_BYTES);

  database = await createTestDatabase();
  app = await buildApp({ database, config: { timeZone: 'UTC', trustProxy: false, webDir, production: false } });
  await app.ready();

  // A faculty member, and a roster whose JSON is well over 1 KB.
  await addUser(database.db, { email: 'delivery@test.university.edu', name: 'Test faculty', role: 'faculty', password: PASSWORD });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'delivery@test.university.edu', password: PASSWORD, role: 'faculty', remember: false },
  });
  const session = login.cookies.find((c) => c.name === 'portal_session');
  if (!session) throw new Error(`sign-in failed: ${login.body}`);
  cookie = `portal_session=${session.value}`;
  await putStudents(
    database.db,
    Array.from({ length: 40 }, (_, i) => ({ pin: `DLV${String(i).padStart(3, '0')}`, name: `Student number ${i}`, className: 'CSE1' })),
  );
});

afterAll(async () => {
  await app?.close();
  await database?.destroy();
  if (webDir) await rm(webDir, { recursive: true, force: true });
});

describe('compression of API answers', () => {
  it('compresses JSON of 1 KB or more with br or gzip per Accept-Encoding, br first, to the same JSON', async () => {
    const plain = await get('/api/classes/CSE1/students');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(1024);
    const json: unknown = plain.json();

    for (const [accept, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const response = await get('/api/classes/CSE1/students', accept);
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(expected);
      expect(response.headers['content-type'], accept).toMatch(/^application\/json/);
      if (expected) {
        expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
        expect(response.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length);
        expect(Number(response.headers['content-length']), accept).toBe(response.rawPayload.length);
      }
      expect(JSON.parse(decode(expected, response.rawPayload)), accept).toEqual(json);
    }
  });

  it('sends an answer under 1 KB as it is', async () => {
    const response = await get('/api/health', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('keeps the API cache headers: a refusal is still JSON, uncompressed when small', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing-here', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ message: 'No route for GET /api/nothing-here' });
  });

  it('never compresses the live updates: the event stream is sent as it is', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.get(
        `http://127.0.0.1:${port}/api/events`,
        { headers: { cookie, accept: 'text/event-stream', 'accept-encoding': 'br, gzip' } },
        resolve,
      );
      request.on('error', reject);
    });
    try {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(response.headers['content-encoding']).toBeUndefined();
      // The first bytes arrive at once, as text: nothing holds the stream back to compress it.
      const first = await new Promise<string>((resolve) => response.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
      expect(first).toMatch(/^retry: \d+\n/);
    } finally {
      response.destroy();
    }
  });
});

describe('the web app files', () => {
  it('sends a hashed asset pre-compressed as the client accepts, immutable, varying on Accept-Encoding', async () => {
    const file = path.join(webDir, 'assets', 'app-1a2b3c.js');
    for (const [accept, encoding, onDisk] of [
      ['br', 'br', `${file}.br`],
      ['gzip, deflate, br', 'br', `${file}.br`],
      ['gzip', 'gzip', `${file}.gz`],
      [undefined, undefined, file],
    ] as const) {
      const response = await get('/assets/app-1a2b3c.js', accept);
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['cache-control'], accept).toBe(IMMUTABLE_CACHE);
      expect(response.headers['content-type'], accept).toMatch(/^(text|application)\/javascript/);
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
      // The file from the build, byte for byte: not compressed a second time.
      expect(response.rawPayload.equals(await readFile(onDisk)), accept).toBe(true);
      expect(decode(encoding, response.rawPayload), accept).toBe(APP_JS);
    }
  });

  it('compresses on the fly a large file that has no pre-compressed copy, and leaves small files alone', async () => {
    const map = await get('/assets/app-1a2b3c.js.map', 'br');
    expect(map.headers['content-encoding']).toBe('br');
    expect(map.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(JSON.parse(decode('br', map.rawPayload))).toMatchObject({ version: 3 });

    const tiny = await get('/assets/tiny-4d5e6f.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(tiny.body).toBe('export const tiny = 1;\n');
  });

  it('sends index.html as no-cache, for / and for a client-side route alike', async () => {
    for (const url of ['/', '/index.html', '/attendance/CSE3?date=2026-11-23', '/login', '/no-such-page']) {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe(PAGE_CACHE);
      expect(response.body, url).toBe(INDEX_HTML);
    }
  });

  it("sends a page's copy of index.html to a browser with a sign-in, and index.html to one without", async () => {
    for (const url of ['/faculty-details', '/faculty-details/', '/faculty-details?term=2']) {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe(PAGE_CACHE);
      expect(response.body, url).toBe(REPORTS_HTML);
      // The answer depends on the cookie (and on the encoding accepted).
      expect(response.headers.vary, url).toMatch(/(^|,\s*)cookie(,|$)/i);
      expect(response.headers.vary, url).toMatch(/accept-encoding/i);
    }
    // The session cookie among others, and a HEAD.
    const among = await get('/faculty-details', undefined, { cookie: `theme=dark; ${cookie}; lang=en` });
    expect(among.body).toBe(REPORTS_HTML);
    const head = await app.inject({ method: 'HEAD', url: '/faculty-details', headers: { cookie } });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(REPORTS_HTML));

    // Without a sign-in the page sends the browser to the sign-in page: the page's files would only slow it.
    for (const other of ['', 'theme=dark', 'xportal_session=1', 'portal_sessions=1']) {
      const response = await get('/faculty-details', 'br', { cookie: other });
      expect(response.body, other).toBe(INDEX_HTML);
      expect(response.headers.vary, other).toMatch(/(^|,\s*)cookie(,|$)/i);
    }
    // A page the build made no copy for: the same answer whatever the cookie.
    const plain = await get('/dashboard');
    expect(plain.body).toBe(INDEX_HTML);
    expect(String(plain.headers.vary ?? '')).not.toMatch(/cookie/i);
    // Never by its own name.
    for (const url of [`/${PAGE_COPIES_FOLDER}/faculty-details.html`, `/${PAGE_COPIES_FOLDER}/faculty-details.html.br`, `/${PAGE_COPIES_FOLDER}/`]) {
      const response = await get(url, 'br');
      expect(response.body, url).not.toContain('modulepreload');
    }
  });

  it('opens the app for a client that asks for no compression, or refuses it', async () => {
    // curl and wget as typed, a load balancer's probe: no Accept-Encoding at all, or identity only.
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', '*;q=0']) {
      for (const url of ['/', '/index.html', '/login', '/dashboard', '/attendance/CSE3?date=2026-11-23', '/faculty-details']) {
        for (const withCookie of [cookie, '']) {
          const label = `${url} ${accept ?? '(none)'}${withCookie ? ' signed in' : ''}`;
          const response = await get(url, accept, { cookie: withCookie });
          expect(response.statusCode, label).toBe(200);
          expect(response.headers['content-type'], label).toMatch(/^text\/html/);
          expect(response.headers['content-encoding'], label).toBeUndefined();
          expect(response.headers['cache-control'], label).toBe(PAGE_CACHE);
          expect(response.body, label).toBe(withCookie && url === '/faculty-details' ? REPORTS_HTML : INDEX_HTML);
        }
      }
      const asset = await get('/assets/app-1a2b3c.js', accept);
      expect(asset.statusCode, accept).toBe(200);
      expect(asset.headers['content-encoding'], accept).toBeUndefined();
      expect(asset.body, accept).toBe(APP_JS);
      // A folder of the build is no file: the same 404 whatever the encoding.
      const folder = await get('/assets/', accept);
      expect(folder.statusCode, accept).toBe(404);
      expect(folder.json(), accept).toEqual({ message: 'No route for GET /assets/' });
    }
  });

  it('answers a missing file of the build with 404, not with the page', async () => {
    for (const url of ['/assets/app-gone.js', '/assets/app-1234.js.map']) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it('never sends a compressed copy by its own name, nor anything outside the build', async () => {
    for (const url of ['/assets/app-1a2b3c.js.br', '/assets/app-1a2b3c.js.gz']) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
    }
    // A file beside the build's folder.
    const outside = `${path.basename(webDir)}-outside.json`;
    await writeFile(path.join(path.dirname(webDir), outside), '{"secret":true}');
    try {
      for (const url of [`/../${outside}`, `/%2e%2e/${outside}`, `/assets/..%2f..%2f${outside}`, `/assets/%2e%2e/%2e%2e/${outside}`]) {
        const response = await get(url);
        expect(response.body, url).not.toContain('secret');
      }
    } finally {
      await rm(path.join(path.dirname(webDir), outside), { force: true });
    }
  });

  it('answers HEAD for a client-side route as GET, without the body', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/faculty-details', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    expect(head.headers['cache-control']).toBe(PAGE_CACHE);
    expect(head.rawPayload.length).toBe(0);
    // The API keeps its JSON 404.
    expect((await app.inject({ method: 'HEAD', url: '/api/nothing-here' })).statusCode).toBe(404);
  });

  it('gives the other files a short cache, and never serves the build stamp', async () => {
    const favicon = await get('/favicon.svg', 'br');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe(OTHER_FILE_CACHE);
    expect(favicon.headers['content-encoding']).toBeUndefined();

    // Hidden files are not routes: the client-side router gets the path, as for any other.
    const stamp = await get(`/${BUILD_STAMP_FILE}`);
    expect(stamp.body).toBe(INDEX_HTML);
  });

  it('answers a revalidation with 304, and HEAD with the headers of GET', async () => {
    const first = await get('/assets/app-1a2b3c.js', 'br');
    const etag = first.headers.etag;
    expect(etag).toBeDefined();
    const again = await get('/assets/app-1a2b3c.js', 'br', { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const head = await app.inject({ method: 'HEAD', url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(head.rawPayload.length).toBe(0);
  });
});

describe('webFileCacheControl', () => {
  it('reads a pre-compressed copy as its original', () => {
    const dir = path.join(tmpdir(), 'web');
    expect(webFileCacheControl(dir, path.join(dir, 'assets', 'index-abc.js.br'))).toBe(IMMUTABLE_CACHE);
    expect(webFileCacheControl(dir, path.join(dir, 'index.html.gz'))).toBe(PAGE_CACHE);
    expect(webFileCacheControl(dir, path.join(dir, 'index.html'))).toBe(PAGE_CACHE);
    expect(webFileCacheControl(dir, path.join(dir, PAGE_COPIES_FOLDER, 'faculty-details.html.br'))).toBe(PAGE_CACHE);
    expect(webFileCacheControl(dir, path.join(dir, 'default-avatar.svg'))).toBe(OTHER_FILE_CACHE);
    // Only the assets folder of the web app, not a file that merely has "assets" in its name.
    expect(webFileCacheControl(dir, path.join(dir, 'assets.txt'))).toBe(OTHER_FILE_CACHE);
    // The service worker names the release's files: checked at every load, its compressed copies too.
    expect(webFileCacheControl(dir, path.join(dir, 'sw.js'))).toBe(PAGE_CACHE);
    expect(webFileCacheControl(dir, path.join(dir, 'sw.js.br'))).toBe(PAGE_CACHE);
    expect(webFileCacheControl(dir, path.join(dir, 'assets', 'sw.js'))).toBe(IMMUTABLE_CACHE);
  });
});

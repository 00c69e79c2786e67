import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig, MAX_LOGO_BYTES } from '../../config';
import { createTestDatabase, type TestDatabase } from '../../test/test-db';
import { TEST_APP_CONFIG } from '../../test/test-app';

/** The smallest PNG: a 1 x 1 transparent pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let folder: string;
let database: TestDatabase;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portal-branding-'));
  writeFileSync(path.join(folder, 'logo.png'), PNG);
  writeFileSync(path.join(folder, 'logo.gif'), 'GIF89a');
  writeFileSync(path.join(folder, 'huge.png'), Buffer.alloc(MAX_LOGO_BYTES + 1));
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await database?.close();
  rmSync(folder, { recursive: true, force: true });
});

const base = { ...TEST_APP_CONFIG };

describe('PORTAL_NAME, PORTAL_LOGO and PORTAL_COLOR', () => {
  it('are read, checked and normalised from the environment', () => {
    const branding = loadConfig({ PORTAL_NAME: ' Riverside University ', PORTAL_COLOR: '#1D4', PORTAL_LOGO: path.join(folder, 'logo.png') }).branding;
    expect(branding).toEqual({ name: 'Riverside University', color: '#11dd44', logoFile: path.join(folder, 'logo.png') });
    expect(loadConfig({}).branding).toEqual({ name: undefined, color: undefined, logoFile: undefined });
    expect(() => loadConfig({ PORTAL_COLOR: 'blue' })).toThrow('PORTAL_COLOR must be a colour as #rrggbb, such as #1d4f91, not "blue"');
    expect(() => loadConfig({ PORTAL_LOGO: path.join(folder, 'logo.gif') })).toThrow(/PORTAL_LOGO must be a PNG or JPEG file/);
    expect(() => loadConfig({ PORTAL_LOGO: path.join(folder, 'missing.png') })).toThrow(/PORTAL_LOGO names a file that cannot be read/);
    expect(() => loadConfig({ PORTAL_LOGO: path.join(folder, 'huge.png') })).toThrow(/PORTAL_LOGO is larger than 512 KB/);
  });

  it('are served: the name, colour and logo address, and the logo itself', async () => {
    const app = await buildApp({
      database,
      config: { ...base, branding: { name: 'Riverside University', color: '#1d4f91', logoFile: path.join(folder, 'logo.png') } },
    });
    const res = await app.inject({ method: 'GET', url: '/api/branding' });
    expect(res.json()).toEqual({ name: 'Riverside University', color: '#1d4f91', logoUrl: '/api/branding/logo' });
    const logo = await app.inject({ method: 'GET', url: '/api/branding/logo' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.json()).toMatchObject({ name: 'Riverside University Attendance', short_name: 'Riverside University', theme_color: '#1d4f91', display: 'standalone' });
    await app.close();
  });

  it('are nulls, and the logo a 404, when not configured', async () => {
    const app = await buildApp({ database, config: base });
    expect((await app.inject({ method: 'GET', url: '/api/branding' })).json()).toEqual({ name: null, color: null, logoUrl: null });
    expect((await app.inject({ method: 'GET', url: '/api/branding/logo' })).statusCode).toBe(404);
    // The web app's manifest names the portal and its colour without them.
    const manifest = (await app.inject({ method: 'GET', url: '/manifest.webmanifest' })).json<{ name: string; theme_color: string; icons: unknown[] }>();
    expect(manifest).toMatchObject({ name: 'University Portal', theme_color: '#1c7ed6' });
    expect(manifest.icons).toHaveLength(2);
    await app.close();
  });
});

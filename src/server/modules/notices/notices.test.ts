import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoticeSchema } from '../../../shared/schemas/notices';
import { loadConfig, MAX_NOTICE_BYTES } from '../../config';
import { createTestContext, type TestContext } from '../../test/test-app';

const folder = mkdtempSync(path.join(tmpdir(), 'notices-'));
const privacyFile = path.join(folder, 'privacy.md');
writeFileSync(privacyFile, '# Privacy at Example University\n\nWe keep **only** what the registers need.\n');

let portal: TestContext;
let own: TestContext;
beforeAll(async () => {
  portal = await createTestContext();
  own = await createTestContext({ notices: loadConfig({ PORTAL_PRIVACY_FILE: privacyFile }).notices });
}, 60_000);
afterAll(async () => {
  await portal?.close();
  await own?.close();
});

const get = (ctx: TestContext, name: string) => ctx.app.inject({ method: 'GET', url: `/api/notices/${name}` });

describe('the privacy and accessibility notices', () => {
  it('are the portal\'s own texts by default, to anyone, signed in or not', async () => {
    const privacy = NoticeSchema.parse((await get(portal, 'privacy')).json());
    expect(privacy).toMatchObject({ name: 'privacy', custom: false });
    for (const part of ['## What the portal holds', '## Why', '## Who sees it', '## How long']) expect(privacy.markdown).toContain(part);
    const accessibility = NoticeSchema.parse((await get(portal, 'accessibility')).json());
    expect(accessibility.markdown).toContain('WCAG) 2.2, level AA');
    expect(accessibility.markdown).toContain('## Known exceptions');
  });

  it('are the university\'s file where one is configured, the other notice staying the portal\'s', async () => {
    const res = await get(own, 'privacy');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: 'privacy',
      markdown: '# Privacy at Example University\n\nWe keep **only** what the registers need.\n',
      custom: true,
    });
    expect((await get(own, 'accessibility')).json()).toMatchObject({ custom: false });
  });

  it('answers an unknown notice with a 400 that names the notices', async () => {
    const res = await get(portal, 'cookies');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/privacy and accessibility/);
  });

  it('stop the start with a clear message when a file cannot be used', () => {
    expect(() => loadConfig({ PORTAL_PRIVACY_FILE: path.join(folder, 'missing.md') })).toThrow(
      `PORTAL_PRIVACY_FILE names a file that cannot be read: "${path.join(folder, 'missing.md')}"`,
    );
    const empty = path.join(folder, 'empty.md');
    writeFileSync(empty, '  \n');
    expect(() => loadConfig({ PORTAL_ACCESSIBILITY_FILE: empty })).toThrow(/PORTAL_ACCESSIBILITY_FILE names an empty file/);
    const large = path.join(folder, 'large.md');
    writeFileSync(large, 'x'.repeat(MAX_NOTICE_BYTES + 1));
    expect(() => loadConfig({ PORTAL_ACCESSIBILITY_FILE: large })).toThrow(/PORTAL_ACCESSIBILITY_FILE is larger than 64 KB/);
    const binary = path.join(folder, 'photo.md');
    writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    expect(() => loadConfig({ PORTAL_PRIVACY_FILE: binary })).toThrow(/PORTAL_PRIVACY_FILE must be a UTF-8 text/);
    expect(loadConfig({}).notices).toEqual({ privacy: undefined, accessibility: undefined });
  });
});

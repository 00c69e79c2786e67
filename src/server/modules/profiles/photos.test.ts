import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES, PHOTO_SIZE_MESSAGE, PHOTO_TYPE_MESSAGE, type Profile } from '../../../shared/schemas/profiles';
import { withFacultyApp, type TestContext } from '../../test/test-app';
import { putStudents } from '../roster/service';
import { PHOTO_SIDE_MAX } from './photo';

let ctx: TestContext;
let faculty: string;

withFacultyApp((made) => ({ ctx, faculty } = made));

let counter = 0;
async function rosterPin(): Promise<string> {
  counter += 1;
  const pin = `24P81A${String(counter).padStart(4, '0')}`;
  await putStudents(ctx.database.db, [{ pin, name: `Roster ${pin}`, className: 'CSE3' }]);
  return pin;
}

function dataUrl(type: string, bytes: Buffer): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** A JPEG carrying EXIF (a camera make and a GPS-like comment) that must not survive the upload. */
function jpegWithMetadata(width = 1600, height = 1200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366aa' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Secret Model', ImageDescription: 'home address 12 Lane' } })
    .toBuffer();
}

function post(body: Record<string, unknown>, cookie?: string) {
  counter += 1;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/registrations',
    payload: body,
    headers: cookie ? { cookie } : {},
    remoteAddress: `10.9.${Math.floor(counter / 250)}.${(counter % 250) + 1}`,
  });
}

function getPhoto(url: string, cookie: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });
}

describe('profile photos', () => {
  it('stores an uploaded JPEG re-encoded as WebP, smaller, without its metadata, and serves it', async () => {
    const pin = await rosterPin();
    const original = await jpegWithMetadata();
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const res = await post({ name: 'Photo Student', designation: 'CSE', pin, photo: dataUrl('image/jpeg', original) }, faculty);
    expect(res.statusCode).toBe(201);
    const profile: Profile = res.json();
    expect(profile.photoUrl).toMatch(new RegExp(`^/api/registrations/${profile.id}/photo\\?v=[0-9a-f]{16}$`));

    const served = await getPhoto(profile.photoUrl!, faculty);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toContain('immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width, meta.height)).toBe(PHOTO_SIDE_MAX);
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(served.rawPayload.includes('PhoneMaker')).toBe(false);
    expect(served.rawPayload.includes('home address')).toBe(false);

    // The student record carries the same address.
    const record = await ctx.app.inject({ method: 'GET', url: `/api/students/${pin}`, headers: { cookie: faculty } });
    expect(record.json().profile.photoUrl).toBe(profile.photoUrl);

    // A browser that holds it gets 304.
    const again = await getPhoto(profile.photoUrl!, faculty, { 'if-none-match': served.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  it('accepts PNG and WebP and keeps a small picture its size', async () => {
    for (const [type, encode] of [
      ['image/png', (image: Sharp) => image.png()],
      ['image/webp', (image: Sharp) => image.webp()],
    ] as const) {
      const bytes = await encode(sharp({ create: { width: 200, height: 100, channels: 4, background: '#00000000' } })).toBuffer();
      const res = await post({ name: 'Small', designation: 'CSE', pin: await rosterPin(), photo: dataUrl(type, bytes) }, faculty);
      expect(res.statusCode, type).toBe(201);
      const served = await getPhoto((res.json() as Profile).photoUrl!, faculty);
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([200, 100]);
    }
  });

  it('refuses a file that is not PNG, JPEG or WebP, whatever its label says, and saves nothing', async () => {
    const pin = await rosterPin();
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } }).gif().toBuffer();
    for (const photo of [
      dataUrl('image/png', gif),
      dataUrl('image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
      dataUrl('image/gif', gif),
      'https://example.com/me.png',
    ]) {
      const res = await post({ name: 'Wrong', designation: 'CSE', pin, photo });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(PHOTO_TYPE_MESSAGE);
    }
    const none = await ctx.app.inject({ method: 'GET', url: `/api/registrations/by-pin/${pin}`, headers: { cookie: faculty } });
    expect(none.statusCode).toBe(404);
  });

  it('refuses a photo over 2 MB with its own message, and a far larger body with 413', async () => {
    const pin = await rosterPin();
    const tooBig = Buffer.alloc(PHOTO_MAX_BYTES + 1, 0xff);
    tooBig.set([0xff, 0xd8, 0xff], 0);
    const res = await post({ name: 'Big', designation: 'CSE', pin, photo: dataUrl('image/jpeg', tooBig) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(PHOTO_SIZE_MESSAGE);

    const huge = await post({ name: 'Huge', designation: 'CSE', pin, photo: dataUrl('image/jpeg', Buffer.alloc(4 * 1024 * 1024)) });
    expect(huge.statusCode).toBe(413);
  });

  it('lets a student replace and remove their own photo, and shows a pending one to faculty only', async () => {
    const pin = await rosterPin();
    const photo = dataUrl('image/jpeg', await jpegWithMetadata(300, 300));
    // A stranger registers the PIN with a photo: pending, visible to faculty only.
    const pending: Profile = (await post({ name: 'Stranger', designation: 'CSE', pin, photo })).json();
    expect(pending.status).toBe('pending');
    expect((await getPhoto(pending.photoUrl!, faculty)).statusCode).toBe(200);
    const studentCookie = await ctx.signIn('student', { pin });
    expect((await getPhoto(pending.photoUrl!, studentCookie)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: pending.photoUrl! })).statusCode).toBe(401);

    // The student registers themselves (replacing the stranger's), then changes and removes the photo.
    const own: Profile = (await post({ name: 'Real', designation: 'CSE', pin, photo }, studentCookie)).json();
    expect(own.status).toBe('approved');
    expect((await getPhoto(own.photoUrl!, studentCookie)).statusCode).toBe(200);
    expect((await getPhoto(own.photoUrl!, await ctx.signIn('student'))).statusCode).toBe(404);

    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#0a0' } }).png().toBuffer();
    const patch = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/registrations/${own.id}`, payload, headers: { cookie: studentCookie } });
    const replaced: Profile = (await patch({ photo: dataUrl('image/png', png) })).json();
    expect(replaced.photoUrl).not.toBe(own.photoUrl);
    // The old address is not kept for a year: it names a photo that is gone.
    const stale = await getPhoto(own.photoUrl!, studentCookie);
    expect(stale.headers['cache-control']).toBe('private, no-cache');

    const renamed: Profile = (await patch({ designation: 'ECE' })).json();
    expect(renamed.photoUrl).toBe(replaced.photoUrl);

    const removed: Profile = (await patch({ photo: null })).json();
    expect(removed.photoUrl).toBeNull();
    expect((await getPhoto(replaced.photoUrl!, studentCookie)).statusCode).toBe(404);
  });

  it('deletes the photo with its profile', async () => {
    const pin = await rosterPin();
    const profile: Profile = (
      await post({ name: 'Gone', designation: 'CSE', pin, photo: dataUrl('image/jpeg', await jpegWithMetadata(40, 40)) }, faculty)
    ).json();
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/registrations/${profile.id}`, headers: { cookie: faculty } });
    expect(del.statusCode).toBe(204);
    expect((await getPhoto(profile.photoUrl!, faculty)).statusCode).toBe(404);
  });
});

import { deflateSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROFILE_PHOTO_MAX_BYTES } from '../../../shared/profile-photo.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { signUpTestUser } from '../../testing/users.ts';

// PUT/GET/DELETE /api/me/profile/photo: the attachment module's checks (size, type from the
// bytes) with the photo's own limit and image types, one photo per user, only ever the
// signed-in user's own.

/** A real w×h RGBA PNG (CRCs and all), so the bytes are an image any decoder opens. */
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const png = (w: number, h: number, rgba: [number, number, number, number]) => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.concat(Array.from({ length: w }, () => Buffer.from(rgba))),
  ]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe('profile photo API', () => {
  const t = setUpTestApp();

  const put = async (cookie: string | undefined, file: { name: string; type: string; data: Buffer }) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    const request = new Request('http://localhost/', { method: 'PUT', body: form });
    return t.app.inject({
      method: 'PUT',
      url: '/api/me/profile/photo',
      headers: { ...(cookie ? { cookie } : {}), 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  };
  const get = (cookie: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/me/profile/photo', headers: { cookie, ...headers } });
  const profileOf = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie } })).json();
  const photoRows = async (userId: string) =>
    t.database.db.selectFrom('user_photos').select(['sha256']).where('user_id', '=', userId).execute();

  it('stores a PNG, names it in the profile and gives the same bytes back, privately cached', async () => {
    const user = await signUpTestUser(t.app);
    const image = png(4, 4, [200, 30, 30, 255]);
    const res = await put(user.cookie, { name: 'me.png', type: 'image/png', data: image });
    expect(res.statusCode, res.body).toBe(200);
    const sha = createHash('sha256').update(image).digest('hex');
    expect(res.json()).toEqual({ photoURL: `/api/me/profile/photo?v=${sha.slice(0, 16)}` });
    expect((await profileOf(user.cookie)).photoURL).toBe(res.json().photoURL);

    const back = await get(user.cookie);
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.headers['cache-control']).toBe('private, max-age=86400');
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    expect(back.rawPayload.equals(image)).toBe(true);
    // A browser that has it already gets 304.
    const again = await get(user.cookie, { 'if-none-match': String(back.headers.etag) });
    expect(again.statusCode).toBe(304);

    // A new photo replaces the old one (one row per user) and gets a new address.
    const second = png(2, 2, [0, 0, 255, 255]);
    const replaced = await put(user.cookie, { name: 'new.png', type: 'image/png', data: second });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().photoURL).not.toBe(res.json().photoURL);
    expect(await photoRows(user.id)).toHaveLength(1);
    expect((await get(user.cookie)).rawPayload.equals(second)).toBe(true);
  });

  it('refuses a file that is not an image with 400 and changes nothing', async () => {
    const user = await signUpTestUser(t.app);
    const before = await profileOf(user.cookie);
    for (const file of [
      { name: 'photo.png', type: 'image/png', data: PDF },
      { name: 'photo.png', type: 'image/png', data: Buffer.from('just some text\n') },
      { name: 'photo.png', type: 'image/png', data: Buffer.from('4d5a90000300000004000000ffff0000', 'hex') },
    ]) {
      const res = await put(user.cookie, file);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('image_type_not_allowed');
      expect(res.json().error.message).toBe('A profile photo must be a PNG, JPEG, WebP or GIF image.');
    }
    const empty = await put(user.cookie, { name: 'x.png', type: 'image/png', data: Buffer.alloc(0) });
    expect(empty.statusCode).toBe(400);
    expect(await photoRows(user.id)).toEqual([]);
    expect(await profileOf(user.cookie)).toEqual(before);
    expect((await get(user.cookie)).statusCode).toBe(404);
  });

  it('refuses a photo over 2 MB with 413 and keeps the one there was', async () => {
    const user = await signUpTestUser(t.app);
    const image = png(3, 3, [10, 200, 10, 255]);
    expect((await put(user.cookie, { name: 'ok.png', type: 'image/png', data: image })).statusCode).toBe(200);
    const before = await profileOf(user.cookie);
    const head = png(1, 1, [0, 0, 0, 255]);
    for (const size of [PROFILE_PHOTO_MAX_BYTES + 1, PROFILE_PHOTO_MAX_BYTES * 3]) {
      const big = Buffer.concat([head, Buffer.alloc(size - head.length)]);
      const res = await put(user.cookie, { name: 'big.png', type: 'image/png', data: big });
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toEqual({
        code: 'image_too_large',
        message: 'A profile photo can be at most 2 MB. Choose a smaller image.',
      });
    }
    expect(await profileOf(user.cookie)).toEqual(before);
    expect((await get(user.cookie)).rawPayload.equals(image)).toBe(true);
  }, 60_000);

  it('needs a signed-in user, and nobody can read or remove another user’s photo', async () => {
    const alice = await signUpTestUser(t.app);
    const bob = await signUpTestUser(t.app);
    const image = png(2, 2, [1, 2, 3, 255]);
    expect((await put(alice.cookie, { name: 'a.png', type: 'image/png', data: image })).statusCode).toBe(200);
    expect((await put(undefined, { name: 'a.png', type: 'image/png', data: image })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/me/profile/photo' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/me/profile/photo' })).statusCode).toBe(401);
    // Bob asks for "the" photo: he gets his own (none), never Alice's.
    const bobs = await get(bob.cookie);
    expect(bobs.statusCode).toBe(404);
    expect(bobs.rawPayload.equals(image)).toBe(false);
    for (const url of [`/api/me/profile/photo/${alice.id}`, `/api/users/${alice.id}/photo`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie: bob.cookie } })).statusCode).toBe(
        404,
      );
    }
    // Alice's photo URL with its version, asked by Bob, is still Bob's (none).
    const aliceUrl = (await profileOf(alice.cookie)).photoURL as string;
    expect(
      (await t.app.inject({ method: 'GET', url: aliceUrl, headers: { cookie: bob.cookie } })).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/me/profile/photo',
          headers: { cookie: bob.cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect((await get(alice.cookie)).rawPayload.equals(image)).toBe(true);
  });

  it('removes the photo and clears the profile’s photoURL', async () => {
    const user = await signUpTestUser(t.app);
    await put(user.cookie, { name: 'me.png', type: 'image/png', data: png(2, 2, [9, 9, 9, 255]) });
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/me/profile/photo',
      headers: { cookie: user.cookie },
    });
    expect(del.statusCode).toBe(204);
    expect(await photoRows(user.id)).toEqual([]);
    expect((await profileOf(user.cookie)).photoURL).toBe('');
    expect((await get(user.cookie)).statusCode).toBe(404);
  });

  it('refuses a body that is not multipart with 400', async () => {
    const user = await signUpTestUser(t.app);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/profile/photo',
      headers: { cookie: user.cookie },
      payload: { dataBase64: 'AAAA' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('multipart_required');
  });
});

import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { errorBody } from '../../http/errors.ts';
import { userRoutePlugin } from '../../http/routes.ts';
import { readMultipartUpload, sendAttachment } from './http.ts';
import { checkImageUpload, withImageLimit } from './images.ts';
import {
  PHOTO_RULES,
  deleteOwnPhoto,
  photoMultipartOptions,
  putOwnPhoto,
  readOwnPhoto,
} from './profile-photo.ts';

// The signed-in user's profile photo: upload (multipart field "file"), download, remove.
// Like the profile, no route takes a user id: each reads and writes the session's user's own.

const photoRoutes = userRoutePlugin(['accounts'], (route) => {
  route.put(
    '/me/profile/photo',
    {
      summary:
        'Set the profile photo (multipart field "file"; PNG, JPEG, WebP or GIF, at most 2 MB; the type is read from the bytes)',
      consumes: ['multipart/form-data'],
      response: z.object({ photoURL: z.string() }),
      otherResponses: { 400: errorBody, 401: errorBody, 413: errorBody },
    },
    async (c, user, _input, { request }) => {
      const upload = await withImageLimit(PHOTO_RULES, () => readMultipartUpload(request));
      return putOwnPhoto(c, user.id, await checkImageUpload(upload, PHOTO_RULES));
    },
  );
  route.get(
    '/me/profile/photo',
    {
      summary: 'The profile photo itself (cached privately; `v` is the version the profile names)',
      query: z.object({ v: z.string().max(100).optional() }),
      otherResponses: { 401: errorBody, 404: errorBody },
      produces: ['image/*'],
      answersWithoutBody: { 304: 'Not modified: the photo is the one the ETag sent in If-None-Match names.' },
    },
    async (c, user, _input, { request, reply }) => {
      const photo = await readOwnPhoto(c, user.id);
      const etag = `"${photo.sha256}"`;
      reply.header('cache-control', 'private, max-age=86400').header('etag', etag).header('vary', 'Cookie');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return sendAttachment(reply, photo);
    },
  );
  route.delete(
    '/me/profile/photo',
    {
      summary: 'Remove the profile photo',
      response: null,
      otherResponses: { 401: errorBody, 404: errorBody },
    },
    (c, user) => deleteOwnPhoto(c, user.id),
  );
});

/** The photo routes with multipart (for this plugin only, cut at the photo limit). */
export const profilePhotoRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(multipart, photoMultipartOptions);
    await app.register(photoRoutes(ctx));
  };

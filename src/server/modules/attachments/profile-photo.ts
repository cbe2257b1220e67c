import type { FastifyMultipartOptions } from '@fastify/multipart';
import {
  PROFILE_PHOTO_MAX_BYTES,
  PROFILE_PHOTO_MESSAGES,
  PROFILE_PHOTO_TYPES,
} from '../../../shared/profile-photo.ts';
import { notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ImageRules } from './images.ts';
import type { CheckedUpload } from './policy.ts';
import { getOwnProfile } from '../profile/service.ts';
import { updateProfileRow } from '../profile/queries.ts';

// The signed-in user's profile photo: checked by the attachment module (size, type sniffed
// from the bytes, clean name, sha256), kept in user_photos (one row per user, the attachment
// columns), and named in the profile's photoURL as this API's own address with the file's
// hash as a version, so a browser may cache it privately and a new photo gets a new address.
// Every function takes the signed-in user's id from the session, never from the request.

export const PHOTO_RULES: ImageRules = {
  maxBytes: PROFILE_PHOTO_MAX_BYTES,
  types: PROFILE_PHOTO_TYPES,
  tooLargeMessage: PROFILE_PHOTO_MESSAGES.tooLarge,
  notImageMessage: PROFILE_PHOTO_MESSAGES.notImage,
};

/** `@fastify/multipart` for the photo route: one file, cut one byte over the photo limit. */
export const photoMultipartOptions: FastifyMultipartOptions = {
  limits: { fileSize: PROFILE_PHOTO_MAX_BYTES + 1, files: 1, fields: 5, parts: 6 },
  throwFileSizeLimit: true,
};

const PHOTO_PATH = '/api/me/profile/photo';

/** The profile's photoURL for a stored photo with this hash. */
export const photoUrlFor = (sha256: string) => `${PHOTO_PATH}?v=${sha256.slice(0, 16)}`;

const isOwnPhotoUrl = (url: string) => url === PHOTO_PATH || url.startsWith(`${PHOTO_PATH}?`);

/** Stores (or replaces) the user's photo and points the profile at it, in one transaction. */
export const putOwnPhoto = async (ctx: AppContext, userId: string, file: CheckedUpload) => {
  // Makes the fallback profile when the user has none, so the photoURL has a row to go in.
  await getOwnProfile(ctx, userId);
  const photoURL = photoUrlFor(file.sha256);
  await inTransaction(ctx.database.db, async (trx) => {
    const now = ctx.now();
    const row = {
      file_name: file.fileName,
      content_type: file.contentType,
      size_bytes: file.sizeBytes,
      sha256: file.sha256,
      data: file.data,
      created_at: now,
    };
    await trx
      .insertInto('user_photos')
      .values({ user_id: userId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
    await updateProfileRow(trx, userId, { photo_url: photoURL, updated_at: now });
  });
  return { photoURL };
};

/** The user's stored photo, or 404. */
export const readOwnPhoto = async (ctx: AppContext, userId: string) => {
  const row = await ctx.database.db
    .selectFrom('user_photos')
    .select(['file_name', 'content_type', 'sha256', 'data'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound('You have no profile photo.');
  return {
    fileName: row.file_name,
    contentType: row.content_type,
    sha256: row.sha256,
    data: Buffer.from(row.data),
  };
};

/** Removes the user's photo; the profile's photoURL is cleared when it named the stored one. */
export const deleteOwnPhoto = async (ctx: AppContext, userId: string) => {
  await inTransaction(ctx.database.db, async (trx) => {
    const removed = await trx.deleteFrom('user_photos').where('user_id', '=', userId).executeTakeFirst();
    const profile = await trx
      .selectFrom('user_profiles')
      .select('photo_url')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (profile && isOwnPhotoUrl(profile.photo_url)) {
      await updateProfileRow(trx, userId, { photo_url: '', updated_at: ctx.now() });
    } else if (Number(removed.numDeletedRows) === 0) {
      throw notFound('You have no profile photo.');
    }
  });
};

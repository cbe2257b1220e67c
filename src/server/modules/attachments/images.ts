import { AppError, badRequest } from '../../../shared/errors.ts';
import { type CheckedUpload, checkUpload } from './policy.ts';

// An upload that must be an image a browser shows (a profile photo), checked by the one
// attachment policy (sniffed type, clean name, sha256) with a smaller size limit of its own
// and only the image types asked for. Any other kind of file is a 400 that names the types.

export type ImageRules = {
  maxBytes: number;
  types: readonly string[];
  tooLargeMessage: string;
  notImageMessage: string;
};

export const imageTooLarge = (rules: ImageRules) =>
  new AppError(413, 'image_too_large', rules.tooLargeMessage);

/** The upload, checked and with its sniffed type, or a refusal (413 too large, 400 not an image). */
export const checkImageUpload = async (
  input: { fileName: string; data: Buffer },
  rules: ImageRules,
): Promise<CheckedUpload> => {
  if (input.data.length > rules.maxBytes) throw imageTooLarge(rules);
  let file: CheckedUpload;
  try {
    file = await checkUpload(input);
  } catch (error) {
    // The policy's 415 (a kind it never stores) is, for an image, just "not an image".
    if (error instanceof AppError && error.code === 'attachment_type_not_allowed') {
      throw badRequest('image_type_not_allowed', rules.notImageMessage);
    }
    throw error;
  }
  if (!rules.types.includes(file.contentType))
    throw badRequest('image_type_not_allowed', rules.notImageMessage);
  return file;
};

/** Runs a multipart read, turning the attachment limit's 413 into the image's own. */
export const withImageLimit = async <T>(rules: ImageRules, read: () => Promise<T>): Promise<T> => {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError && error.code === 'attachment_too_large') throw imageTooLarge(rules);
    throw error;
  }
};

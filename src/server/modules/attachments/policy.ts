import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_TOO_LARGE_TEXT } from '../../../shared/attachments.ts';
import { AppError, badRequest } from '../../../shared/errors.ts';

// What an attachment may be, the same for every owner (journal entries, bank transactions):
// its size, its type (read from the bytes with `file-type`; the client's declared type and
// the file name's extension are never trusted) and a clean file name that keeps its Unicode.
// See decision 0015.

export { ATTACHMENT_MAX_BYTES };

/** The types the product accepts, as sniffed; the value says whether a browser may show it inline. */
export const ATTACHMENT_TYPES: Readonly<Record<string, { inline: boolean }>> = {
  'application/pdf': { inline: true },
  'image/png': { inline: true },
  'image/jpeg': { inline: true },
  'image/gif': { inline: true },
  'image/webp': { inline: true },
  'image/apng': { inline: true },
  'image/heic': { inline: false },
  'image/heif': { inline: false },
  // iPhone photos taken as a burst or Live Photo (accepted as HEIC before this module).
  'image/heic-sequence': { inline: false },
  'image/heif-sequence': { inline: false },
  'text/plain': { inline: false },
};
const ACCEPTED = 'a PDF, PNG, JPEG, GIF, WebP or HEIC image, or a plain-text or CSV file';

export const tooLarge = () => new AppError(413, 'attachment_too_large', ATTACHMENT_TOO_LARGE_TEXT);

const UTF8 = new TextDecoder('utf-8', { fatal: true });
// Text may hold tab, line feed, form feed and carriage return, nothing else below a space.
const isBinaryControl = (code: number) =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f;
const looksLikeText = (data: Uint8Array) => {
  for (const byte of data) if (isBinaryControl(byte)) return false;
  return true;
};

/** The file's real type from its bytes, or null when it is none the product accepts. */
export const sniffContentType = async (data: Uint8Array): Promise<string | null> => {
  const found = await fileTypeFromBuffer(data);
  if (found) return found.mime in ATTACHMENT_TYPES ? found.mime : null;
  // No binary signature: accept plain text (receipts as .txt, .csv) when it is valid UTF-8
  // without binary control characters.
  if (!looksLikeText(data)) return null;
  try {
    UTF8.decode(data);
    return 'text/plain';
  } catch {
    return null;
  }
};

const MAX_NAME = 200;
// Path separators, characters Windows refuses in names, and the quote.
const RESERVED = /[/\\<>:"|?*]/g;
// C0/C1 controls (incl. NUL), bidirectional overrides and isolates, marks and the BOM.
const INVISIBLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;
// A UTF-16 surrogate without its partner is no character at all.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * A file name safe to store and to send back: the last path segment only, no control or
 * bidi characters, no reserved characters, no leading dots, at most 200 characters (the
 * extension kept). Letters of every script, accents and emoji stay as they are (NFC).
 */
export const sanitizeFileName = (raw: string, fallback = 'attachment') => {
  let name = raw.replace(LONE_SURROGATE, '').normalize('NFC').replace(INVISIBLE, '');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  const chars = [...name];
  if (chars.length > MAX_NAME) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? [...name.slice(dot)] : [];
    const keep = ext.length > 0 && ext.length <= 16 ? ext : [];
    name = [...chars.slice(0, MAX_NAME - keep.length), ...keep].join('').trim();
  }
  return name || fallback;
};

export type CheckedUpload = {
  fileName: string;
  contentType: string;
  data: Buffer;
  sizeBytes: number;
  sha256: string;
};

/** Applies the size, type and name rules to an upload, or refuses it (413, 415, 400). */
export const checkUpload = async (input: { fileName: string; data: Buffer }): Promise<CheckedUpload> => {
  if (input.data.length === 0) throw badRequest('attachment_empty', 'The file is empty.');
  if (input.data.length > ATTACHMENT_MAX_BYTES) throw tooLarge();
  const contentType = await sniffContentType(input.data);
  if (!contentType) {
    throw new AppError(
      415,
      'attachment_type_not_allowed',
      `This kind of file cannot be attached. Attach ${ACCEPTED}.`,
    );
  }
  return {
    fileName: sanitizeFileName(input.fileName),
    contentType,
    data: input.data,
    sizeBytes: input.data.length,
    sha256: createHash('sha256').update(input.data).digest('hex'),
  };
};

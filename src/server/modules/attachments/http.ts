import type { FastifyMultipartOptions } from '@fastify/multipart';
import contentDisposition from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../../shared/errors.ts';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  sanitizeFileName,
  sniffContentType,
  tooLarge,
} from './policy.ts';

// How attachments travel over HTTP, the same for every owner: in (a multipart "file" field,
// or base64 in JSON for the transactions page) and out (the sniffed type, a safe
// Content-Disposition with the Unicode name per RFC 6266/5987, and nosniff).

/** Options for `@fastify/multipart` on a plugin that takes attachment uploads. */
export const multipartOptions: FastifyMultipartOptions = {
  // One byte more than allowed, so a file over the limit is seen as over it (not cut to it).
  limits: { fileSize: ATTACHMENT_MAX_BYTES + 1, files: 1, fields: 5, parts: 6 },
  throwFileSizeLimit: true,
};

/** The uploaded file of a multipart request (field "file"), whole, or a clear refusal. */
export const readMultipartUpload = async (request: FastifyRequest) => {
  if (!request.isMultipart()) {
    throw badRequest('multipart_required', 'Send the file as multipart/form-data in a field named "file".');
  }
  let file: Awaited<ReturnType<FastifyRequest['file']>>;
  let data: Buffer;
  try {
    file = await request.file();
    if (!file) throw badRequest('file_missing', 'Choose a file to attach.');
    data = await file.toBuffer();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    // Other multipart refusals (too many parts or fields) keep their own 4xx; the parser's
    // plain errors (no boundary, a body cut short) are the request's fault too.
    if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number')
      throw error;
    throw badRequest(
      'multipart_invalid',
      `The upload is not a complete multipart/form-data body (${(error as Error).message}). Send the file again.`,
    );
  }
  // Belt and braces: a stream cut at the limit is never taken as the whole file.
  if (file.file.truncated || data.length > ATTACHMENT_MAX_BYTES) throw tooLarge();
  return { fileName: file.filename ?? '', data };
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The file of a JSON upload (`dataBase64`), decoded, or a clear refusal. */
export const decodeBase64Upload = (dataBase64: string) => {
  const text = dataBase64.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 === 1) {
    throw badRequest('attachment_invalid_base64', 'The file data is not valid base64.');
  }
  // Decoded size from the text's length, before decoding anything too large.
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (Math.floor((text.length * 3) / 4) - padding > ATTACHMENT_MAX_BYTES) throw tooLarge();
  return Buffer.from(text, 'base64');
};

/** A body limit for JSON uploads that fits the largest allowed file in base64, and a little. */
export const BASE64_BODY_LIMIT = Math.ceil(ATTACHMENT_MAX_BYTES / 3) * 4 + 64 * 1024;

const asciiFallback = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');

/**
 * Sends a stored attachment: with its type as sniffed from the bytes (anything not on the
 * accepted list goes out as a download of application/octet-stream), inline only for PDFs
 * and common images, the name as RFC 6266 `filename*=UTF-8''…` with an ASCII fallback, and
 * nosniff so a browser never guesses another type.
 */
export const sendAttachment = async (reply: FastifyReply, file: { fileName: string; data: Buffer }) => {
  const sniffed = await sniffContentType(file.data);
  const type = sniffed ?? 'application/octet-stream';
  const inline = sniffed ? (ATTACHMENT_TYPES[sniffed]?.inline ?? false) : false;
  // Names stored before names were cleaned on upload are cleaned on the way out too.
  const name = sanitizeFileName(file.fileName);
  return reply
    .header('content-type', type === 'text/plain' ? 'text/plain; charset=utf-8' : type)
    .header(
      'content-disposition',
      contentDisposition(name, { type: inline ? 'inline' : 'attachment', fallback: asciiFallback(name) }),
    )
    .header('x-content-type-options', 'nosniff')
    .send(file.data);
};

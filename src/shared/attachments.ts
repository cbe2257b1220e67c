import { z } from 'zod';

// What an attachment (a receipt on a journal entry or a bank transaction) may be: the one
// size limit and the kinds of file, shared by the server's checks and the pages' file
// pickers. The server reads the type from the bytes; the picker's `accept` only helps people
// choose. See decision 0015.

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** The file picker's filter: types and extensions of the files the server accepts. */
export const ATTACHMENT_ACCEPT =
  'application/pdf,image/png,image/jpeg,image/gif,image/webp,image/heic,image/heif,text/plain,text/csv,' +
  '.pdf,.png,.jpg,.jpeg,.gif,.webp,.heic,.heif,.txt,.csv';

/** The same, in words for people. */
export const ATTACHMENT_KINDS_TEXT = 'PDF, PNG, JPEG, GIF, WebP, HEIC, text or CSV, up to 10 MB';

export const ATTACHMENT_TOO_LARGE_TEXT = 'Attachments can be at most 10 MB. Choose a smaller file.';

/** An attachment as the API lists it (a receipt on a journal entry or a bank transaction). */
export const attachmentSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number(),
  createdAt: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;
export const attachmentListSchema = z.object({ attachments: z.array(attachmentSchema) });

/** A receipt sent as JSON (the transactions page): the type is read from the bytes. */
export const attachmentBase64UploadSchema = z.object({
  fileName: z.string().max(1000),
  contentType: z.string().max(200).optional(),
  dataBase64: z.string().min(1, 'The file is empty.'),
});

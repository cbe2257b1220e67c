import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppError, badRequest, notFound } from '../../../shared/errors.ts';
import { recordAudit } from '../audit/record.ts';
import { inTransaction } from './posting.ts';
import { type Executor, selectEntry } from './queries.ts';

// Receipts and other documents attached to journal entries. Files live on disk under the
// attachments directory (DATA_DIR/attachments unless ATTACHMENTS_DIR is set), one folder per
// company; the table keeps their name, type, size and checksum. Attaching a receipt does not
// change a posted entry, so it is allowed on posted entries too.

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

export const ATTACHMENT_TYPES: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/heic': 'heic',
};

/** The real type from the first bytes: a file's name or declared type is not trusted. */
export const sniffType = (head: Buffer): string | null => {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = head.subarray(8, 12).toString('latin1');
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
  }
  return null;
};

export const attachmentsDir = (dataDir: string) =>
  process.env.ATTACHMENTS_DIR ?? path.join(dataDir, 'attachments');

const cleanName = (name: string) =>
  name
    .replace(/[\\/\0\r\n"]/g, '_')
    .trim()
    .slice(0, 200) || 'attachment';

export const addAttachment = async (
  db: Executor,
  input: {
    organizationId: string;
    entryId: string;
    fileName: string;
    data: Buffer;
    actorUserId: string | null;
    baseDir: string;
  },
) => {
  if (input.data.length === 0) throw badRequest('attachment_empty', 'The file is empty.');
  if (input.data.length > ATTACHMENT_MAX_BYTES) {
    throw new AppError(413, 'attachment_too_large', 'Attachments can be at most 10 MB.');
  }
  const contentType = sniffType(input.data.subarray(0, 16));
  if (!contentType) {
    throw new AppError(415, 'attachment_type_not_allowed', 'Attach a PDF, PNG, JPEG, WebP or HEIC file.');
  }
  const id = randomUUID();
  const storageKey = path.join(input.organizationId, `${id}.${ATTACHMENT_TYPES[contentType]}`);
  const fullPath = path.join(input.baseDir, storageKey);
  await fs.mkdir(path.dirname(fullPath), { recursive: true });
  await fs.writeFile(fullPath, input.data, { flag: 'wx' });
  try {
    return await inTransaction(db, async (trx) => {
      const entry = await selectEntry(trx, input.organizationId, input.entryId);
      if (!entry) throw notFound('Journal entry not found.');
      const row = await trx
        .insertInto('journal_attachments')
        .values({
          organization_id: input.organizationId,
          id,
          entry_id: input.entryId,
          file_name: cleanName(input.fileName),
          content_type: contentType,
          size_bytes: input.data.length,
          sha256: createHash('sha256').update(input.data).digest('hex'),
          storage_key: storageKey,
          created_by: input.actorUserId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actorUserId: input.actorUserId,
        action: 'journal_entry.attachment_added',
        entityType: 'journal_entry',
        entityId: input.entryId,
        after: { attachmentId: id, fileName: row.file_name, contentType, sizeBytes: row.size_bytes },
      });
      return {
        id: row.id,
        fileName: row.file_name,
        contentType: row.content_type,
        sizeBytes: row.size_bytes,
        createdAt: new Date(row.created_at as Date).toISOString(),
      };
    });
  } catch (error) {
    // The row never committed: do not leave the file behind.
    await fs.rm(fullPath, { force: true });
    throw error;
  }
};

const findAttachment = async (
  db: Executor,
  organizationId: string,
  entryId: string,
  attachmentId: string,
) => {
  const row = await db
    .selectFrom('journal_attachments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('entry_id', '=', entryId)
    .where('id', '=', attachmentId)
    .executeTakeFirst();
  if (!row) throw notFound('Attachment not found.');
  return row;
};

export const readAttachment = async (
  db: Executor,
  input: { organizationId: string; entryId: string; attachmentId: string; baseDir: string },
) => {
  const row = await findAttachment(db, input.organizationId, input.entryId, input.attachmentId);
  const data = await fs.readFile(path.join(input.baseDir, row.storage_key)).catch(() => {
    throw notFound('The attachment file is missing from storage.');
  });
  return { fileName: row.file_name, contentType: row.content_type, data };
};

export const deleteAttachment = async (
  db: Executor,
  input: {
    organizationId: string;
    entryId: string;
    attachmentId: string;
    actorUserId: string | null;
    baseDir: string;
  },
) => {
  const row = await inTransaction(db, async (trx) => {
    const found = await findAttachment(trx, input.organizationId, input.entryId, input.attachmentId);
    await trx
      .deleteFrom('journal_attachments')
      .where('organization_id', '=', input.organizationId)
      .where('id', '=', found.id)
      .execute();
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      action: 'journal_entry.attachment_removed',
      entityType: 'journal_entry',
      entityId: input.entryId,
      before: { attachmentId: found.id, fileName: found.file_name },
    });
    return found;
  });
  await fs.rm(path.join(input.baseDir, row.storage_key), { force: true });
};

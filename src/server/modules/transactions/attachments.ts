import { createHash, randomUUID } from 'node:crypto';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../companies/guard.ts';
import { inTransaction } from '../ledger/posting.ts';

// Receipts and other files attached to a bank transaction. Attaching a receipt changes
// nothing in the ledger, so it is allowed on reconciled transactions too.

export const ATTACHMENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'text/plain',
];
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

const findTransaction = async (ctx: AppContext, organizationId: string, id: string) => {
  const tx = await ctx.database.db
    .selectFrom('bank_transactions')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!tx) throw notFound('Transaction not found.');
};

export const listAttachments = async (ctx: AppContext, member: MemberContext, transactionId: string) => {
  await findTransaction(ctx, member.organizationId, transactionId);
  const rows = await ctx.database.db
    .selectFrom('bank_transaction_attachments')
    .select(['id', 'file_name', 'content_type', 'size_bytes', 'created_at'])
    .where('organization_id', '=', member.organizationId)
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    fileName: r.file_name,
    contentType: r.content_type,
    sizeBytes: r.size_bytes,
    createdAt: new Date(r.created_at as Date).toISOString(),
  }));
};

export const addAttachment = (
  ctx: AppContext,
  member: MemberContext,
  transactionId: string,
  input: { fileName: string; contentType: string; dataBase64: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    await findTransaction(
      { ...ctx, database: { ...ctx.database, db: trx } },
      member.organizationId,
      transactionId,
    );
    if (!ATTACHMENT_TYPES.includes(input.contentType)) {
      throw badRequest('unsupported_file', 'Attach a PDF, PNG, JPEG, WebP, HEIC or text file.');
    }
    const data = Buffer.from(input.dataBase64, 'base64');
    if (data.length === 0) throw badRequest('empty_file', 'The file is empty.');
    if (data.length > MAX_ATTACHMENT_BYTES) throw badRequest('file_too_large', 'Files can be at most 5 MB.');
    const id = randomUUID();
    await trx
      .insertInto('bank_transaction_attachments')
      .values({
        organization_id: member.organizationId,
        id,
        transaction_id: transactionId,
        file_name: input.fileName.replace(/[\\/\r\n"]/g, '_').slice(0, 200),
        content_type: input.contentType,
        size_bytes: data.length,
        data,
        created_by: member.userId,
      })
      .execute();
    await recordAudit(trx, {
      organizationId: member.organizationId,
      actorUserId: member.userId,
      action: 'bank_transaction.attachment_added',
      entityType: 'bank_transaction',
      entityId: transactionId,
      after: {
        attachmentId: id,
        fileName: input.fileName,
        sha256: createHash('sha256').update(data).digest('hex'),
      },
    });
    return (
      await listAttachments({ ...ctx, database: { ...ctx.database, db: trx } }, member, transactionId)
    ).find((a) => a.id === id)!;
  });

export const getAttachment = async (
  ctx: AppContext,
  member: MemberContext,
  transactionId: string,
  id: string,
) => {
  const row = await ctx.database.db
    .selectFrom('bank_transaction_attachments')
    .select(['file_name', 'content_type', 'data'])
    .where('organization_id', '=', member.organizationId)
    .where('transaction_id', '=', transactionId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Attachment not found.');
  return row;
};

export const deleteAttachment = (ctx: AppContext, member: MemberContext, transactionId: string, id: string) =>
  inTransaction(ctx.database.db, async (trx) => {
    const removed = await trx
      .deleteFrom('bank_transaction_attachments')
      .where('organization_id', '=', member.organizationId)
      .where('transaction_id', '=', transactionId)
      .where('id', '=', id)
      .returning('file_name')
      .executeTakeFirst();
    if (!removed) throw notFound('Attachment not found.');
    await recordAudit(trx, {
      organizationId: member.organizationId,
      actorUserId: member.userId,
      action: 'bank_transaction.attachment_deleted',
      entityType: 'bank_transaction',
      entityId: transactionId,
      before: { attachmentId: id, fileName: removed.file_name },
    });
  });

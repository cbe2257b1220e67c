import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { notFound } from '../../../shared/errors.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/record.ts';
import { assertCompanyWithinLimit } from '../billing/limits.ts';
import type { CheckedUpload } from './policy.ts';

// Where attachments live: in the database, in each owner's table (journal_attachments for
// journal entries, bank_transaction_attachments for bank transactions, bill_attachments for
// bills), with the same columns for the file. Journal attachments uploaded before migration
// 20261124_0500 are files on disk (storage_key under the attachments directory); they are still read and
// removed from there.

export type AttachmentOwner = 'journal_entry' | 'bank_transaction' | 'bill';

const OWNERS = {
  journal_entry: {
    table: 'journal_attachments',
    ownerColumn: 'entry_id',
    ownerTable: 'journal_entries',
    missing: 'Journal entry not found.',
    added: 'journal_entry.attachment_added',
    removed: 'journal_entry.attachment_removed',
  },
  bank_transaction: {
    table: 'bank_transaction_attachments',
    ownerColumn: 'transaction_id',
    ownerTable: 'bank_transactions',
    missing: 'Transaction not found.',
    added: 'bank_transaction.attachment_added',
    removed: 'bank_transaction.attachment_deleted',
  },
  bill: {
    table: 'bill_attachments',
    ownerColumn: 'bill_id',
    ownerTable: 'bills',
    missing: 'Bill not found.',
    added: 'bill.attachment_added',
    removed: 'bill.attachment_removed',
  },
} as const;

export type AttachmentInfo = {
  id: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  createdAt: string;
};

type Row = {
  id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  created_at: Date | string;
};

const toInfo = (r: Row): AttachmentInfo => ({
  id: r.id,
  fileName: r.file_name,
  contentType: r.content_type,
  sizeBytes: Number(r.size_bytes),
  createdAt: new Date(r.created_at).toISOString(),
});

/** Where journal attachments uploaded before they moved into the database are. */
export const legacyAttachmentsDir = (dataDir: string) =>
  process.env.ATTACHMENTS_DIR ?? path.join(dataDir, 'attachments');

const requireOwner = async (
  db: Executor,
  owner: AttachmentOwner,
  organizationId: string,
  ownerId: string,
) => {
  const o = OWNERS[owner];
  const { rows } = await sql<{ id: string }>`
    select id from ${sql.table(o.ownerTable)}
    where organization_id = ${organizationId} and id = ${ownerId}`.execute(db);
  if (rows.length === 0) throw notFound(o.missing);
};

/** The files attached to one journal entry or bank transaction, oldest first. */
export const listAttachments = async (
  db: Executor,
  owner: AttachmentOwner,
  organizationId: string,
  ownerId: string,
) => {
  await requireOwner(db, owner, organizationId, ownerId);
  const o = OWNERS[owner];
  const { rows } = await sql<Row>`
    select id, file_name, content_type, size_bytes, created_at from ${sql.table(o.table)}
    where organization_id = ${organizationId} and ${sql.ref(o.ownerColumn)} = ${ownerId}
    order by created_at, id`.execute(db);
  return rows.map(toInfo);
};

/** Stores a checked upload (see `checkUpload`) on its owner, with an audit row. */
export const storeAttachment = (
  db: Executor,
  owner: AttachmentOwner,
  input: {
    organizationId: string;
    ownerId: string;
    actorUserId: string | null;
    file: CheckedUpload;
    /** The request's time: the payer's plan then decides the storage limit. */
    now: Date;
  },
) =>
  inTransaction(db, async (trx) => {
    const o = OWNERS[owner];
    await requireOwner(trx, owner, input.organizationId, input.ownerId);
    const { file } = input;
    // The file's bytes count against the payer's storage (402, nothing written).
    await assertCompanyWithinLimit(
      trx,
      { organizationId: input.organizationId, key: 'storageBytes', adding: file.sizeBytes },
      input.now,
    );
    const { rows } = await sql<Row>`
      insert into ${sql.table(o.table)}
        (organization_id, id, ${sql.ref(o.ownerColumn)}, file_name, content_type, size_bytes, sha256, data, created_by)
      values (${input.organizationId}, ${randomUUID()}, ${input.ownerId}, ${file.fileName}, ${file.contentType},
        ${file.sizeBytes}, ${file.sha256}, ${file.data}, ${input.actorUserId})
      returning id, file_name, content_type, size_bytes, created_at`.execute(trx);
    const info = toInfo(rows[0]!);
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      action: o.added,
      entityType: owner,
      entityId: input.ownerId,
      after: {
        attachmentId: info.id,
        fileName: info.fileName,
        contentType: info.contentType,
        sizeBytes: info.sizeBytes,
        sha256: file.sha256,
      },
    });
    return info;
  });

type Located = { organizationId: string; ownerId: string; attachmentId: string };

/** One attachment's name, stored (sniffed) type and bytes. */
export const readAttachment = async (
  db: Executor,
  owner: AttachmentOwner,
  input: Located & { legacyDir: string },
) => {
  const o = OWNERS[owner];
  const { rows } = await sql<{
    file_name: string;
    content_type: string;
    data: Buffer | Uint8Array | null;
    storage_key: string | null;
  }>`
    select file_name, content_type, data, ${owner === 'journal_entry' ? sql.ref('storage_key') : sql`null`} as storage_key
    from ${sql.table(o.table)}
    where organization_id = ${input.organizationId} and ${sql.ref(o.ownerColumn)} = ${input.ownerId}
      and id = ${input.attachmentId}`.execute(db);
  const row = rows[0];
  if (!row) throw notFound('Attachment not found.');
  let data: Buffer;
  if (row.data) data = Buffer.from(row.data);
  else if (row.storage_key) {
    data = await fs.readFile(path.join(input.legacyDir, row.storage_key)).catch(() => {
      throw notFound('The attachment file is missing from storage.');
    });
  } else throw notFound('The attachment file is missing from storage.');
  return { fileName: row.file_name, contentType: row.content_type, data };
};

/** Removes an attachment (and its legacy file on disk, if it has one), with an audit row. */
export const removeAttachment = async (
  db: Executor,
  owner: AttachmentOwner,
  input: Located & { actorUserId: string | null; legacyDir: string },
) => {
  const o = OWNERS[owner];
  const removed = await inTransaction(db, async (trx) => {
    const { rows } = await sql<{ file_name: string; storage_key: string | null }>`
      delete from ${sql.table(o.table)}
      where organization_id = ${input.organizationId} and ${sql.ref(o.ownerColumn)} = ${input.ownerId}
        and id = ${input.attachmentId}
      returning file_name, ${owner === 'journal_entry' ? sql.ref('storage_key') : sql`null`} as storage_key`.execute(
      trx,
    );
    const row = rows[0];
    if (!row) throw notFound('Attachment not found.');
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      action: o.removed,
      entityType: owner,
      entityId: input.ownerId,
      before: { attachmentId: input.attachmentId, fileName: row.file_name },
    });
    return row;
  });
  if (removed.storage_key) await fs.rm(path.join(input.legacyDir, removed.storage_key), { force: true });
};

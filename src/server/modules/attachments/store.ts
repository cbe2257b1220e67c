import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { notFound } from '../../../shared/errors.ts';
import type { ServerConfig } from '../../config.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { AttachmentStorage } from '../../db/types.ts';
import { recordAudit } from '../audit/record.ts';
import { assertCompanyWithinLimit } from '../billing/limits.ts';
import {
  type ObjectOwner,
  type ObjectStore,
  objectKey,
  objectStoreOf,
  parseObjectKey,
  storageUnavailable,
} from './object-store.ts';
import type { CheckedUpload } from './policy.ts';

// Where attachments live: a row in each owner's table (journal_attachments for journal
// entries, bank_transaction_attachments for bank transactions, bill_attachments for bills),
// with the same columns for the file, and the bytes where the row's `storage` says
// (decision 0043): 'database' (`data`; the default), 's3' (an object in the configured
// S3-compatible store, key in `storage_key`; new uploads when S3_BUCKET is set) or 'disk'
// (journal attachments uploaded before migration 20261124_0500, a file under the attachments
// directory). Every row is read from wherever it is, whatever is configured now.
//
// Order with an object store: the object is written before the row's transaction commits and
// deleted only after the row's delete commits; `attachment_object_sweep` holds the keys in
// between (a trigger queues every deleted row's key, cascades and erasures included), and
// sweep.ts deletes what is left there, so nothing stays behind when a transaction fails or a
// process stops.

export type AttachmentOwner = ObjectOwner;

/** Where this server puts new bytes (`objects`, null: the database) and finds old files. */
export type AttachmentPlace = { objects: ObjectStore | null; legacyDir: string };

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

/** Each owner's attachment table (for the move to the object store, move.ts). */
export const ATTACHMENT_TABLES = Object.fromEntries(
  Object.entries(OWNERS).map(([owner, o]) => [owner, o.table]),
) as Record<AttachmentOwner, (typeof OWNERS)[AttachmentOwner]['table']>;

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

/** The server's attachment place, from its configuration (object-store.ts, S3_*). */
export const attachmentPlaceOf = (config: Pick<ServerConfig, 's3' | 'dataDir'>): AttachmentPlace => ({
  objects: objectStoreOf(config),
  legacyDir: legacyAttachmentsDir(config.dataDir),
});

/** Queues an object the sweep deletes after `notBefore` unless its row takes it off first. */
export const queueUploadedObject = async (db: Executor, key: string, notBefore: Date) => {
  await db
    .insertInto('attachment_object_sweep')
    .values({ key, reason: 'upload', not_before: notBefore })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
};

/** Takes a key off the sweep: its row now holds it, or its object is gone. */
export const forgetSweptObject = async (db: Executor, key: string) => {
  await db.deleteFrom('attachment_object_sweep').where('key', '=', key).execute();
};

/** Whether an attachment row (of the kind and company the key names) points at this object. */
export const isObjectReferenced = async (db: Executor, key: string) => {
  const named = parseObjectKey(key);
  const o = named && (OWNERS as Record<string, (typeof OWNERS)[AttachmentOwner]>)[named.owner];
  if (!named || !o) return false;
  const { rows } = await sql<{ one: number }>`
    select 1 as one from ${sql.table(o.table)}
    where organization_id = ${named.organizationId} and id = ${named.id}
      and storage = 's3' and storage_key = ${key}`.execute(db);
  return rows.length > 0;
};

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

type StoreInput = {
  organizationId: string;
  ownerId: string;
  actorUserId: string | null;
  file: CheckedUpload;
  /** The request's time: the payer's plan then decides the storage limit. */
  now: Date;
};

/** How long an uploaded object may wait for its row before the sweep may delete it. */
export const UPLOAD_GRACE_MS = 60 * 60 * 1000;

const insertRow = (
  db: Executor,
  owner: AttachmentOwner,
  input: StoreInput,
  id: string,
  bytes: { storage: AttachmentStorage; data: Buffer | null; key: string | null },
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
        (organization_id, id, ${sql.ref(o.ownerColumn)}, file_name, content_type, size_bytes, sha256,
         storage, data, storage_key, created_by)
      values (${input.organizationId}, ${id}, ${input.ownerId}, ${file.fileName}, ${file.contentType},
        ${file.sizeBytes}, ${file.sha256}, ${bytes.storage}, ${bytes.data}, ${bytes.key}, ${input.actorUserId})
      returning id, file_name, content_type, size_bytes, created_at`.execute(trx);
    // The object now has its row: it is no longer the sweep's (in the same transaction).
    if (bytes.key) await forgetSweptObject(trx, bytes.key);
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

/**
 * Stores a checked upload (see `checkUpload`) on its owner, with an audit row: its bytes in
 * the object store when there is one (`objects`), else in the database. With a store, the
 * refusals that need no object (404 owner, 402 plan limit) come first; then the key is queued
 * for the sweep (with a grace period), the object written (503 `storage_unavailable` when the
 * store fails, nothing kept), and the row inserted in a transaction that takes the key off the
 * sweep. If that transaction fails, the object is deleted at once, or by the sweep.
 */
export const storeAttachment = async (
  db: Executor,
  owner: AttachmentOwner,
  input: StoreInput & { objects: ObjectStore | null },
) => {
  const id = randomUUID();
  const { objects, file } = input;
  if (!objects) return insertRow(db, owner, input, id, { storage: 'database', data: file.data, key: null });
  await requireOwner(db, owner, input.organizationId, input.ownerId);
  await assertCompanyWithinLimit(
    db,
    { organizationId: input.organizationId, key: 'storageBytes', adding: file.sizeBytes },
    input.now,
  );
  const key = objectKey(objects.prefix, input.organizationId, owner, id);
  await queueUploadedObject(db, key, new Date(input.now.getTime() + UPLOAD_GRACE_MS));
  try {
    await objects.put(key, file.data, file.contentType);
  } catch (error) {
    // Nothing was stored (a put is all or nothing); if it was after all, the sweep removes it.
    await forgetSweptObject(db, key).catch(() => undefined);
    throw storageUnavailable(error);
  }
  try {
    return await insertRow(db, owner, input, id, { storage: 's3', data: null, key });
  } catch (error) {
    await objects
      .delete(key)
      .then(() => forgetSweptObject(db, key))
      .catch(() => undefined);
    throw error;
  }
};

type Located = { organizationId: string; ownerId: string; attachmentId: string };

const storageKeyColumn = sql.ref('storage_key');

/** One attachment's name, stored (sniffed) type and bytes, from wherever they are. */
export const readAttachment = async (
  db: Executor,
  owner: AttachmentOwner,
  input: Located & AttachmentPlace,
) => {
  const o = OWNERS[owner];
  const { rows } = await sql<{
    file_name: string;
    content_type: string;
    storage: AttachmentStorage;
    data: Buffer | Uint8Array | null;
    storage_key: string | null;
  }>`
    select file_name, content_type, storage, data, ${storageKeyColumn}
    from ${sql.table(o.table)}
    where organization_id = ${input.organizationId} and ${sql.ref(o.ownerColumn)} = ${input.ownerId}
      and id = ${input.attachmentId}`.execute(db);
  const row = rows[0];
  if (!row) throw notFound('Attachment not found.');
  const missing = () => notFound('The attachment file is missing from storage.');
  let data: Buffer;
  if (row.storage === 'database' && row.data) data = Buffer.from(row.data);
  else if (row.storage === 'disk' && row.storage_key) {
    data = await fs.readFile(path.join(input.legacyDir, row.storage_key)).catch(() => {
      throw missing();
    });
  } else if (row.storage === 's3' && row.storage_key) {
    // A row stored in S3 stays there when S3_* is removed: the server cannot reach it then.
    if (!input.objects) throw storageUnavailable(undefined, 'read the file (S3_BUCKET is no longer set)');
    const got = await input.objects.get(row.storage_key).catch((error) => {
      throw storageUnavailable(error, 'read the file');
    });
    if (!got) throw missing();
    data = got;
  } else throw missing();
  return { fileName: row.file_name, contentType: row.content_type, data };
};

/**
 * Removes an attachment with an audit row; its bytes go after the delete commits: a legacy
 * file on disk at once, an object at once when the store answers (else by the sweep, which
 * the delete queued in its transaction).
 */
export const removeAttachment = async (
  db: Executor,
  owner: AttachmentOwner,
  input: Located & AttachmentPlace & { actorUserId: string | null },
) => {
  const o = OWNERS[owner];
  const removed = await inTransaction(db, async (trx) => {
    const { rows } = await sql<{ file_name: string; storage: AttachmentStorage; storage_key: string | null }>`
      delete from ${sql.table(o.table)}
      where organization_id = ${input.organizationId} and ${sql.ref(o.ownerColumn)} = ${input.ownerId}
        and id = ${input.attachmentId}
      returning file_name, storage, ${storageKeyColumn}`.execute(trx);
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
  if (!removed.storage_key) return;
  if (removed.storage === 'disk')
    await fs.rm(path.join(input.legacyDir, removed.storage_key), { force: true });
  // Inside a caller's transaction the delete has not committed yet: the sweep does it later.
  else if (removed.storage === 's3' && input.objects && !db.isTransaction) {
    const key = removed.storage_key;
    await input.objects
      .delete(key)
      .then(() => forgetSweptObject(db, key))
      .catch(() => undefined);
  }
};

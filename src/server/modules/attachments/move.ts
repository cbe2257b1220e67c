import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { AttachmentStorage } from '../../db/types.ts';
import { type ObjectStore, objectKey } from './object-store.ts';
import {
  ATTACHMENT_TABLES,
  type AttachmentOwner,
  forgetSweptObject,
  queueUploadedObject,
  UPLOAD_GRACE_MS,
} from './store.ts';

// Moving existing attachments into the object store (decision 0043; docs/operations.md,
// "Attachments in S3"): every row whose bytes are in the database or on disk gets its object,
// written first, then the row is switched to it (storage 's3', data cleared) in a transaction
// that checks the row is still as read; a row deleted or changed meanwhile keeps its place and
// the object goes. Safe to run while the server runs, and again (moved rows are skipped).
// Files on disk are left where they are; remove the attachments directory once it has run.

export type MoveResult = { moved: number; missing: number; bytes: number };

type Row = {
  organization_id: string;
  id: string;
  content_type: string;
  storage: AttachmentStorage;
  data: Buffer | Uint8Array | null;
  storage_key: string | null;
};

export const moveAttachmentsToObjectStore = async (
  db: Executor,
  objects: ObjectStore,
  options: { legacyDir: string; now: () => Date; batch?: number; log?: (line: string) => void },
): Promise<Record<AttachmentOwner, MoveResult>> => {
  const batch = options.batch ?? 50;
  const results = {} as Record<AttachmentOwner, MoveResult>;
  for (const [owner, table] of Object.entries(ATTACHMENT_TABLES) as [AttachmentOwner, string][]) {
    const result: MoveResult = { moved: 0, missing: 0, bytes: 0 };
    let after: [string, string] = ['', ''];
    for (;;) {
      const { rows } = await sql<Row>`
        select organization_id, id, content_type, storage, data, storage_key from ${sql.table(table)}
        where storage in ('database', 'disk') and (organization_id, id) > (${after[0]}, ${after[1]})
        order by organization_id, id limit ${batch}`.execute(db);
      if (rows.length === 0) break;
      for (const row of rows) {
        after = [row.organization_id, row.id];
        let data: Buffer | null = null;
        if (row.storage === 'database' && row.data) data = Buffer.from(row.data);
        else if (row.storage === 'disk' && row.storage_key)
          data = await fs.readFile(path.join(options.legacyDir, row.storage_key)).catch(() => null);
        if (!data) {
          result.missing += 1;
          options.log?.(`${table} ${row.organization_id}/${row.id}: its file is missing; left as it is`);
          continue;
        }
        const key = objectKey(objects.prefix, row.organization_id, owner, row.id);
        await queueUploadedObject(db, key, new Date(options.now().getTime() + UPLOAD_GRACE_MS));
        await objects.put(key, data, row.content_type);
        const switched = await inTransaction(db, async (trx) => {
          const { numAffectedRows } = await sql`
            update ${sql.table(table)} set storage = 's3', storage_key = ${key}, data = null
            where organization_id = ${row.organization_id} and id = ${row.id}
              and storage = ${row.storage}
              and storage_key is not distinct from ${row.storage_key}`.execute(trx);
          if (Number(numAffectedRows ?? 0) === 1) await forgetSweptObject(trx, key);
          return Number(numAffectedRows ?? 0) === 1;
        });
        if (!switched) {
          // Deleted or changed meanwhile: the object is nobody's (else the sweep takes it).
          await objects
            .delete(key)
            .then(() => forgetSweptObject(db, key))
            .catch(() => undefined);
          continue;
        }
        result.moved += 1;
        result.bytes += data.length;
      }
    }
    results[owner] = result;
    options.log?.(`${table}: ${result.moved} moved (${result.bytes} bytes), ${result.missing} missing`);
  }
  return results;
};

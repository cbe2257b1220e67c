import { type Kysely, sql } from 'kysely';

// Attachments in an S3-compatible object store (issue 20 §1, decision 0043). Each attachment
// table says where a row's bytes are: `storage` is 'database' (in `data`), 'disk' (journal
// attachments from before 20261124_0500: a file under the attachments directory named by
// `storage_key`) or 's3' (an object whose key is `storage_key`, `data` null). Existing rows keep
// their bytes where they are, so turning S3 on later leaves every old attachment readable.
//
// `attachment_object_sweep` lists objects that must go: a row deleted in any way (its own
// route, its owner's cascade, a company erased) queues its key through a trigger in the same
// transaction, so the object is deleted only after the delete commits; an upload queues its key
// with a grace period before it writes the object and takes it off in the transaction that
// inserts the row, so an object whose row never committed is removed too. The attachment module
// deletes queued objects right after its own deletes commit, and its sweep job the rest. Keys
// hold the company's id, so the table needs no organization_id (and an erasure leaves it alone).

const TABLES = ['journal_attachments', 'bank_transaction_attachments', 'bill_attachments'] as const;

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table attachment_object_sweep (
      key text primary key,
      reason text not null check (reason in ('deleted', 'upload')),
      -- null: due now (the row is gone); else an upload's grace period ends then.
      not_before timestamptz,
      attempts integer not null default 0,
      last_error text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index attachment_object_sweep_due on attachment_object_sweep (not_before)`.execute(db);

  for (const table of TABLES) {
    const t = sql.table(table);
    if (table !== 'journal_attachments') {
      await sql`alter table ${t} add column storage_key text`.execute(db);
      await sql`alter table ${t} alter column data drop not null`.execute(db);
    }
    await sql`
      alter table ${t} add column storage text not null default 'database'
        check (storage in ('database', 'disk', 's3'))`.execute(db);
  }
  await sql`update journal_attachments set storage = 'disk' where data is null`.execute(db);
  await sql`alter table journal_attachments drop constraint journal_attachments_stored`.execute(db);
  for (const table of TABLES) {
    await sql`
      alter table ${sql.table(table)} add constraint ${sql.raw(`${table}_stored`)}
        check ((storage = 'database' and data is not null)
            or (storage <> 'database' and data is null and storage_key is not null))`.execute(db);
  }

  await sql`
    create function attachments_queue_object_delete() returns trigger language plpgsql as $$
    begin
      insert into attachment_object_sweep (key, reason, not_before) values (old.storage_key, 'deleted', null)
        on conflict (key) do update set reason = 'deleted', not_before = null;
      return old;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_queue_object_delete`)} after delete on ${sql.table(table)}
        for each row when (old.storage = 's3') execute function attachments_queue_object_delete()`.execute(
      db,
    );
  }
};

export const down = async (db: Kysely<unknown>) => {
  for (const table of TABLES) {
    await sql`drop trigger ${sql.raw(`${table}_queue_object_delete`)} on ${sql.table(table)}`.execute(db);
    await sql`alter table ${sql.table(table)} drop constraint ${sql.raw(`${table}_stored`)}`.execute(db);
  }
  await sql`drop function attachments_queue_object_delete()`.execute(db);
  // Rows whose bytes are only in the object store cannot be kept by the older schema.
  for (const table of TABLES) {
    await sql`delete from ${sql.table(table)} where storage = 's3'`.execute(db);
    await sql`alter table ${sql.table(table)} drop column storage`.execute(db);
  }
  for (const table of ['bank_transaction_attachments', 'bill_attachments']) {
    await sql`alter table ${sql.table(table)} alter column data set not null`.execute(db);
    await sql`alter table ${sql.table(table)} drop column storage_key`.execute(db);
  }
  await sql`
    alter table journal_attachments add constraint journal_attachments_stored
      check (data is not null or storage_key is not null)`.execute(db);
  await sql`drop table attachment_object_sweep`.execute(db);
};

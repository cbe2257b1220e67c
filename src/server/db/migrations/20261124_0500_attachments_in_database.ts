import { type Kysely, sql } from 'kysely';

// One attachment store (decision 0015): journal attachments keep their bytes in the
// database like bank-transaction attachments already do, and both tables carry the same
// file columns (name, sniffed type, size, sha256, data). Journal attachments uploaded before
// this keep their file on disk (storage_key) and are still read from there; new ones have
// data and no storage_key. Bank-transaction attachments gain their checksum.

export const up = async (db: Kysely<unknown>) => {
  await sql`alter table journal_attachments add column data bytea`.execute(db);
  await sql`alter table journal_attachments alter column storage_key drop not null`.execute(db);
  await sql`
    alter table journal_attachments add constraint journal_attachments_stored
      check (data is not null or storage_key is not null)`.execute(db);
  await sql`alter table bank_transaction_attachments add column sha256 text`.execute(db);
  await sql`update bank_transaction_attachments set sha256 = encode(sha256(data), 'hex')`.execute(db);
  await sql`alter table bank_transaction_attachments alter column sha256 set not null`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`alter table bank_transaction_attachments drop column sha256`.execute(db);
  await sql`delete from journal_attachments where storage_key is null`.execute(db);
  await sql`alter table journal_attachments drop constraint journal_attachments_stored`.execute(db);
  await sql`alter table journal_attachments alter column storage_key set not null`.execute(db);
  await sql`alter table journal_attachments drop column data`.execute(db);
};

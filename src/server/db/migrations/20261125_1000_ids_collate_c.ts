import { type Kysely, sql } from 'kysely';

// Import speed (issue 12, decision 0032). Every id and reference column is `text`, compared
// with the database's default collation. Unless that collation is "C", each comparison is a
// strcoll() call on copied, NUL-terminated strings, and a B-tree insert makes a dozen of them
// per index: a statement import writes four rows per bank line with about fifteen index
// entries keyed on such columns. Ids are ASCII (UUIDs and the like) and are only ever compared
// for equality or ordered for keyset pages, so byte order ("C") gives the same answers and
// costs a memcmp. Measured on one 10,000-line slice into a company of 100,000 lines
// (PostgreSQL 15, database collation C.UTF-8): 930 ms of server CPU before, 740–850 after.
//
// Every text column named `id` or `*_id`, and the bank lines' dedupe key (looked up by
// equality only), becomes COLLATE "C". Columns added by later migrations with the default
// collation still compare with these: a column's explicit collation beats the default one in
// an expression, and foreign keys between the two work (equality is the same).
//
// Also dropped: journal_entries_source (organization_id, source, source_id), which no query
// uses (entries are found by id, number, date or by their documents' columns) and which every
// posted bank entry paid for.
//
// A database whose default collation is already C or POSIX (PGlite's) is left as it is.

const ID_COLUMNS = sql`
  select c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables t using (table_schema, table_name)
   where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.data_type = 'text'
     and (c.column_name = 'id' or c.column_name like '%\\_id' or (c.table_name = 'bank_transactions' and c.column_name = 'dedupe_key'))
     and c.table_name not like 'kysely\\_%'
   order by c.table_name, c.ordinal_position`;

const defaultIsBytewise = async (db: Kysely<unknown>) => {
  const { rows } = await sql<{ collate: string }>`
    select datcollate as collate from pg_database where datname = current_database()`.execute(db);
  return ['C', 'POSIX'].includes(rows[0]?.collate ?? '');
};

const setCollation = async (db: Kysely<unknown>, collation: 'C' | 'default') => {
  const { rows } = await sql<{ table_name: string; column_name: string }>`${ID_COLUMNS}`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  const to = collation === 'C' ? 'collate "C"' : 'collate pg_catalog."default"';
  for (const [table, columns] of byTable) {
    const alters = columns.map((c) => `alter column "${c}" type text ${to}`).join(', ');
    await sql.raw(`alter table "${table}" ${alters}`).execute(db);
  }
};

export const up = async (db: Kysely<unknown>) => {
  await sql`drop index if exists journal_entries_source`.execute(db);
  if (!(await defaultIsBytewise(db))) await setCollation(db, 'C');
};

export const down = async (db: Kysely<unknown>) => {
  if (!(await defaultIsBytewise(db))) await setCollation(db, 'default');
  await sql`create index journal_entries_source on journal_entries (organization_id, source, source_id) where source_id is not null`.execute(
    db,
  );
};

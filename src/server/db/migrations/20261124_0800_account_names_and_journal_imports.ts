import { type Kysely, sql } from 'kysely';
import { keyColumns } from '../migrations-helpers.ts';

// Account names are unique per company ignoring case (issue 12 §5, decision 0018). Existing
// duplicates are renamed first so the index can be built and no account is lost: every
// account of a same-name group except one keeps its name with its code appended
// ("Rent (6110)"); system accounts and then the oldest keep the plain name. The code is
// unique per company, so the new names cannot collide with each other; should one collide
// with an existing name, the account's id is appended as well.
//
// journal_imports remembers each imported journal file by the SHA-256 of its normalised text,
// so the same file imported twice is refused with 409 instead of doubling every amount.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    with ranked as (
      select organization_id, id,
             row_number() over (
               partition by organization_id, lower(name)
               order by (system_key is null), created_at, code
             ) as n
        from accounts
    )
    update accounts a
       set name = left(a.name, 120 - length(a.code) - 3) || ' (' || a.code || ')', updated_at = now()
      from ranked r
     where r.organization_id = a.organization_id and r.id = a.id and r.n > 1`.execute(db);
  await sql`
    with ranked as (
      select organization_id, id,
             row_number() over (partition by organization_id, lower(name) order by (system_key is null), created_at, code) as n
        from accounts
    )
    update accounts a
       set name = left(a.name, 120 - 39) || ' ' || a.id, updated_at = now()
      from ranked r
     where r.organization_id = a.organization_id and r.id = a.id and r.n > 1`.execute(db);
  await sql`create unique index accounts_name_ci on accounts (organization_id, lower(name))`.execute(db);

  await sql`
    create table journal_imports (
      ${keyColumns(true)},
      fingerprint text not null check (length(fingerprint) = 64),
      entries integer not null check (entries >= 0),
      created_accounts integer not null check (created_accounts >= 0),
      imported_by text,
      created_at timestamptz not null default now(),
      primary key (organization_id, id)
    )`.execute(db);
  await sql`create unique index journal_imports_fingerprint on journal_imports (organization_id, fingerprint)`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table journal_imports`.execute(db);
  await sql`drop index accounts_name_ci`.execute(db);
};

import { type Kysely, type RawBuilder, sql } from 'kysely';

// Pieces the migrations in ./migrations share: the column sets every company table repeats,
// its composite foreign keys, trigger statements, and the ledger's trigger-function bodies
// that several migrations (re)create. This file lives outside ./migrations on purpose: the
// migrator applies every .ts file in that folder.
//
// A migration's DDL must never change once it has run anywhere. These helpers produce the
// same statements the migrations wrote out by hand; function bodies are stored verbatim by
// PostgreSQL, so those are written here byte for byte as before (indentation included).
// Proof for the refactor that introduced them: pg_dump -s after every migration, before and
// after, was identical. Never edit a helper a migration uses; add a new one instead.

type Fragment = RawBuilder<unknown>;

/** The owning company, deleted with it. */
const COMPANY_COLUMN = 'organization_id text not null references organizations (id) on delete cascade';

/** The (organization_id, id) key columns of a company table; `owned` adds the cascade to organizations. */
export const keyColumns = (owned: boolean) =>
  sql.raw(`${owned ? COMPANY_COLUMN : 'organization_id text not null'},\n      id text not null`);

/** When (and by whom) a row was made: [created_by text,] created_at [, updated_at], times defaulting to now(). */
export const createdColumns = (options: { by?: boolean; updated?: boolean }) =>
  sql.raw(
    [
      ...(options.by ? ['created_by text'] : []),
      'created_at timestamptz not null default now()',
      ...(options.updated ? ['updated_at timestamptz not null default now()'] : []),
    ].join(',\n      '),
  );

/**
 * Composite foreign keys within one company, one per column:
 * `foreign key (organization_id, <column>) references <table> (organization_id, id)`.
 * A table name ending in ' cascade' adds `on delete cascade`.
 */
export const companyRefs = (refs: Record<string, string>) =>
  sql.raw(
    Object.entries(refs)
      .map(([column, target]) => {
        const [table, cascade] = target.split(' ');
        return `foreign key (organization_id, ${column}) references ${table} (organization_id, id)${cascade === 'cascade' ? ' on delete cascade' : ''}`;
      })
      .join(',\n      '),
  );

/** Drops the foreign key companyRefs made on `column` (PostgreSQL names it <table>_organization_id_<column>_fkey). */
export const dropCompanyRef = (table: string, column: string) =>
  sql.raw(`alter table ${table} drop constraint ${table}_organization_id_${column}_fkey`);

/** Adds back, under its original name, the foreign key companyRefs made on `column`. */
export const addCompanyRef = (table: string, column: string, target: string) =>
  sql.raw(
    `alter table ${table} add constraint ${table}_organization_id_${column}_fkey foreign key (organization_id, ${column}) references ${target} (organization_id, id)`,
  );

/**
 * `create trigger <name> <event> [referencing new table as <newTable>] for each statement
 * execute function <fn>()`, the event as in SQL: 'after insert on journal_lines'.
 */
export const statementTrigger = (name: string, event: string, fn: string, newTable?: string) =>
  sql.raw(
    `create trigger ${name} ${event}${newTable ? ` referencing new table as ${newTable}` : ''} for each statement execute function ${fn}()`,
  );

/** `create trigger <name> <event> for each row execute function <fn>()`. */
export const rowTrigger = (name: string, event: string, fn: string) =>
  sql.raw(`create trigger ${name} ${event} for each row execute function ${fn}()`);

/**
 * A constraint trigger checked at commit:
 * `create constraint trigger <name> <event> deferrable initially deferred for each row [when (<when>)] execute function <fn>()`.
 */
export const commitTrigger = (name: string, event: string, fn: string, when?: string) =>
  sql.raw(
    `create constraint trigger ${name} ${event} deferrable initially deferred for each row${when ? ` when (${when})` : ''} execute function ${fn}()`,
  );

/** journal_entries_balanced (0400; dropped by 1000, whose down step adds it back): the per-entry check at commit. */
export const entriesBalancedTrigger = commitTrigger(
  'journal_entries_balanced',
  'after insert or update on journal_entries',
  'ledger_check_entry_balanced',
  "new.status = 'posted'",
);

/** Planner settings that keep a trigger function's queries on index lookups (decision 0020). */
export const INDEX_ONLY = sql.raw(
  `set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off`,
);

/** A trigger function that only refuses, with `message`, as a check violation. */
export const refusingFunction = (name: string, message: string) =>
  sql.raw(`
    create function ${name}() returns trigger language plpgsql as $$
    begin
      raise exception '${message}'
        using errcode = 'check_violation';
    end $$`);

/**
 * ledger_refuse_posted_entry_change, as 0400 (`insertToo: false, stamp: false`), 0401
 * (`insertToo: true, stamp: true`: it also runs on insert, so only an UPDATE of a posted entry
 * is refused) and 1000 (`insertToo: false, stamp: true`) wrote it.
 */
export const refusePostedEntryChange = (create: string, options: { insertToo: boolean; stamp: boolean }) =>
  sql.raw(`
    ${create} function ledger_refuse_posted_entry_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        if old.status = 'posted' then
          raise exception 'posted journal entry % cannot be deleted; post a reversing entry instead', old.id
            using errcode = 'check_violation';
        end if;
        return old;
      end if;
      if ${options.insertToo ? "tg_op = 'UPDATE' and " : ''}old.status = 'posted' then
        raise exception 'posted journal entry % cannot be changed; post a reversing entry instead', old.id
          using errcode = 'check_violation';
      end if;${
        options.stamp
          ? `
      if new.status = 'posted' then
        new.posted_txid := txid_current();
      else
        new.posted_txid := null;
      end if;`
          : ''
      }
      return new;
    end $$`);

/** journal_entries_immutable: runs ledger_refuse_posted_entry_change `timing` (e.g. 'before update or delete'). */
export const entriesImmutableTrigger = (timing: string) =>
  rowTrigger(
    'journal_entries_immutable',
    `${timing} on journal_entries`,
    'ledger_refuse_posted_entry_change',
  );

const LINE_GUARDS = `
      select l.entry_id into bad
        from new_lines l
        left join journal_entries e on e.organization_id = l.organization_id and e.id = l.entry_id
       where e.id is null or e.status <> 'posted' or e.date <> l.date or e.number <> l.entry_number
          or e.is_closing <> l.is_closing or e.posted_txid is distinct from txid_current()
       limit 1;
      if found then
        raise exception 'journal line does not belong to an entry posted in this transaction (entry %)', bad.entry_id
          using errcode = 'check_violation';
      end if;
      select l.date, s.lock_date into bad
        from new_lines l
        join ledger_settings s on s.organization_id = l.organization_id
       where s.lock_date is not null and l.date <= s.lock_date
       limit 1;
      if found then
        raise exception 'the books are locked through %; nothing can post on or before that date', bad.lock_date
          using errcode = 'check_violation';
      end if;`;

/**
 * ledger_keep_balances: upserts the kept monthly balances from the statement's new lines.
 * With `guards` (0401 on) it first refuses lines not of an entry posted in this transaction
 * and lines on or before the lock date, then runs `extra` (0300's volume step).
 */
export const keepBalancesFunction = (create: string, guards: boolean, extra: Fragment = sql``) => sql`
    ${sql.raw(create)} function ledger_keep_balances() returns trigger language plpgsql as $$
    ${sql.raw(guards ? `declare\n      bad record;\n    begin${LINE_GUARDS}` : 'begin')}${extra}
      insert into account_period_balances (organization_id, account_id, period, is_closing, debit, credit)
        select organization_id, account_id, date_trunc('month', date)::date, is_closing, sum(debit), sum(credit)
          from new_lines
         group by organization_id, account_id, date_trunc('month', date)::date, is_closing
         order by 1, 2, 3, 4
      on conflict (organization_id, account_id, period, is_closing) do update
        set debit = account_period_balances.debit + excluded.debit,
            credit = account_period_balances.credit + excluded.credit;
      return null;
    end $$`;

/** The statement trigger on journal_lines that runs ledger_keep_balances. */
export const keepBalancesTrigger = statementTrigger(
  'journal_lines_keep_balances',
  'after insert on journal_lines',
  'ledger_keep_balances',
  'new_lines',
);

/** A down step: drops each table (cascade, if it exists), in the order given. */
export const dropTables = async (db: Kysely<unknown>, tables: string[]) => {
  for (const table of tables) {
    await sql`drop table if exists ${sql.id(table)} cascade`.execute(db);
  }
};

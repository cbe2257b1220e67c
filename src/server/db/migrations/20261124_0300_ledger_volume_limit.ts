import { type Kysely, sql } from 'kysely';
import { keepBalancesFunction } from '../migrations-helpers.ts';

// The amount bound (decision 0013). Every company's ledger keeps its posted volume: the sum
// over all posted lines of debit + credit + the foreign amount, in minor units. The
// statement-level trigger that keeps the monthly balances adds each insert's volume to it and
// refuses (SQLSTATE KL001, answered as 409 ledger_limit_reached) any insert that would take it
// past 10^15. So every balance, kept monthly balance, report total and wallet movement is at
// most 10^15 in absolute value: exact in bigint and in a JavaScript number, whichever module
// wrote the lines (the ledger's posting service or the transactions module's bulk writer).

const LEDGER_VOLUME_LIMIT_SQL = '1000000000000000';

const volumeStep = sql`
      with added as (
        select organization_id, sum(debit::numeric + credit + coalesce(amount, 0)) as volume
          from new_lines group by organization_id
      )
      update ledger_settings s set posted_volume = s.posted_volume + a.volume
        from added a
       where s.organization_id = a.organization_id;
      select s.organization_id, s.posted_volume into bad
        from ledger_settings s
       where s.organization_id in (select organization_id from new_lines)
         and s.posted_volume > ${sql.raw(LEDGER_VOLUME_LIMIT_SQL)}
       limit 1;
      if found then
        raise exception 'ledger volume limit: posting would take the ledger of % to % minor units', bad.organization_id, bad.posted_volume
          using errcode = 'KL001';
      end if;`;

const keepBalances = (withVolume: boolean) =>
  keepBalancesFunction(
    'create or replace',
    true,
    sql`
      ${withVolume ? volumeStep : sql``}`,
  );

export const up = async (db: Kysely<unknown>) => {
  await sql`alter table ledger_settings add column posted_volume numeric not null default 0`.execute(db);
  await sql`
    update ledger_settings s set posted_volume = v.volume
      from (select organization_id, sum(debit + credit + coalesce(amount, 0)) as volume
              from journal_lines group by organization_id) v
     where s.organization_id = v.organization_id`.execute(db);

  await keepBalances(true).execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await keepBalances(false).execute(db);
  await sql`alter table ledger_settings drop column posted_volume`.execute(db);
};

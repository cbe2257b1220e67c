import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/db.ts';

// The schema stays ready to be distributed by company (issue 20 §9, docs/scaling.md): a table
// that holds a company's rows has `organization_id` first in its primary key, and every
// foreign key between two such tables includes `organization_id`, so a company's rows and
// the rows they point at always live together (on Citus: distributed by organization_id and
// co-located). Tables without the column are the platform's own (users, sessions, billing
// accounts, the job queue, admin logs) and stay whole on every node.

// Tables that carry organization_id but are keyed otherwise, each with the reason.
const KEYED_OTHERWISE: Record<string, string> = {
  // A user's notices: keyed by user; security notices name no company, a company event's
  // row names it only so that deleting the company deletes them.
  notifications: 'keyed by user',
};

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let handle: Db;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => handle?.close());

const tenantTables = async () => {
  const { rows } = await sql<{ table: string; pk: string[] | null }>`
    select c.relname as "table",
      (select array_agg(a.attname::text order by k.ord)
         from pg_index i
         cross join lateral unnest(i.indkey) with ordinality k(attnum, ord)
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
        where i.indrelid = c.oid and i.indisprimary) as pk
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname = current_schema()
       and exists (select 1 from pg_attribute a
                    where a.attrelid = c.oid and a.attname = 'organization_id' and not a.attisdropped)
     order by 1`.execute(handle.db);
  return rows;
};

describe('tenant keys', () => {
  it('every company table has organization_id first in its primary key', async () => {
    const tables = await tenantTables();
    expect(tables.length).toBeGreaterThan(40);
    const wrong = tables
      .filter((t) => !(t.table in KEYED_OTHERWISE))
      .filter((t) => t.pk?.[0] !== 'organization_id')
      .map((t) => `${t.table} (${t.pk?.join(', ') ?? 'no primary key'})`);
    expect(wrong).toEqual([]);
  });

  it('every foreign key between company tables includes organization_id', async () => {
    const tenant = new Set((await tenantTables()).map((t) => t.table));
    const { rows } = await sql<{ from: string; to: string; name: string; columns: string[] }>`
      select cl.relname as "from", rl.relname as "to", con.conname as name,
        (select array_agg(a.attname::text) from unnest(con.conkey) k
           join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k) as columns
        from pg_constraint con
        join pg_class cl on cl.oid = con.conrelid
        join pg_class rl on rl.oid = con.confrelid
       where con.contype = 'f' and con.connamespace = (select oid from pg_namespace where nspname = current_schema())
       order by 1, 3`.execute(handle.db);
    const between = rows.filter(
      (r) => tenant.has(r.from) && tenant.has(r.to) && !(r.from in KEYED_OTHERWISE),
    );
    expect(between.length).toBeGreaterThan(50);
    const wrong = between
      .filter((r) => !r.columns.includes('organization_id'))
      .map((r) => `${r.name}: ${r.from} (${r.columns.join(', ')}) → ${r.to}`);
    expect(wrong).toEqual([]);
  });
});

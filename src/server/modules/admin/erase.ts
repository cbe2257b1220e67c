import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import { queueAttachmentSweep } from '../attachments/sweep.ts';

// Deleting a whole company. Every company table cascades from organizations, but a single
// delete of the organizations row is not enough: PostgreSQL checks a table's plain foreign
// key to another company table (account_period_balances → accounts) as soon as the cascade
// reaches the referenced rows, before the referencing ones are gone. So the company's rows are
// deleted table by table, every table before the ones it references (read from the catalog,
// so a new company table needs nothing here), then the organizations row. The ledger's guards
// refuse deleting posted entries, their lines and kept balances unless the transaction names
// the company being erased (migration 20261128_0700_company_erase): set for the erasure, then
// cleared. The company's audit_log rows stay: they record what happened (the admin console
// shows them without a company name).
// Attachments whose bytes are in the object store: deleting their rows queues their keys
// (a trigger, migration 20261129_1000), and a sweep queued here deletes the objects once the
// erasure commits (decision 0043).

const KEPT = new Set(['audit_log']);

/** The tables holding company rows (an organization_id column), referencing tables first. */
const companyTablesInDeleteOrder = async (trx: Executor) => {
  const tables = (
    await sql<{ table_name: string }>`
      select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = current_schema() and c.column_name = 'organization_id'
         and t.table_type = 'BASE TABLE'
       order by c.table_name`.execute(trx)
  ).rows
    .map((r) => r.table_name)
    .filter((name) => !KEPT.has(name));
  const edges = (
    await sql<{ child: string; parent: string }>`
      select distinct ch.relname as child, pa.relname as parent
        from pg_constraint k
        join pg_class ch on ch.oid = k.conrelid
        join pg_class pa on pa.oid = k.confrelid
        join pg_namespace n on n.oid = ch.relnamespace
       where k.contype = 'f' and n.nspname = current_schema() and k.conrelid <> k.confrelid`.execute(trx)
  ).rows.filter((e) => tables.includes(e.child) && tables.includes(e.parent));
  // Kahn's algorithm on "child before parent": a table goes once nothing left references it.
  const referencedBy = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) referencedBy.get(e.parent)!.add(e.child);
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size > 0) {
    const ready = [...left].filter((t) => [...referencedBy.get(t)!].every((child) => !left.has(child)));
    // A cycle of references (none today): delete the rest in name order, each statement whole.
    const next = ready.length > 0 ? ready : [...left];
    for (const t of next) {
      order.push(t);
      left.delete(t);
    }
  }
  return order;
};

export const eraseCompany = async (trx: Executor, organizationId: string) => {
  await sql`select set_config('kontor.erasing_company', ${organizationId}, true)`.execute(trx);
  for (const table of await companyTablesInDeleteOrder(trx)) {
    await sql`delete from ${sql.table(table)} where organization_id = ${organizationId}`.execute(trx);
  }
  const deleted = await trx.deleteFrom('organizations').where('id', '=', organizationId).executeTakeFirst();
  await sql`select set_config('kontor.erasing_company', '', true)`.execute(trx);
  await queueAttachmentSweep(trx, new Date());
  return Number(deleted.numDeletedRows) > 0;
};

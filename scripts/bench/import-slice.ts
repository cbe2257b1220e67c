import fs from 'node:fs';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { newEntryId } from '../../src/server/modules/ledger/ids.ts';
import { copyText } from '../../src/server/db/copy.ts';

// Where the server's time goes on one slice of a statement import (issue 12), on a database that
// `scripts/bench/transactions.ts --keep` left behind (PostgreSQL). Takes --rows (default 10,000)
// existing bank lines of the bench company as templates, gives them new ids and numbers, and
// writes them as the import does — entries, two lines each, bank lines — inside a transaction
// that is rolled back, once with `insert … select … from unnest(…)` and once with COPY FROM
// STDIN (text format), several times each. Reports each statement's wall time and the backend's
// CPU time (/proc/<pid>/stat), and with --explain the EXPLAIN (ANALYZE) trigger times.
// Usage: node --import tsx scripts/bench/import-slice.ts postgres://…/kontor_bench_transactions_… [--rows 10000] [--runs 3] [--explain]

const url = process.argv[2];
if (!url) throw new Error('database URL required');
const argOf = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rows = argOf('rows', 10_000);
const runs = argOf('runs', 3);
const explain = process.argv.includes('--explain');

pg.types.setTypeParser(1082, (value) => value);
const client = new pg.Client({ connectionString: url });
await client.connect();
const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
const cpuMs = () => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

const { rows: orgs } = await client.query<{ organization_id: string; n: string }>(
  'select organization_id, count(*) n from bank_transactions group by 1 order by 2 desc limit 1',
);
const org = orgs[0]!.organization_id;
const templates = (
  await client.query(
    `select b.*, e.memo, e.source, e.created_by as e_created_by
       from bank_transactions b join journal_entries e on e.organization_id = b.organization_id and e.id = b.entry_id
      where b.organization_id = $1 order by b.id limit $2`,
    [org, rows],
  )
).rows;
const lineTemplates = (
  await client.query(
    `select l.* from journal_lines l where l.organization_id = $1 and l.entry_id = any($2::text[]) order by entry_id, line_no`,
    [org, templates.map((t) => t.entry_id)],
  )
).rows;
const linesByEntry = new Map<string, typeof lineTemplates>();
for (const l of lineTemplates) {
  const list = linesByEntry.get(l.entry_id) ?? [];
  list.push(l);
  linesByEntry.set(l.entry_id, list);
}
console.error(
  `company ${org}, ${templates.length} bank lines, ${lineTemplates.length} journal lines as templates`,
);

type Timing = { ms: number; cpu: number; node: number };
const measure = async (fn: () => Promise<unknown>): Promise<Timing> => {
  const c0 = cpuMs();
  const n0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const n = process.cpuUsage(n0);
  return { ms: Math.round(ms), cpu: Math.round(cpuMs() - c0), node: Math.round((n.user + n.system) / 1000) };
};

const slice = (start: number) => {
  const entryIds = templates.map(() => newEntryId());
  const bankIds = templates.map(() => newEntryId());
  const numbers = templates.map((_, i) => start + i);
  const e = {
    id: entryIds,
    number: numbers,
    date: templates.map((t) => t.date as string),
    memo: templates.map((t) => t.memo as string),
    source: templates.map((t) => t.source as string),
    sourceId: bankIds,
  };
  const l = {
    entryId: [] as string[],
    lineNo: [] as number[],
    accountId: [] as string[],
    date: [] as string[],
    number: [] as number[],
    debit: [] as number[],
    credit: [] as number[],
    description: [] as (string | null)[],
  };
  templates.forEach((t, i) => {
    for (const x of linesByEntry.get(t.entry_id) ?? []) {
      l.entryId.push(entryIds[i]!);
      l.lineNo.push(x.line_no);
      l.accountId.push(x.account_id);
      l.date.push(t.date);
      l.number.push(numbers[i]!);
      l.debit.push(Number(x.debit));
      l.credit.push(Number(x.credit));
      l.description.push(x.description);
    }
  });
  const b = {
    id: bankIds,
    moneyAccountId: templates.map((t) => t.money_account_id as string),
    date: templates.map((t) => t.date as string),
    description: templates.map((t) => t.description as string),
    payee: templates.map((t) => t.payee as string | null),
    amount: templates.map((t) => Number(t.amount)),
    status: templates.map((t) => t.status as string),
    categoryKind: templates.map((t) => t.category_kind as string),
    categoryAccountId: templates.map((t) => t.category_account_id as string | null),
    entryId: entryIds,
    importId: templates.map((t) => t.import_id as string | null),
    externalId: templates.map((t) => `${t.external_id}-x${start}`),
    dedupeKey: templates.map((t) => `${t.dedupe_key}-x${start}`),
    descriptionKey: templates.map((t) => t.description_key as string),
  };
  return { e, l, b };
};

const insertUnnest = (s: ReturnType<typeof slice>, prefix = '') => ({
  entries: () =>
    client.query(
      `${prefix} insert into journal_entries (organization_id, id, number, date, memo, source, source_id, status, posted_at)
       select $1, u.id, u.number, u.date, u.memo, u.source, u.source_id, 'posted', now()
         from unnest($2::text[], $3::bigint[], $4::date[], $5::text[], $6::text[], $7::text[]) as u(id, number, date, memo, source, source_id)`,
      [org, s.e.id, s.e.number, s.e.date, s.e.memo, s.e.source, s.e.sourceId],
    ),
  lines: () =>
    client.query(
      `${prefix} insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, debit, credit, description)
       select $1, u.* from unnest($2::text[], $3::smallint[], $4::text[], $5::date[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[])
         as u(entry_id, line_no, account_id, date, entry_number, debit, credit, description)`,
      [
        org,
        s.l.entryId,
        s.l.lineNo,
        s.l.accountId,
        s.l.date,
        s.l.number,
        s.l.debit,
        s.l.credit,
        s.l.description,
      ],
    ),
  bank: () =>
    client.query(
      `${prefix} insert into bank_transactions (organization_id, id, money_account_id, date, description, payee, amount, status,
         category_kind, category_account_id, entry_id, import_id, external_id, dedupe_key, description_key)
       select $1, u.* from unnest($2::text[], $3::text[], $4::date[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[],
         $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
         as u(id, money_account_id, date, description, payee, amount, status, category_kind, category_account_id, entry_id,
              import_id, external_id, dedupe_key, description_key)`,
      [
        org,
        s.b.id,
        s.b.moneyAccountId,
        s.b.date,
        s.b.description,
        s.b.payee,
        s.b.amount,
        s.b.status,
        s.b.categoryKind,
        s.b.categoryAccountId,
        s.b.entryId,
        s.b.importId,
        s.b.externalId,
        s.b.dedupeKey,
        s.b.descriptionKey,
      ],
    ),
});

const copyInto = (
  table: string,
  columns: string[],
  data: readonly (readonly (string | number | null)[])[],
  n: number,
) =>
  new Promise<void>((resolve, reject) => {
    const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
    stream.on('finish', () => resolve());
    stream.on('error', reject);
    stream.end(copyText(data, n));
  });
const orgColumn = (n: number) => new Array<string>(n).fill(org);
const insertCopy = (s: ReturnType<typeof slice>) => ({
  entries: () => {
    const n = s.e.id.length;
    return copyInto(
      'journal_entries',
      ['organization_id', 'id', 'number', 'date', 'memo', 'source', 'source_id', 'status', 'posted_at'],
      [
        orgColumn(n),
        s.e.id,
        s.e.number,
        s.e.date,
        s.e.memo,
        s.e.source,
        s.e.sourceId,
        new Array(n).fill('posted'),
        new Array(n).fill(new Date().toISOString()),
      ],
      n,
    );
  },
  lines: () => {
    const n = s.l.entryId.length;
    return copyInto(
      'journal_lines',
      [
        'organization_id',
        'entry_id',
        'line_no',
        'account_id',
        'date',
        'entry_number',
        'debit',
        'credit',
        'description',
      ],
      [
        orgColumn(n),
        s.l.entryId,
        s.l.lineNo,
        s.l.accountId,
        s.l.date,
        s.l.number,
        s.l.debit,
        s.l.credit,
        s.l.description,
      ],
      n,
    );
  },
  bank: () => {
    const n = s.b.id.length;
    return copyInto(
      'bank_transactions',
      [
        'organization_id',
        'id',
        'money_account_id',
        'date',
        'description',
        'payee',
        'amount',
        'status',
        'category_kind',
        'category_account_id',
        'entry_id',
        'import_id',
        'external_id',
        'dedupe_key',
        'description_key',
      ],
      [
        orgColumn(n),
        s.b.id,
        s.b.moneyAccountId,
        s.b.date,
        s.b.description,
        s.b.payee,
        s.b.amount,
        s.b.status,
        s.b.categoryKind,
        s.b.categoryAccountId,
        s.b.entryId,
        s.b.importId,
        s.b.externalId,
        s.b.dedupeKey,
        s.b.descriptionKey,
      ],
      n,
    );
  },
});

const { rows: maxRows } = await client.query<{ n: string }>(
  'select coalesce(max(number), 0) + 1 as n from journal_entries where organization_id = $1',
  [org],
);
let next = Number(maxRows[0]!.n) + 1_000_000;
const results: Record<string, Timing[]> = {};
const record = (key: string, t: Timing) => {
  if (!results[key]) results[key] = [];
  results[key]!.push(t);
};
for (let run = 0; run < runs; run += 1) {
  for (const how of ['unnest', 'copy'] as const) {
    const s = slice(next);
    next += rows;
    const w = how === 'unnest' ? insertUnnest(s) : insertCopy(s);
    await client.query('begin');
    record(`${how} entries`, await measure(w.entries));
    record(`${how} lines`, await measure(w.lines));
    record(`${how} bank lines`, await measure(w.bank));
    await client.query('rollback');
  }
  if (explain) {
    const s = slice(next);
    next += rows;
    const w = insertUnnest(s, 'explain (analyze, buffers, format json)');
    await client.query('begin');
    for (const [name, fn] of Object.entries(w)) {
      const r = await fn();
      const plan = (r.rows[0] as { 'QUERY PLAN': unknown[] })['QUERY PLAN'][0] as {
        'Execution Time': number;
        Triggers: { 'Trigger Name': string; Time: number; Calls: number }[];
        Plan: { 'Actual Total Time': number };
      };
      console.error(
        `explain ${name}: execution ${Math.round(plan['Execution Time'])} ms (insert ${Math.round(plan.Plan['Actual Total Time'])} ms); triggers: ${plan.Triggers.map((t) => `${t['Trigger Name']} ${Math.round(t.Time)} ms × ${t.Calls}`).join(', ')}`,
      );
    }
    await client.query('rollback');
  }
}
for (const [key, list] of Object.entries(results)) {
  console.log(
    `${key.padEnd(18)} wall ${list.map((t) => t.ms).join(' / ')} ms; backend CPU ${list.map((t) => t.cpu).join(' / ')} ms; node CPU ${list.map((t) => t.node).join(' / ')} ms`,
  );
}
await client.end();

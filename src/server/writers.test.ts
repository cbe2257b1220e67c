import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One writer each (issue 13 §3, decision 0024): only the ledger module writes the journal
// tables, and only the bank-transactions module writes the bank-transaction tables. This test
// reads every server source file (not tests, test helpers or migrations) and fails on a
// Kysely write (insertInto, updateTable, deleteFrom, replaceInto, mergeInto) or a raw SQL
// insert/update/delete/truncate of one of those tables anywhere else.

const SERVER = path.dirname(fileURLToPath(import.meta.url));

const OWNERS = [
  {
    owner: 'modules/ledger/',
    tables: [
      'journal_entries',
      'journal_lines',
      'journal_draft_lines',
      'account_period_balances',
      'fiscal_year_closes',
      'journal_imports',
    ],
  },
  {
    owner: 'modules/bank-transactions/',
    tables: ['bank_transactions', 'bank_transaction_splits'],
  },
];

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The writes of `table` in a source text, as "line: text". */
const writesOf = (source: string, table: string) => {
  const t = escapeRegex(table);
  const patterns = [
    // Kysely: db.insertInto('bank_transactions'), .updateTable('bank_transactions as t'), …
    new RegExp(
      `\\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\\(\\s*['"\`]${t}(?:\\s+as\\s+\\w+)?['"\`]`,
    ),
    // Raw SQL: insert into bank_transactions, update bank_transactions t, delete from …, truncate …
    new RegExp(
      `\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?|merge\\s+into|copy)\\s+(?:only\\s+)?(?:public\\.)?"?${t}"?(?![\\w])`,
      'i',
    ),
  ];
  const found: string[] = [];
  const lines = source.split('\n');
  // Join each line with the next so a statement split after its verb is still seen.
  lines.forEach((line, i) => {
    const window = `${line} ${(lines[i + 1] ?? '').trim()}`;
    const alone = patterns.some((p) => p.test(line));
    const joined = patterns.some((p) => p.test(window)) && !patterns.some((p) => p.test(lines[i + 1] ?? ''));
    if (alone || joined) {
      found.push(`${i + 1}: ${line.trim()}`);
    }
  });
  // COPY (db/copy.ts): copyRows(db, 'bank_transactions', …), its arguments often on lines of their own.
  for (const m of source.matchAll(new RegExp(`\\bcopyRows\\(\\s*[\\w.]+\\s*,\\s*['"\`]${t}['"\`]`, 'g'))) {
    const line = source.slice(0, m.index).split('\n').length;
    found.push(`${line}: ${lines[line - 1]!.trim()}`);
  }
  return found;
};

const sourceFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });

const rel = (file: string) => path.relative(SERVER, file).split(path.sep).join('/');

const production = sourceFiles(SERVER).filter((file) => {
  const r = rel(file);
  // Migrations, and the helpers they share (db/migrations-helpers.ts), create the tables and triggers.
  return (
    !r.endsWith('.test.ts') &&
    !r.startsWith('testing/') &&
    !r.startsWith('db/migrations/') &&
    r !== 'db/migrations-helpers.ts'
  );
});

describe('one writer each', () => {
  it('finds the writes it looks for (the check can fail)', () => {
    expect(
      writesOf(`await trx.insertInto('bank_transactions').values(row)`, 'bank_transactions'),
    ).toHaveLength(1);
    expect(writesOf(`db.updateTable('bank_transactions as t').set({})`, 'bank_transactions')).toHaveLength(1);
    expect(writesOf(`  .deleteFrom('journal_lines')`, 'journal_lines')).toHaveLength(1);
    expect(writesOf('await sql`update bank_transactions t set x = 1`', 'bank_transactions')).toHaveLength(1);
    expect(writesOf('insert into\n  journal_entries (id) values (1)', 'journal_entries')).toHaveLength(1);
    expect(writesOf('DELETE FROM bank_transaction_splits where', 'bank_transaction_splits')).toHaveLength(1);
    expect(writesOf("copy bank_transactions (id) from '/dev/blob'", 'bank_transactions')).toHaveLength(1);
    expect(writesOf("await copyRows(\n  trx,\n  'journal_lines',\n  COLUMNS,", 'journal_lines')).toHaveLength(
      1,
    );
    // Reads, longer names and other tables are not writes of the table.
    expect(writesOf(`db.selectFrom('bank_transactions')`, 'bank_transactions')).toEqual([]);
    expect(writesOf(`db.insertInto('bank_transaction_matches')`, 'bank_transactions')).toEqual([]);
    expect(writesOf('update bank_transactions_archive set', 'bank_transactions')).toEqual([]);
    expect(writesOf('select * from bank_transactions', 'bank_transactions')).toEqual([]);
  });

  it('reads the server tree, with the owners in it', () => {
    expect(production.length).toBeGreaterThan(50);
    for (const { owner, tables } of OWNERS) {
      const owned = production.filter((f) => rel(f).startsWith(owner));
      const writes = owned.flatMap((f) => {
        const text = fs.readFileSync(f, 'utf8');
        return tables.flatMap((t) => writesOf(text, t));
      });
      expect(writes.length, `${owner} should hold the writes`).toBeGreaterThan(0);
    }
  });

  for (const { owner, tables } of OWNERS) {
    it(`only ${owner} writes ${tables.join(', ')}`, () => {
      const outside = production
        .filter((f) => !rel(f).startsWith(owner))
        .flatMap((f) => {
          const text = fs.readFileSync(f, 'utf8');
          return tables.flatMap((t) => writesOf(text, t).map((w) => `${rel(f)}:${w}`));
        });
      expect(outside).toEqual([]);
    });
  }
});

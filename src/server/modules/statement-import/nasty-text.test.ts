import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvMappingSchema, statementImportInputSchema } from '../../../shared/transactions.ts';
import { copyField, copyText } from '../../db/copy.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { addUsdBankAccount } from '../../testing/statements.ts';
import { commitStatement, previewStatement } from './service.ts';

// The import writes its rows with COPY's text format (db/copy.ts), where a tab, newline, carriage
// return or backslash inside a value must be escaped and \N means NULL. Text that looks like the
// format's own syntax must come back exactly as the file had it, on PGlite and PostgreSQL
// (TEST_DATABASE_URL); a NUL, which no text column can hold, refuses the file naming its line.

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;

const member = () => ({ organizationId: company.id, userId: company.owner.id, role: 'owner' as const });
const mapping = csvMappingSchema.parse({
  dateColumn: 0,
  descriptionColumn: 1,
  amountColumn: 2,
  payeeColumn: 3,
  externalIdColumn: 4,
  dateFormat: 'YYYY-MM-DD',
});
const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Descriptions and payees (whitespace is collapsed by the CSV reader) and external ids (kept as written). */
const NASTY = [
  { text: 'back\\slash \\N \\. \\\\ end\\', id: 'id\twith\ttabs' },
  { text: '\\N', id: 'line\nbreak' },
  { text: '\\.', id: 'carriage\rreturn\r\n' },
  { text: 'Café Ünïcødé 😀 日本', id: 'trailing backslash\\' },
  { text: '"quoted" \'single\' ; , | \\t literally', id: '\\N' },
  { text: 'NULL', id: '\\.' },
  { text: '\u0001\u0007\u001b control', id: ' spaced  id ' },
];

beforeAll(async () => {
  t = await createTestApp();
  company = await createTestCompany(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('COPY text format', () => {
  it('escapes exactly the four characters the format reserves, and writes NULL as \\N', () => {
    expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyField('\\N')).toBe('\\\\N');
    expect(copyField(null)).toBe('\\N');
    expect(copyField('')).toBe('');
    expect(copyField(-12)).toBe('-12');
    expect(copyField('é\u0001')).toBe('é\u0001');
    expect(() => copyField('a\u0000b')).toThrow(/NUL/);
    expect(() => copyField(Number.NaN)).toThrow();
    expect(copyText([['x', null], { every: 'k' }], 2)).toBe('x\tk\n\\N\tk\n');
    expect(copyText([['a', 'b', 'c']], 3, 1, 3)).toBe('b\nc\n');
  });
});

describe('statement import of text that looks like COPY syntax', () => {
  it('stores descriptions, payees and references exactly as read, in the bank lines and the journal', {
    timeout: 60_000,
  }, async () => {
    const moneyAccountId = await addUsdBankAccount(t.app, company);
    const lines = ['Date,Description,Amount,Payee,Reference'];
    NASTY.forEach((n, i) => {
      lines.push(
        [
          `2025-01-${String(i + 1).padStart(2, '0')}`,
          csvCell(n.text),
          `-${i + 1}.25`,
          csvCell(`P ${n.text}`),
          csvCell(n.id),
        ].join(','),
      );
    });
    const input = statementImportInputSchema.parse({
      moneyAccountId,
      fileName: 'nasty.csv',
      content: `${lines.join('\r\n')}\r\n`,
      mapping,
    });
    const preview = await previewStatement(t.ctx, member(), input);
    // What the reader made of the cells (it trims cells and may normalise line ends) still holds
    // every character COPY's text format reserves.
    const ids = preview.rows.map((r) => r.externalId ?? '');
    for (const reserved of ['\t', '\n', '\\', '\\N', '\\.'])
      expect(ids.some((id) => id.includes(reserved))).toBe(true);
    const result = await commitStatement(t.ctx, member(), input);
    expect(result.imported).toBe(NASTY.length);
    const stored = await sql<{
      description: string;
      payee: string | null;
      external_id: string | null;
      amount: number;
      memo: string;
      line_descriptions: string[];
    }>`
      select b.description, b.payee, b.external_id, b.amount, e.memo,
             array(select l.description from journal_lines l
                    where l.organization_id = e.organization_id and l.entry_id = e.id order by l.line_no) as line_descriptions
        from bank_transactions b
        join journal_entries e on e.organization_id = b.organization_id and e.id = b.entry_id
       where b.organization_id = ${company.id} and b.money_account_id = ${moneyAccountId}
       order by b.date`.execute(t.ctx.database.db);
    expect(stored.rows).toHaveLength(NASTY.length);
    stored.rows.forEach((row, i) => {
      const read = preview.rows[i]!;
      expect(row.description).toBe(read.description);
      expect(row.payee).toBe(read.payee);
      expect(row.external_id).toBe(read.externalId);
      expect(row.amount).toBe(-(i + 1) * 100 - 25);
      expect(row.memo).toBe(read.description);
      for (const d of row.line_descriptions) expect(d === null || d === read.description).toBe(true);
    });
    // The reader collapses whitespace in descriptions but keeps backslashes and the rest.
    expect(stored.rows[0]!.description).toBe('back\\slash \\N \\. \\\\ end\\');
    expect(stored.rows[1]!.description).toBe('\\N');
    // The same file again: every line is found as a duplicate by its stored key.
    const again = await commitStatement(t.ctx, member(), input);
    expect(again).toMatchObject({ imported: 0, duplicates: NASTY.length });
  });

  it('refuses a NUL character in a line, naming the line, and writes nothing', async () => {
    const moneyAccountId = await addUsdBankAccount(t.app, company);
    // Past the first 8 KB, where the reader's binary-file check does not look.
    const filler = Array.from(
      { length: 200 },
      (_, i) => `2025-02-01,Filler ${'x'.repeat(40)} ${i},-1.00,P,F${i}`,
    );
    const content = [
      'Date,Description,Amount,Payee,Reference',
      ...filler,
      '2025-02-02,Bad\u0000name,-2.00,P,NUL1',
    ].join('\n');
    const input = statementImportInputSchema.parse({ moneyAccountId, fileName: 'nul.csv', content, mapping });
    await expect(commitStatement(t.ctx, member(), input)).rejects.toMatchObject({
      status: 400,
      details: { errors: [{ line: 202, reason: expect.stringMatching(/NUL/) }] },
    });
    const count = await sql<{ n: number }>`
      select count(*)::int as n from bank_transactions
       where organization_id = ${company.id} and money_account_id = ${moneyAccountId}`.execute(
      t.ctx.database.db,
    );
    expect(count.rows[0]!.n).toBe(0);
  });
});

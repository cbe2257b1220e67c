import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import { currencyExponent, parseDecimalToMinor } from '../../../shared/money.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { setUpTestDatabase } from '../../testing/per-file-app.ts';
import { type ToolBalances, hledgerBalances, ledgerBalances } from './corpus-balances.ts';
import { toolAvailable } from './external.ts';
import { importJournal } from './journal-import.ts';
import { trialBalance } from './reports.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';

// The real-world journal corpus (../shared/corpus/journal, SOURCES.md gives each file's
// origin): every file is imported through the service the API uses into a fresh company and
// either agrees with hledger's or ledger's balances to the cent, or is refused at the line and
// for the reason written down in journal-corpus.expected.json. The expected balances were
// computed with scripts/journal-corpus-expected.ts and checked by reading the files; where
// the tools are installed they are recomputed here too.

const corpusDir = path.resolve(import.meta.dirname, '../../../../../shared/corpus/journal');
const hasCorpus = fs.existsSync(corpusDir);
type Expectation = {
  baseCurrency: string;
  tool?: 'hledger' | 'ledger';
  balances?: ToolBalances;
  notices?: number[];
  refused?: { line: number; includes: string; reason: string };
};
const expected = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'journal-corpus.expected.json'), 'utf8'),
) as Record<string, Expectation>;
const tools = { hledger: await toolAvailable('hledger'), ledger: await toolAvailable('ledger') };

const handle = setUpTestDatabase();

const files = hasCorpus
  ? fs.readdirSync(corpusDir).filter((f) => /\.(journal|ledger|dat|hledger|j)$/.test(f))
  : [];

describe.skipIf(!hasCorpus)(
  `journal corpus (${testDatabaseKind()}; skipped when ../shared/corpus/journal is absent)`,
  () => {
    it('has an expectation for every corpus file', () => {
      expect(files.filter((f) => !expected[f])).toEqual([]);
      expect(files.length).toBeGreaterThanOrEqual(28);
    });

    it.each(files)('%s', async (name) => {
      const exp = expected[name]!;
      const text = fs.readFileSync(path.join(corpusDir, name), 'utf8');
      const org = await createTestCompanyInDatabase(handle.db, { baseCurrency: exp.baseCurrency });
      const before = await trialBalance(handle.db, org.id, { to: '2100-12-31' });
      if (exp.refused) {
        const error = await importJournal(handle.db, org.id, null, text).catch((e: unknown) => e);
        expect(error, exp.refused.reason).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(400);
        expect((error as AppError).message).toMatch(new RegExp(`^Line ${exp.refused.line}: `));
        expect((error as AppError).message).toContain(exp.refused.includes);
        // Nothing was written.
        expect(await trialBalance(handle.db, org.id, { to: '2100-12-31' })).toEqual(before);
        return;
      }
      const result = await importJournal(handle.db, org.id, null, text);
      for (const line of exp.notices ?? []) expect(result.notices.map((n) => n.line)).toContain(line);
      let theirs = exp.balances!;
      if (tools[exp.tool!]) {
        const recomputed = await (exp.tool === 'hledger' ? hledgerBalances : ledgerBalances)(
          path.join(corpusDir, name),
        );
        expect(recomputed, `${exp.tool} today agrees with the committed values`).toEqual(theirs);
        theirs = recomputed;
      }
      // Their accounts, mapped to ours as the importer did, summed per Kontor account.
      const accountOf = new Map(result.accounts.map((a) => [a.journalName, a.accountId]));
      const exponent = currencyExponent(exp.baseCurrency);
      const want = new Map<string, number>();
      for (const [account, byCommodity] of Object.entries(theirs)) {
        const values = Object.values(byCommodity);
        expect(values, `${account} has one commodity, the company's`).toHaveLength(1);
        const id = accountOf.get(account);
        expect(id, `${account} was mapped to a Kontor account`).toBeDefined();
        const minor = parseDecimalToMinor(values[0]!, exponent, { allowNegative: true });
        want.set(id!, (want.get(id!) ?? 0) + minor);
      }
      const tb = await trialBalance(handle.db, org.id, { to: '2100-12-31' });
      const got = new Map(
        tb.rows.filter((r) => r.closingBalance !== 0).map((r) => [r.accountId, r.closingBalance]),
      );
      for (const [id, v] of [...want]) if (v === 0) want.delete(id);
      expect(got).toEqual(want);
      // The same file again is refused, and changes nothing.
      const again = await importJournal(handle.db, org.id, null, text).catch((e: unknown) => e);
      expect((again as AppError).status).toBe(409);
      expect((again as AppError).code).toBe('journal_already_imported');
      expect(await trialBalance(handle.db, org.id, { to: '2100-12-31' })).toEqual(tb);
    });
  },
);

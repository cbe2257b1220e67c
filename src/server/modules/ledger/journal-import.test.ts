import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { setUpTestDatabase } from '../../testing/per-file-app.ts';
import { importJournal } from './journal-import.ts';
import { planJournalImport } from './journal-plan.ts';
import { trialBalance } from './reports.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';

// One journal per syntax point (issue 12 §5), all written for this test: each is imported
// into a fresh company and its trial balance checked by account name, or refused at the line.

const handle = setUpTestDatabase();

const j = (...lines: string[]) => `${lines.join('\n')}\n`;

/** Imports into a fresh company; balances by Kontor account name (debit positive), in minor units. */
const importInto = async (journal: string, baseCurrency = 'USD') => {
  const org = await createTestCompanyInDatabase(handle.db, { baseCurrency });
  const result = await importJournal(handle.db, org.id, null, journal);
  const tb = await trialBalance(handle.db, org.id, { to: '2100-12-31' });
  const balances = Object.fromEntries(
    tb.rows.filter((r) => r.closingBalance !== 0).map((r) => [r.name, r.closingBalance]),
  );
  return { org, result, balances };
};

const refusal = async (journal: string, baseCurrency = 'USD') => {
  const org = await createTestCompanyInDatabase(handle.db, { baseCurrency });
  const error = await importJournal(handle.db, org.id, null, journal).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  const tb = await trialBalance(handle.db, org.id, { to: '2100-12-31' });
  expect(tb.rows, 'nothing was posted').toEqual([]);
  return error as AppError;
};

describe(`journal import syntax (${testDatabaseKind()})`, () => {
  it('reads a decimal-comma journal at face value (decimal-mark directive)', async () => {
    const { balances } = await importInto(
      j(
        'decimal-mark ,',
        '2026-01-05 Miete',
        '    Expenses:Rent        1.234,56 EUR',
        '    Assets:Bank         -1.234,56 EUR',
        '2026-01-06 Kaffee',
        '    Expenses:Food        3,50 EUR',
        '    Assets:Bank',
      ),
      'EUR',
    );
    expect(balances).toEqual({ Rent: 123_456, Food: 350, Bank: -123_806 });
  });

  it('takes the decimal mark from commodity and D directives, before or after the amounts', async () => {
    const { balances } = await importInto(
      j(
        '2026-01-05 a',
        '    Expenses:Rent        1.000 EUR',
        '    Assets:Bank',
        '',
        'commodity 1.000,00 EUR',
      ),
      'EUR',
    );
    expect(balances).toEqual({ Rent: 100_000, Bank: -100_000 });
    const d = await importInto(
      j('D 1.000,00 EUR', '', '2026-01-05 a', '    Expenses:Rent        2.500', '    Assets:Bank'),
      'EUR',
    );
    expect(d.balances).toEqual({ Rent: 250_000, Bank: -250_000 });
    const format = await importInto(
      j(
        'commodity EUR',
        '    format 1.000,00 EUR',
        '',
        '2026-01-05 a',
        '    Expenses:Rent   7,5 EUR',
        '    Assets:Bank',
      ),
      'EUR',
    );
    expect(format.balances).toEqual({ Rent: 750, Bank: -750 });
  });

  it('learns a commodity style from the file, and refuses a number no style decides', async () => {
    const { balances } = await importInto(
      j('2026-01-05 a', '    Expenses:Rent        $1,000', '    Assets:Bank          $-1,000.00'),
    );
    expect(balances).toEqual({ Rent: 100_000, Bank: -100_000 });
    const error = await refusal(j('2026-01-05 a', '    Expenses:Rent        $1,000', '    Assets:Bank'));
    expect(error.message).toMatch(/^Line 2: "1,000" is ambiguous/);
  });

  it('reads amount styles: commodity before or after, spaced or not, signs on either side, groups', async () => {
    const { balances } = await importInto(
      j(
        '2026-01-05 a',
        '    Expenses:A        $10.00',
        '    Expenses:B        -$1.50',
        '    Expenses:C        $ -2.25',
        '    Expenses:D        10.00 USD',
        '    Expenses:E        USD -0.25',
        '    Expenses:F        1,234.50USD',
        '    Expenses:G        +3 USD',
        "    Expenses:H        1'000.00 USD",
        '    Assets:Bank',
      ),
    );
    expect(balances).toMatchObject({
      A: 1000,
      B: -150,
      C: -225,
      D: 1000,
      E: -25,
      F: 123_450,
      G: 300,
      H: 100_000,
    });
    expect(balances.Bank).toBe(-(1000 - 150 - 225 + 1000 - 25 + 123_450 + 300 + 100_000));
  });

  it('refuses more decimals than the currency has, unless they are zeros', async () => {
    const ok = await importInto(j('2026-01-05 a', '    Expenses:A   1.5000 USD', '    Assets:Bank'));
    expect(ok.balances).toMatchObject({ A: 150 });
    const error = await refusal(j('2026-01-05 a', '    Expenses:A   1.5051 USD', '    Assets:Bank'));
    expect(error.message).toMatch(/^Line 2: 1\.5051 USD has more decimals than USD has/);
  });

  it('ignores comment and test blocks and every kind of comment line', async () => {
    const { balances, result } = await importInto(
      j(
        '; semicolon',
        '# hash',
        '* star (org heading)',
        '% percent',
        '| bar',
        'comment',
        '2026-01-01 not a transaction',
        '    Expenses:Rent   $999',
        '    Assets:Bank',
        'end comment',
        'test balance',
        '2026-01-01 neither',
        '    Expenses:Rent   $999',
        'end test',
        '2026-01-05 * (42) Real  ; note with tag: value',
        '    ; a transaction comment',
        '    Expenses:Rent        $10  ; inline, with date2:2026-02-01',
        '    # hash comment in a transaction',
        '    Assets:Bank',
      ),
    );
    expect(balances).toEqual({ Rent: 1000, Bank: -1000 });
    expect(result.entries).toBe(1);
  });

  it('fills in year-less dates from Y, year and apply year, with every date separator', async () => {
    const { org } = await importInto(
      j(
        'Y 2024',
        '02/29 leap',
        '    Expenses:A   $1',
        '    Assets:Bank',
        '',
        'year 2025',
        '03-01 dash',
        '    Expenses:A   $1',
        '    Assets:Bank',
        '',
        'apply year 2023',
        '4.2 dot',
        '    Expenses:A   $1',
        '    Assets:Bank',
        'end apply year',
        '',
        '05/06 back to 2025',
        '    Expenses:A   $1',
        '    Assets:Bank',
        '',
        '2026.07.08=2026.07.10 ! (7) full date with a secondary date',
        '    Expenses:A   $1',
        '    Assets:Bank',
      ),
    );
    const dates = await handle.db
      .selectFrom('journal_entries')
      .select('date')
      .where('organization_id', '=', org.id)
      .orderBy('date')
      .execute();
    expect(dates.map((d) => d.date)).toEqual([
      '2023-04-02',
      '2024-02-29',
      '2025-03-01',
      '2025-05-06',
      '2026-07-08',
    ]);
    const error = await refusal(j('02/30 no such day', '    Expenses:A  $1', '    Assets:Bank'));
    expect(error.message).toMatch(/^Line 1: the date "02\/30" has no year/);
  });

  it('applies automated transactions as ledger does: multipliers and fixed amounts, to later transactions', async () => {
    const { balances, result } = await importInto(
      j(
        '2026-01-01 before the rule: not matched',
        '    Expenses:Books   $100',
        '    Assets:Bank',
        '',
        '= /^Expenses:Books/',
        '    Liabilities:Tax      0.1',
        '    Assets:Bank          (*-0.1)',
        '',
        '= expenses:food not:expenses:food:snacks',
        '    Expenses:Tips        $2',
        '    Assets:Bank          $-2',
        '',
        '2026-01-02 books',
        '    Expenses:Books   $50',
        '    Assets:Bank',
        '',
        '2026-01-03 food',
        '    Expenses:Food:Lunch   $10',
        '    Expenses:Food:Snacks  $3',
        '    Assets:Bank',
      ),
    );
    expect(result.entries).toBe(3);
    expect(balances).toEqual({
      Books: 15_000,
      Tax: 500,
      'Food / Lunch': 1000,
      'Food / Snacks': 300,
      Tips: 200,
      Bank: -(15_000 + 500 + 1300 + 200),
    });
  });

  it('refuses automated transactions it cannot apply exactly, naming the line', async () => {
    const evil = await refusal(j('= ^(a+)+$', '    Expenses:X   $1', '    Assets:Bank  $-1'));
    expect(evil.message).toMatch(/^Line 1: the regular expression "\^\(a\+\)\+\$" is too complex/);
    const query = await refusal(j('= payee:Shop', '    Expenses:X   $1', '    Assets:Bank  $-1'));
    expect(query.message).toMatch(/^Line 1: the automated transaction query/);
    const cents = await refusal(
      j(
        '= Expenses:Books',
        '    Liabilities:Tax   0.1',
        '    Assets:Bank   -0.1',
        '',
        '2026-01-02 b',
        '    Expenses:Books  $0.05',
        '    Assets:Bank',
      ),
    );
    expect(cents.message).toMatch(/^Line 2: this automated posting \(for line 6\) gives 0\.005 USD/);
    const virtual = await refusal(
      j(
        '= Income',
        '    (Liabilities:Tithe)   0.1',
        '',
        '2026-01-02 pay',
        '    Assets:Bank  $100',
        '    Income:Salary',
      ),
    );
    expect(virtual.message).toMatch(
      /^Line 2: \(Liabilities:Tithe\) is an unbalanced virtual posting of -10\.00 USD/,
    );
  });

  it('names the transaction the ledger refuses (a locked period) and posts none of the file', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await handle.db
      .updateTable('ledger_settings')
      .set({ lock_date: '2026-01-31' })
      .where('organization_id', '=', org.id)
      .execute();
    const error = await importJournal(
      handle.db,
      org.id,
      null,
      j(
        '2026-02-01 open',
        '    Expenses:Rent   $5',
        '    Assets:Bank',
        '',
        '2026-01-15 locked',
        '    Expenses:Rent   $1',
        '    Assets:Bank',
      ),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).message).toMatch(/^Transaction on line 5: /);
    expect((error as AppError).details).toMatchObject({ line: 5 });
    expect((await trialBalance(handle.db, org.id, { to: '2100-12-31' })).rows).toEqual([]);
    // An archived account: the posting's own line, not the ledger's count of lines.
    await handle.db
      .updateTable('ledger_settings')
      .set({ lock_date: null })
      .where('organization_id', '=', org.id)
      .execute();
    await handle.db
      .updateTable('accounts')
      .set({ archived_at: new Date() })
      .where('organization_id', '=', org.id)
      .where('name', '=', 'Travel')
      .execute();
    const archived = await importJournal(
      handle.db,
      org.id,
      null,
      j(
        '2026-02-01 a',
        '    Expenses:Rent   $5',
        '    Assets:Bank',
        '',
        '2026-02-02 b',
        '    Assets:Bank   $-1',
        '    Expenses:Travel   $1',
      ),
    ).catch((e: unknown) => e);
    expect((archived as AppError).code).toBe('account_archived');
    expect((archived as AppError).message).toMatch(/^Line 7: account \d+ Travel is archived/);
  });

  it('says so when a description is longer than an entry memo can hold', async () => {
    const { result } = await importInto(
      j(`2026-01-05 ${'x'.repeat(1200)}`, '    Expenses:Rent   $5', '    Assets:Bank'),
    );
    expect(result.notices).toContainEqual({
      line: 1,
      message: 'description cut to its first 1000 characters',
    });
  });

  it('ignores periodic transactions and unused directives with a notice per line', async () => {
    const { result, balances } = await importInto(
      j(
        'account Assets:Bank',
        'commodity $1,000.00',
        'payee Shop',
        'tag project',
        'P 2026-01-01 EUR $1.08',
        '~ monthly',
        '    Expenses:Rent   $500',
        '    Assets:Bank',
        '',
        '2026-01-05 rent',
        '    Expenses:Rent   $500',
        '    Assets:Bank',
      ),
    );
    expect(balances).toEqual({ Rent: 50_000, Bank: -50_000 });
    expect(result.notices.map((n) => n.line)).toEqual(expect.arrayContaining([1, 3, 4, 5, 6]));
    expect(result.notices.find((n) => n.line === 6)!.message).toMatch(/periodic transaction/);
  });

  it('applies alias and apply account, and refuses include, regex aliases and unknown directives', async () => {
    const { balances } = await importInto(
      j(
        'alias Assets:Chk = Assets:Bank',
        'apply account Assets',
        '2026-01-05 move',
        '    Bank   $-6',
        '    Petty',
        'end apply account',
        '',
        '2026-01-06 b',
        '    Expenses:Rent   $5',
        '    Assets:Chk:sub',
        'end aliases',
        '2026-01-07 c',
        '    Expenses:Rent   $1',
        '    Assets:Chk',
      ),
    );
    expect(balances).toEqual({ Rent: 600, Petty: 600, Bank: -600, 'Bank / sub': -500, Chk: -100 });
    expect((await refusal(j('include other.journal'))).message).toMatch(
      /^Line 1: include cannot be followed/,
    );
    expect((await refusal(j('frobnicate 3'))).message).toMatch(/^Line 1: "frobnicate" is not a directive/);
  });

  it('applies hledger regular-expression aliases: case-insensitive, every match, most recent first, \\1 groups', async () => {
    const { result, balances } = await importInto(
      j(
        'alias /^spending:(.*)$/ = Expenses:\\1',
        'alias /CHQ/ = cheque',
        '',
        '2026-02-01 books',
        '    spending:chq:chq fees   $4',
        '    Assets:Chq',
        '',
        'alias /^assets:chq$/ = Assets:Current $ account',
        '2026-02-02 more',
        '    spending:chq:chq fees   $1',
        '    Assets:Chq',
      ),
    );
    expect(result.accounts.map((a) => a.journalName)).toEqual([
      'Assets:cheque',
      'Assets:Current $ account',
      'Expenses:cheque:cheque fees',
    ]);
    expect(balances).toEqual({ 'cheque / cheque fees': 500, cheque: -400, 'Current $ account': -100 });
    expect((await refusal(j('alias /(a+)+/ = Assets:Bank'))).message).toMatch(/^Line 1: .*too complex/);
    expect((await refusal(j('alias /[/ = Assets:Bank'))).message).toMatch(
      /^Line 1: .*not a regular expression/,
    );
  });

  it('applies ledger sub-directives: account alias and payee, payee alias, commodity alias', async () => {
    const { result, balances } = await importInto(
      j(
        'account Expenses:Meals',
        '    alias lunch',
        '    payee ^Cafe',
        '    note eating out',
        '',
        'payee Corner Bakery',
        '    alias corner bak',
        '',
        'commodity USD',
        '    alias Dollars',
        '',
        '2026-03-01 CAFE Blue',
        '    Expenses:Unknown       12.50 Dollars',
        '    Assets:Cash',
        '',
        '2026-03-02 Corner Bakery Ltd',
        '    lunch                   $4',
        '    Assets:Cash',
        '',
        '2026-03-03 Hardware store',
        '    Expenses:Unknown        $7',
        '    Assets:Cash',
      ),
    );
    // Unknown goes to Meals only for the payee the pattern matches (ignoring case).
    expect(balances).toEqual({ Meals: 1650, Unknown: 700, Cash: -2350 });
    const notes = result.notices.map((n) => `${n.line}: ${n.message}`);
    expect(notes).toContain(
      '13: Expenses:Unknown read as Expenses:Meals (payee "CAFE Blue", account directive on line 3)',
    );
    expect(notes).toContain(
      '16: description "Corner Bakery Ltd" read as the payee "Corner Bakery" (payee alias)',
    );
    expect(notes).toContain('4: account note ignored');
    const org = result.accounts.find((a) => a.journalName === 'Expenses:Meals')!;
    const entries = await handle.db
      .selectFrom('journal_entries')
      .select(['memo'])
      .where(
        'organization_id',
        '=',
        (
          await handle.db
            .selectFrom('accounts')
            .select('organization_id')
            .where('id', '=', org.accountId)
            .executeTakeFirstOrThrow()
        ).organization_id,
      )
      .orderBy('memo')
      .execute();
    expect(entries.map((e) => e.memo)).toEqual(['CAFE Blue', 'Corner Bakery', 'Hardware store']);
  });

  it("balances a transaction of one posting against ledger's default account (bucket, A, account … default)", async () => {
    const { result, balances } = await importInto(
      j(
        'A Assets:Current',
        '',
        '2026-05-01 pay',
        '    Income:Pay        $-800.00',
        '',
        '2026-05-02 two postings: the default account stays out',
        '    Expenses:Books     $12.00',
        '    Assets:Wallet',
        '',
        'account Assets:Wallet',
        '    default',
        '',
        '2026-05-03 snack',
        '    Expenses:Snacks     $2.25',
      ),
    );
    expect(balances).toEqual({ Pay: -80000, Current: 80000, Books: 1200, Wallet: -1425, Snacks: 225 });
    expect(result.notices.filter((n) => /^balanced against/.test(n.message))).toEqual([
      { line: 3, message: 'balanced against Assets:Current, the default account set on line 1' },
      { line: 13, message: 'balanced against Assets:Wallet, the default account set on line 11' },
    ]);
  });

  it('ignores ledger options that only add checks, and refuses the others', async () => {
    const { result, balances } = await importInto(
      j('--strict', '--pedantic', '2026-01-05 a', '    Expenses:Rent   $5', '    Assets:Bank'),
    );
    expect(balances).toEqual({ Rent: 500, Bank: -500 });
    expect(
      result.notices.filter((n) => /^option --(strict|pedantic) ignored/.test(n.message)).map((n) => n.line),
    ).toEqual([1, 2]);
    expect(
      (await refusal(j('--decimal-comma', '2026-01-05 a', '    Expenses:Rent   5,00', '    Assets:Bank')))
        .message,
    ).toMatch(/^Line 1: command-line options/);
  });

  it('evaluates ledger arithmetic value expressions exactly, and refuses the others by line', async () => {
    const { balances } = await importInto(
      j(
        '2026-04-01 open',
        '    Assets:Bank          $200.00',
        '    Equity:Opening',
        '',
        '2026-04-02 shared bills',
        '    Expenses:Power      ($90.00 / 4 + $0.50)',
        '    Expenses:Water      (3 * $2.25)',
        '    Expenses:Refund     (-($1.00 + 0.5 * $3))',
        '    Assets:Bank',
        '',
        '2026-04-03 top up',
        '    Expenses:Fees',
        '    Assets:Bank         = ($150 + $0.75)',
      ),
    );
    // 23.00 + 6.75 - 2.50 = 27.25 out of the bank, then the assignment takes it to 150.75.
    expect(balances).toEqual({
      Power: 2300,
      Water: 675,
      Refund: -250,
      Fees: 2200,
      Bank: 15075,
      Opening: -20000,
    });
    for (const [amount, why] of [
      ['($5 * $2)', 'multiplies or divides two amounts'],
      ['($5 + 2 EUR)', 'adds \\$ and EUR'],
      ['(abs($5))', '"abs" is not an amount'],
      ['(($5 + $1)', 'parenthesis is not closed'],
      ['($5 / 0)', 'divides by zero'],
    ] as const) {
      const error = await refusal(j('2026-04-02 x', `    Expenses:Power   ${amount}`, '    Assets:Bank'));
      expect(error.message).toMatch(
        new RegExp(
          `^Line 2: the amount .* is a value expression Kontor cannot evaluate \\(it ${why}|^Line 2: .*${why}`,
        ),
      );
    }
  });

  it('knows the usual top-level account names in other languages', async () => {
    const { balances, result } = await importInto(
      j(
        '2026-01-05 achat',
        '    Dépenses:Bureau     10,00 EUR',
        '    Passif:Carte',
        '2026-01-06 Gehalt',
        '    Aktiva:Bank        100,00 EUR',
        '    Erträge:Gehalt',
        '2026-01-07 apertura',
        '    Activos:Caja        5,00 EUR',
        '    Patrimonio:Apertura',
      ),
      'EUR',
    );
    expect(balances).toEqual({
      Bureau: 1000,
      Carte: -1000,
      Bank: 10000,
      Gehalt: -10000,
      Caja: 500,
      Apertura: -500,
    });
    const types = await handle.db
      .selectFrom('accounts')
      .select(['name', 'type'])
      .where(
        'id',
        'in',
        result.accounts.map((a) => a.accountId),
      )
      .orderBy('name')
      .execute();
    expect(Object.fromEntries(types.map((t) => [t.name, t.type]))).toEqual({
      Apertura: 'equity',
      Bank: 'asset',
      Bureau: 'expense',
      Caja: 'asset',
      Carte: 'liability',
      Gehalt: 'income',
    });
  });

  it('names the line and the real reason when a transaction cannot be taken as written', async () => {
    // An amount without a commodity among "$" amounts: the tools read it as a commodity of its own.
    expect(
      (await refusal(j('2026-01-05 two goats', '    Assets:Farm      2', '    Assets:Bank   $-300'))).message,
    ).toMatch(
      /^Line 2: 2\.00 has no commodity, so Kontor reads it as USD.* "\$" amounts \(off by -298\.00 USD\)/,
    );
    // Costs below a cent that do not balance once rounded.
    expect(
      (
        await refusal(
          j(
            '2026-01-05 tiny',
            '    Assets:Euro    1 EUR @ $0.006',
            '    Assets:Yen    1 JPY @ $0.006',
            '    Income:Fx   $0.00',
          ),
        )
      ).message,
    ).toMatch(
      /^Line 2: the costs on lines 2, 3 are not whole cents; rounded to cents, the transaction on line 1 is off by 0\.02 USD/,
    );
    // hledger equity conversion postings without a cost.
    expect(
      (
        await refusal(
          j(
            '2026-01-05 exchange',
            '    Assets:Dollars      $-110',
            '    Equity:Conversion   $110',
            '    Equity:Conversion   -100 EUR',
            '    Assets:Euros         100 EUR',
          ),
        )
      ).message,
    ).toMatch(
      /^Line 4: -100\.00 EUR has no cost: the EUR postings of this transaction \(lines 4, 5\) balance among themselves/,
    );
    // A value expression Kontor cannot evaluate exactly.
    expect(
      (await refusal(j('2026-01-05 a', '    Expenses:Rent   ($10 / 3)', '    Assets:Bank'))).message,
    ).toMatch(/^Line 2: the amount "\(\$10 \/ 3\)" is a value expression .*no exact decimal value/);
    // Only periodic transactions: nothing to import, and the answer says why.
    const periodic = await refusal(j('~ monthly', '    Expenses:Rent   $5', '    Assets:Bank'));
    expect(periodic.code).toBe('journal_empty');
    expect(periodic.message).toMatch(/only periodic transactions .* on line 1\.$/);
  });

  it('checks balance assertions and computes balance assignments', async () => {
    const { balances } = await importInto(
      j(
        '2026-01-01 open',
        '    Assets:Bank          $100 = $100',
        '    Equity:Opening',
        '',
        '2026-01-03 later in the file, earlier by date',
        '    Assets:Bank:Sub      $5',
        '    Equity:Opening',
        '',
        '2026-01-02 spend',
        '    Expenses:Food        $30',
        '    Assets:Bank          $-30 == $70',
        '',
        '2026-01-04 reconcile',
        '    Assets:Bank          = $50',
        '    Expenses:Fees',
        '',
        '2026-01-05 total',
        '    Expenses:Food        $0   ',
        '    Assets:Bank          $0 =* $55',
      ),
    );
    expect(balances).toEqual({ Bank: 5000, 'Bank / Sub': 500, Opening: -10_500, Food: 3000, Fees: 2000 });
    const failed = await refusal(
      j(
        '2026-01-01 open',
        '    Assets:Bank   $100',
        '    Equity:Opening',
        '',
        '2026-01-02 x',
        '    Assets:Bank  $-1 = $98',
        '    Expenses:X',
      ),
    );
    expect(failed.message).toBe(
      'Line 6: balance assertion failed: Assets:Bank is 99.00 USD here, the file says 98.00 USD.',
    );
  });

  it('books foreign amounts at their written or inferred cost and refuses ones without a cost', async () => {
    const { balances, result } = await importInto(
      j(
        '2026-01-05 trip',
        '    Expenses:Travel     20.00 EUR @ 1.10 USD',
        '    Assets:Bank',
        '',
        '2026-01-06 hotel',
        '    Expenses:Hotel      €100 @@ $108.25',
        '    Assets:Bank         $-108.25',
        '',
        '2026-01-07 exchange',
        '    Assets:Cash EUR     €50',
        '    Assets:Bank         $-54.10',
      ),
    );
    expect(balances).toEqual({
      Travel: 2200,
      Hotel: 10_825,
      'Cash EUR': 5410,
      Bank: -(2200 + 10_825 + 5410),
    });
    expect(result.notices.some((n) => n.line === 10 && /taken from the other postings/.test(n.message))).toBe(
      true,
    );
    const lines = await handle.db
      .selectFrom('journal_lines')
      .select(['currency', 'amount', 'debit'])
      .where(
        'organization_id',
        '=',
        result.accounts[0]
          ? (
              await handle.db
                .selectFrom('accounts')
                .select('organization_id')
                .where('id', '=', result.accounts[0].accountId)
                .executeTakeFirstOrThrow()
            ).organization_id
          : '',
      )
      .where('currency', 'is not', null)
      .orderBy('debit')
      .execute();
    expect(lines.map((l) => [l.currency?.trim(), Number(l.amount), Number(l.debit)])).toEqual([
      ['EUR', 2000, 2200],
      ['EUR', 5000, 5410],
      ['EUR', 10_000, 10_825],
    ]);
    const error = await refusal(
      j('2026-01-05 gift', '    Assets:Cash   20 EUR', '    Income:Gifts  -20 EUR'),
    );
    expect(error.message).toMatch(
      /^Line 2: 20\.00 EUR is not in USD, the company's currency, and has no cost/,
    );
    const notMoney = await refusal(
      j('2026-01-05 shares', '    Assets:Broker   10 AAPL @ $30', '    Assets:Bank'),
    );
    expect(notMoney.message).toMatch(/^Line 2: "AAPL" is not a currency/);
  });

  it('refuses what it cannot post exactly, naming the line', async () => {
    const cases: [string, RegExp][] = [
      [
        j('2026-01-05 a', '    Expenses:A   $1', '    Assets:Bank  $-2'),
        /^Line 1: the postings do not balance \(off by -1\.00 USD\)/,
      ],
      [j('2026-01-05 a', '    Expenses:A', '    Assets:Bank'), /^Line 3: only one posting/],
      [j('2026-01-05 a', '    Stuff:A   $1', '    Assets:Bank'), /^Line 2: "Stuff:A" must start with Assets/],
      [
        j('2026-01-05 a', '    Expenses:A   $1  ; [2026-01-09]', '    Assets:Bank'),
        /^Line 2: the posting date/,
      ],
      [
        j('2026-01-05 a', '    Expenses:A   $1', '    ; date:2026-01-09', '    Assets:Bank'),
        /^Line 3: the date: tag/,
      ],
      [
        j('2026-01-05 a', '    Expenses:Food   $1', '    expenses:food   $1', '    Assets:Bank'),
        /^Line 3: "expenses:food" and "Expenses:Food" differ only in letter case/,
      ],
      [j('2026-01-05 a', '    Assets:Broker   10 AAPL {$30}', '    Assets:Bank'), /^Line 2: lot prices/],
      [j('C 1.00 Kb = 1024 bytes'), /^Line 1: commodity conversions/],
      [
        j('2026-01-05 a', '    Expenses:A   0 EUR @@ $5', '    Assets:Bank'),
        /^Line 2: 0\.00 EUR at a cost of 5\.00 USD has no exchange rate/,
      ],
      [
        j('2026-01-05 a', '    Expenses:A   5 EUR @@ $0', '    Assets:Bank'),
        /^Line 2: 5\.00 EUR at a cost of 0\.00 USD has no exchange rate/,
      ],
      [j('2026-13-01 a'), /^Line 1: 2026-13-01 is not a real date/],
      [j('P 2026-01-01 EUR $1.08', '    Expenses:A   $1'), /^Line 2: an indented line outside a transaction/],
      [
        j('2026-01-05 a', '    Expenses:Caf\uFFFD   $1', '    Assets:Bank'),
        /^Line 2: the line has a character that is not UTF-8/,
      ],
    ];
    for (const [journal, message] of cases) expect((await refusal(journal)).message).toMatch(message);
  });

  it('reuses an existing account of the same name and type, ignoring case, and never makes a second one', async () => {
    const { result, balances } = await importInto(
      j('2026-01-05 a', '    expenses:TRAVEL   $5', '    assets:business bank account'),
    );
    expect(result.createdAccounts).toBe(0);
    expect(balances).toEqual({ Travel: 500, 'Business bank account': -500 });
    // Top-level names as hledger infers their types: debts are liabilities, revenues income.
    const typed = await importInto(
      j('2026-01-05 a', '    Debts:Visa   $-5', '    Revenues:Fees   $-1', '    Asset:Till'),
    );
    const types = await handle.db
      .selectFrom('accounts')
      .select(['name', 'type'])
      .where('organization_id', '=', typed.org.id)
      .where('name', 'in', ['Visa', 'Fees', 'Till'])
      .orderBy('name')
      .execute();
    expect(types).toEqual([
      { name: 'Fees', type: 'income' },
      { name: 'Till', type: 'asset' },
      { name: 'Visa', type: 'liability' },
    ]);
    // "Sales" exists as income; an asset called Sales gets its full path as its name.
    const other = await importInto(j('2026-01-05 a', '    Assets:Sales   $5', '    Income:Sales'));
    expect(other.balances).toEqual({ 'Assets / Sales': 500, Sales: -500 });
  });

  it('refuses the same file twice with 409 and imports it into another company', async () => {
    const journal = j('2026-01-05 a', '    Expenses:Rent   $5', '    Assets:Bank');
    const { org, balances } = await importInto(journal);
    // The same text with other line endings and trailing blanks is the same file.
    const again = await importJournal(
      handle.db,
      org.id,
      null,
      `\uFEFF${journal.replace(/\n/g, '  \r\n')}\n\n`,
    ).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).status).toBe(409);
    expect((again as AppError).code).toBe('journal_already_imported');
    expect((again as AppError).message).toMatch(/already imported on \d{4}-\d{2}-\d{2} \(1 entries\)/);
    const tb = await trialBalance(handle.db, org.id, { to: '2100-12-31' });
    expect(Object.fromEntries(tb.rows.map((r) => [r.name, r.closingBalance]))).toEqual(balances);
    // A changed file is another file.
    const changed = await importJournal(handle.db, org.id, null, journal.replace('$5', '$6'));
    expect(changed.entries).toBe(1);
    await importInto(journal);
  });

  it.skipIf(testDatabaseKind() !== 'postgres')(
    'two concurrent imports of one file: one posts, the other is refused with 409 (PostgreSQL only)',
    async () => {
      const org = await createTestCompanyInDatabase(handle.db);
      const journal = j('2026-01-05 a', '    Expenses:Racing   $5', '    Assets:Race bank');
      const outcomes = await Promise.allSettled([
        importJournal(handle.db, org.id, null, journal),
        importJournal(handle.db, org.id, null, journal),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(AppError);
      expect((refused.reason as AppError).status).toBe(409);
      const tb = await trialBalance(handle.db, org.id, { to: '2100-12-31' });
      expect(Object.fromEntries(tb.rows.map((r) => [r.name, r.closingBalance]))).toEqual({
        Racing: 500,
        'Race bank': -500,
      });
    },
  );

  it('plans without a database: a journal of 20,000 transactions reads in well under a few seconds', () => {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i += 1)
      lines.push(
        `2026-01-${String((i % 28) + 1).padStart(2, '0')} t${i}`,
        `    Expenses:E${i % 50}   $${i}.25`,
        '    Assets:Bank',
        '',
      );
    const started = performance.now();
    const { planned } = planJournalImport(lines.join('\n'), 'USD');
    expect(planned).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

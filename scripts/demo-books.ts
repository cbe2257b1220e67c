// A company's books for the scripts and browser tests that need signed-in pages with data
// (scripts/audit-web.ts, scripts/bench/app-pages.ts, e2e/layout-shift.spec.ts): fourteen months
// of sales, rent and software, twelve weeks of bank lines (some uncategorised) and five sent
// invoices, three of them paid. Written through the API as a user would; dates relative to today.

/** The first day `day` of the month `monthsBack` months before this one (UTC). */
export const monthDay = (monthsBack: number, day: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, day))
    .toISOString()
    .slice(0, 10);
};

/** Today plus `offset` days (UTC). */
export const isoDay = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The company's API under /api/orgs/:id: answers parsed, a refusal thrown. */
export type CompanyApi = {
  get: (path: string) => Promise<any>;
  post: (path: string, body: unknown) => Promise<any>;
};

export const seedDemoBooks = async (api: CompanyApi) => {
  const chart = (await api.get('/accounts')) as { accounts: { id: string; code: string }[] };
  const acct = (code: string) => {
    const found = chart.accounts.find((a) => a.code === code);
    if (!found) throw new Error(`seeding: no account ${code} in the default chart`);
    return found.id;
  };
  const entry = (date: string, memo: string, debit: string, credit: string, amount: number) =>
    api.post('/journal-entries', {
      date,
      memo,
      status: 'posted',
      lines: [
        { accountId: acct(debit), debit: amount },
        { accountId: acct(credit), credit: amount },
      ],
    });
  await entry(monthDay(14, 1), 'Owner investment', '1010', '3000', 40_000_00);
  for (let back = 13; back >= 0; back -= 1) {
    await entry(monthDay(back, 2), 'Studio sales', '1010', '4000', 6_000_00 + back * 150_00);
    await entry(monthDay(back, 3), 'Studio rent', '6200', '1010', 2_500_00);
    await entry(monthDay(back, 1), 'Design software', '6400', '1010', 60_00);
  }
  const wallet = (await api.get('/wallet')) as { accounts: { id: string; ledgerAccountCode: string }[] };
  const bank = wallet.accounts.find((a) => a.ledgerAccountCode === '1010');
  if (!bank) throw new Error('seeding: no bank account 1010 in the wallet');
  for (let week = 1; week <= 12; week += 1)
    await api.post('/transactions', {
      moneyAccountId: bank.id,
      date: isoDay(-7 * week + 2),
      description: `Supplies run ${week}`,
      amount: -(150_00 + ((week * 37) % 9) * 45_00),
      categoryAccountId: week % 3 === 0 ? null : acct('6500'),
    });
  const customer = await api.post('/customers', { name: 'Harbor Cafe', paymentTermsDays: 14 });
  for (const back of [5, 4, 3, 2, 1]) {
    const draft = await api.post('/invoices', {
      customerId: customer.id,
      issueDate: monthDay(back, 4),
      lines: [{ description: 'Menu design', quantity: '1', unitPrice: 1_200_00 + back * 100_00 }],
    });
    const sent = await api.post(`/invoices/${draft.id}/send`, { email: false });
    if (back > 2)
      await api.post(`/invoices/${sent.id}/payments`, {
        date: sent.dueDate,
        amount: sent.total,
        depositAccountId: acct('1010'),
      });
  }
};

import { useEffect, useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { RowTh, Table, Td, Th } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { AccountPicker } from './AccountPicker.tsx';
import { formatDate } from '../../lib/format.ts';
import { useAccounts, useGeneralLedger, useTrialBalance } from './ledgerApi.ts';
import { Pager, useCursorPages } from './Pager.tsx';
import {
  DateInput,
  ExportLinks,
  Loading,
  LoadError,
  SOURCE_LABELS,
  Toolbar,
  DebitCreditCells,
  EntryLink,
} from './parts.tsx';

// General ledger: one account's postings in date order with a running balance, paged with
// the API's cursor. Without an account chosen it lists the accounts with balances to pick
// from, grouped as a bookkeeper scans them.

const TYPE_ORDER = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
const TYPE_HEADING: Record<string, string> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expenses',
};

const AccountBalances = ({ to, onPick }: { to: string; onPick: (id: string) => void }) => {
  const { company } = useCompany();
  const tb = useTrialBalance({ to });
  if (tb.isLoading) return <Loading label="Loading account balances..." />;
  if (tb.isError)
    return <LoadError error={tb.error} what="account balances" onRetry={() => void tb.refetch()} />;
  const rows = tb.data?.rows ?? [];
  if (rows.length === 0)
    return (
      <EmptyState
        title="No postings yet"
        description="Once entries are posted, each account's activity and running balance shows here. Choose an account above to see its ledger."
      />
    );
  return (
    <Table
      caption={`Accounts with a balance as of ${formatDate(to)}; choose one to see its ledger`}
      captionHidden
    >
      <thead>
        <tr>
          <Th className="w-24">Code</Th>
          <Th>Account</Th>
          <Th numeric>Balance</Th>
        </tr>
      </thead>
      {TYPE_ORDER.map((type) => {
        const group = rows.filter((r) => r.type === type);
        if (group.length === 0) return null;
        return (
          <tbody key={type}>
            <tr>
              <th
                colSpan={3}
                scope="colgroup"
                className="bg-slate-50/70 px-4 pt-4 pb-1.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:bg-slate-900/40 dark:text-slate-400"
              >
                {TYPE_HEADING[type]}
              </th>
            </tr>
            {group.map((r) => {
              const natural = type === 'asset' || type === 'expense' ? r.closingBalance : -r.closingBalance;
              return (
                <tr key={r.accountId} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
                  <Td className="tabular-nums text-slate-500 dark:text-slate-400">{r.code}</Td>
                  <RowTh>
                    <button
                      type="button"
                      onClick={() => onPick(r.accountId)}
                      className="text-left text-slate-900 underline-offset-2 hover:underline dark:text-white"
                    >
                      {r.name}
                    </button>
                  </RowTh>
                  <Td numeric>
                    <Money minor={natural === 0 ? 0 : natural} currency={company.baseCurrency} />
                  </Td>
                </tr>
              );
            })}
          </tbody>
        );
      })}
    </Table>
  );
};

export const GeneralLedgerView = ({
  today,
  fyStart,
  accountId,
  onAccountChange,
  onOpenEntry,
}: {
  today: string;
  fyStart: string;
  accountId: string | null;
  onAccountChange: (id: string | null) => void;
  onOpenEntry: (id: string) => void;
}) => {
  const { company } = useCompany();
  const currency = company.baseCurrency;
  const accounts = useAccounts();
  const [from, setFrom] = useState(fyStart);
  const [to, setTo] = useState(today);
  const pages = useCursorPages();
  const { reset } = pages;
  // A new account or range starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are the triggers
  useEffect(() => reset(), [accountId, from, to, reset]);
  const query = { accountId: accountId ?? '', from: from || undefined, to, limit: 50 };
  const gl = useGeneralLedger({ ...query, cursor: pages.cursor }, Boolean(accountId));
  const data = accountId ? gl.data : undefined;
  const account = accounts.data?.find((a) => a.id === accountId);
  const exportQuery = { accountId: accountId ?? '', from: from || undefined, to };

  return (
    <Card>
      <CardHeader
        title={account ? `General ledger · ${account.code} ${account.name}` : 'General ledger'}
        description={`${from ? formatDate(from) : 'From the first entry'} – ${formatDate(to)}`}
        actions={
          accountId ? (
            <ExportLinks label="general ledger" report="general-ledger" query={exportQuery} />
          ) : null
        }
      />
      <Toolbar>
        <div className="w-80 max-w-full">
          <span
            className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-300"
            id="gl-account-label"
          >
            Account
          </span>
          <AccountPicker
            accounts={accounts.data ?? []}
            value={accountId ?? ''}
            onChange={(id) => onAccountChange(id)}
            label="Account for the general ledger"
            placeholder="Search by code or name"
          />
        </div>
        <DateInput label="From" value={from} onChange={setFrom} max={to} />
        <DateInput label="To" value={to} onChange={(v) => v && setTo(v)} required />
        {accountId ? (
          <button
            type="button"
            onClick={() => onAccountChange(null)}
            className="min-h-11 px-2 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
          >
            All accounts
          </button>
        ) : null}
      </Toolbar>
      {!accountId ? (
        <AccountBalances to={to} onPick={(id) => onAccountChange(id)} />
      ) : gl.isLoading ? (
        <Loading label="Loading the ledger..." />
      ) : gl.isError ? (
        <LoadError error={gl.error} what="the general ledger" onRetry={() => void gl.refetch()} />
      ) : data ? (
        <>
          <Table
            caption={`General ledger of ${data.account.code} ${data.account.name}, in ${currency}`}
            captionHidden
          >
            <thead>
              <tr>
                <Th className="w-32">Date</Th>
                <Th className="w-20">No.</Th>
                <Th>Memo / description</Th>
                <Th className="w-28">Source</Th>
                <Th numeric className="w-36">
                  Debit
                </Th>
                <Th numeric className="w-36">
                  Credit
                </Th>
                <Th numeric className="w-40">
                  Balance
                </Th>
              </tr>
            </thead>
            <tbody>
              {pages.page === 1 ? (
                <tr className="bg-slate-50/60 dark:bg-slate-900/40">
                  <Td className="text-slate-500 dark:text-slate-400">{from ? formatDate(from) : ''}</Td>
                  <Td />
                  <RowTh colSpan={4} className="font-medium text-slate-700 dark:text-slate-200">
                    Opening balance
                  </RowTh>
                  <Td numeric className="font-medium">
                    <Money minor={data.openingBalance} currency={currency} />
                  </Td>
                </tr>
              ) : null}
              {data.rows.length === 0 ? (
                <tr>
                  <Td colSpan={7} className="py-8 text-center text-slate-500 dark:text-slate-400">
                    No postings to this account in the period. Widen the dates to see earlier activity.
                  </Td>
                </tr>
              ) : (
                data.rows.map((r) => (
                  <tr
                    key={`${r.entryId}-${r.lineNo}`}
                    className="hover:bg-slate-50 dark:hover:bg-slate-800/50"
                  >
                    <Td className="whitespace-nowrap">{formatDate(r.date)}</Td>
                    <Td>
                      <EntryLink number={r.entryNumber} onOpen={() => onOpenEntry(r.entryId)} />
                    </Td>
                    <Td>
                      <span className="text-slate-900 dark:text-white">{r.memo || '—'}</span>
                      {r.description ? (
                        <span className="block text-xs text-slate-500 dark:text-slate-400">
                          {r.description}
                        </span>
                      ) : null}
                    </Td>
                    <Td className="text-slate-600 dark:text-slate-300">
                      {SOURCE_LABELS[r.source] ?? r.source}
                    </Td>
                    <DebitCreditCells debit={r.debit} credit={r.credit} currency={currency} />
                    <Td numeric className="font-medium">
                      <Money minor={r.balance} currency={currency} />
                    </Td>
                  </tr>
                ))
              )}
            </tbody>
            {!data.nextCursor ? (
              <tfoot>
                <tr className="bg-slate-50 font-semibold text-slate-900 dark:bg-slate-900/60 dark:text-white">
                  <RowTh colSpan={6} className="font-semibold">
                    Closing balance, {formatDate(to)}
                  </RowTh>
                  <Td numeric>
                    <Money minor={data.closingBalance} currency={currency} />
                  </Td>
                </tr>
              </tfoot>
            ) : null}
          </Table>
          <Pager
            label="General ledger"
            page={pages.page}
            hasNext={Boolean(data.nextCursor)}
            onNext={() => data.nextCursor && pages.next(data.nextCursor)}
            onPrevious={pages.previous}
          />
        </>
      ) : null}
    </Card>
  );
};

export const GeneralLedgerTab = GeneralLedgerView;

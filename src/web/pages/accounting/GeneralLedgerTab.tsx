import { useEffect } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { RowTh, Table, TableHead, Td, TotalsFoot } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { AccountPicker } from './AccountPicker.tsx';
import { formatDate } from '../../lib/format.ts';
import { useAccounts, useGeneralLedger, useTrialBalance } from './ledgerApi.ts';
import { Pager, useCursorPages } from './Pager.tsx';
import {
  AccountCells,
  AccountTypeGroups,
  DEBIT_CREDIT_COLUMNS,
  DebitCreditCells,
  EntryLink,
  ExportLinks,
  PeriodInputs,
  QueryView,
  SOURCE_LABELS,
  SubLine,
  Toolbar,
  useReportPeriod,
} from './parts.tsx';

// General ledger: one account's postings in date order with a running balance, paged with
// the API's cursor. Without an account chosen it lists the accounts with balances to pick
// from, grouped as a bookkeeper scans them.

const AccountBalances = ({ to, onPick }: { to: string; onPick: (id: string) => void }) => {
  const { company } = useCompany();
  const tb = useTrialBalance({ to });
  return (
    <QueryView
      query={tb}
      what="account balances"
      isEmpty={(d) => d.rows.length === 0}
      empty={
        <EmptyState
          title="No postings yet"
          description="Once entries are posted, each account's activity and running balance shows here. Choose an account above to see its ledger."
        />
      }
    >
      {(data) => (
        <Table
          caption={`Accounts with a balance as of ${formatDate(to)}; choose one to see its ledger`}
          captionHidden
        >
          <TableHead
            columns={[{ label: 'Code', className: 'w-24' }, 'Account', { label: 'Balance', numeric: true }]}
          />
          <AccountTypeGroups
            rows={data.rows}
            columns={3}
            row={(r) => {
              const natural =
                r.type === 'asset' || r.type === 'expense' ? r.closingBalance : -r.closingBalance;
              return (
                <tr key={r.accountId} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
                  <AccountCells code={r.code} name={r.name} onOpen={() => onPick(r.accountId)} />
                  <Td numeric>
                    <Money minor={natural === 0 ? 0 : natural} currency={company.baseCurrency} />
                  </Td>
                </tr>
              );
            }}
          />
        </Table>
      )}
    </QueryView>
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
  const period = useReportPeriod(fyStart, today);
  const { from, to } = period;
  const pages = useCursorPages();
  const { reset } = pages;
  // A new account or range starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are the triggers
  useEffect(() => reset(), [accountId, from, to, reset]);
  const query = { accountId: accountId ?? '', from: from || undefined, to, limit: 50 };
  const gl = useGeneralLedger({ ...query, cursor: pages.cursor }, Boolean(accountId));
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
        <PeriodInputs period={period} />
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
      ) : (
        <QueryView query={gl} what="the general ledger" loadingLabel="Loading the ledger...">
          {(data) => (
            <>
              <Table
                caption={`General ledger of ${data.account.code} ${data.account.name}, in ${currency}`}
                captionHidden
              >
                <TableHead
                  columns={[
                    { label: 'Date', className: 'w-32' },
                    { label: 'No.', className: 'w-20' },
                    'Memo / description',
                    { label: 'Source', className: 'w-28' },
                    ...DEBIT_CREDIT_COLUMNS,
                    { label: 'Balance', numeric: true, className: 'w-40' },
                  ]}
                />
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
                          <SubLine text={r.description} />
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
                  <TotalsFoot label={`Closing balance, ${formatDate(to)}`} span={6}>
                    <Td numeric>
                      <Money minor={data.closingBalance} currency={currency} />
                    </Td>
                  </TotalsFoot>
                ) : null}
              </Table>
              <Pager label="General ledger" pages={pages} nextCursor={data.nextCursor} />
            </>
          )}
        </QueryView>
      )}
    </Card>
  );
};

export const GeneralLedgerTab = GeneralLedgerView;

import { useState } from 'react';
import type { SupplierCreditList } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { ListCard, NewButton } from '../../components/ui/ListCard.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { Pager, useCursorPages } from '../accounting/Pager.tsx';
import { LinkButton } from '../invoices/parts.tsx';
import { CreditActionButtons, CreditActionDialog, type CreditDialogKind } from './CreditActions.tsx';
import { CreditDetail } from './CreditDetail.tsx';
import { CreditForm } from './CreditForm.tsx';
import { useSupplierCredits } from './SupplierApi.ts';

// Supplier credits: credit notes suppliers gave, with what is left of each; a new credit with
// its lines; applying one to an open bill of that supplier, recording a refund, voiding.

export type PayablesTabProps = { onOpenBill: (billId: string) => void };

type View = { kind: 'list' } | { kind: 'new' } | { kind: 'credit'; id: string };

export const SupplierCreditsTab = ({ onOpenBill }: PayablesTabProps) => {
  const [view, setView] = useState<View>({ kind: 'list' });
  const [notice, setNotice] = useState<string | null>(null);
  const toList = () => setView({ kind: 'list' });
  if (view.kind === 'new')
    return (
      <CreditForm
        onCancel={toList}
        onSaved={(c) => {
          setNotice(`Saved ${c.number}: ${c.supplierName}'s credit is on their account.`);
          setView({ kind: 'credit', id: c.id });
        }}
      />
    );
  if (view.kind === 'credit')
    return <CreditDetail id={view.id} notice={notice} onBack={toList} onOpenBill={onOpenBill} />;
  return (
    <CreditList
      notice={notice}
      onNotice={setNotice}
      onNew={() => setView({ kind: 'new' })}
      onOpen={(id) => {
        setNotice(null);
        setView({ kind: 'credit', id });
      }}
    />
  );
};

type CreditRow = SupplierCreditList['credits'][number];

const CreditList = ({
  notice,
  onNotice,
  onNew,
  onOpen,
}: {
  notice: string | null;
  onNotice: (message: string | null) => void;
  onNew: () => void;
  onOpen: (id: string) => void;
}) => {
  const { can } = useCompany();
  const [openOnly, setOpenOnly] = useState(false);
  const pages = useCursorPages();
  const credits = useSupplierCredits(openOnly, pages.cursor);
  const [dialog, setDialog] = useState<{ kind: CreditDialogKind; credit: CreditRow } | null>(null);
  const rows = credits.data?.credits ?? [];
  const canMove = can('approve');
  return (
    <ListCard
      title="Supplier credits"
      description="Credit notes from suppliers: apply them to their open bills, or record the refund they pay back."
      actions={canMove ? <NewButton onClick={onNew}>New credit</NewButton> : null}
      toolbar={
        <CheckboxField
          label="Only credits with something left"
          checked={openOnly}
          onChange={(v) => {
            setOpenOnly(v);
            pages.reset();
          }}
        />
      }
      notices={[{ tone: 'success', message: notice }]}
      state={{
        loading: credits.isLoading,
        loadingLabel: 'Loading supplier credits...',
        error: credits.isError ? `Could not load the supplier credits. ${credits.error.message}` : undefined,
        onRetry: () => void credits.refetch(),
        empty: rows.length === 0,
        emptyTitle: openOnly ? 'No credit left to use' : 'No supplier credits yet',
        emptyDescription: openOnly
          ? 'Every credit is applied, refunded or void.'
          : 'When a supplier sends a credit note (goods returned, a price corrected), record it here.',
      }}
      footer={
        <>
          <Pager label="Supplier credits" pages={pages} nextCursor={credits.data?.nextCursor} />
          {dialog ? (
            <CreditActionDialog
              kind={dialog.kind}
              credit={dialog.credit}
              onClose={() => setDialog(null)}
              onDone={(message) => {
                setDialog(null);
                onNotice(message);
              }}
            />
          ) : null}
        </>
      }
    >
      <DataTable
        caption="Supplier credits"
        rows={rows}
        rowKey={(c) => c.id}
        rowClassName={(c) => (c.status === 'void' ? 'text-slate-400 dark:text-slate-500' : undefined)}
        columns={[
          {
            header: 'Number',
            rowHeader: true,
            cell: (c) => <LinkButton onClick={() => onOpen(c.id)}>{c.number}</LinkButton>,
          },
          { header: 'Supplier', cell: (c) => c.supplierName },
          { header: 'Date', className: 'whitespace-nowrap', cell: (c) => formatDate(c.date) },
          { header: 'Reference', cell: (c) => c.reference || '—' },
          {
            header: 'Status',
            cell: (c) =>
              c.status === 'void' ? (
                <Badge tone="slate">Void</Badge>
              ) : c.amountLeft === 0 ? (
                <Badge tone="green">Used</Badge>
              ) : (
                <Badge tone="blue">Open</Badge>
              ),
          },
          { header: 'Total', numeric: true, cell: (c) => <Money minor={c.total} currency={c.currency} /> },
          {
            header: 'Left',
            numeric: true,
            className: 'font-medium',
            cell: (c) => <Money minor={c.amountLeft} currency={c.currency} blankZero />,
          },
          canMove && {
            header: 'Actions',
            actions: true,
            cell: (c) => (
              <CreditActionButtons credit={c} size="sm" onAction={(kind) => setDialog({ kind, credit: c })} />
            ),
          },
        ]}
      />
    </ListCard>
  );
};

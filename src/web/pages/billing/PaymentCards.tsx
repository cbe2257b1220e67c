import { CreditCard, Download, ExternalLink } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { BillingInvoice, BillingOverview } from '../../../shared/billing.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader } from '../../components/ui/Card.tsx';
import { type Column, DataTable } from '../../components/ui/DataTable.tsx';
import { Form } from '../../components/ui/Form.tsx';
import { ListCard } from '../../components/ui/ListCard.tsx';
import { errorText } from '../../lib/api.ts';
import { formatAmount, formatDate } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { billingCalls, goTo, invoicePdfUrl, useBillingChange, useBillingInvoices } from './billingApi.ts';
import { cardText } from './billingText.ts';
import { CardFields, TestCardsNote, useCardForm } from './CardFields.tsx';

// The payment method (its summary and "Manage card and invoices", which opens Stripe's
// Customer Portal or the local provider's payment tab), the local provider's card update, and
// the invoice history with PDF links.

export const usePortal = () => {
  const action = useAction();
  return { ...action, open: () => action.run(async () => goTo((await billingCalls.portal()).url)) };
};

export const PaymentMethodCard = ({ overview: o }: { overview: BillingOverview }) => {
  const portal = usePortal();
  return (
    <Card>
      <CardHeader title="Payment method" />
      <div className="space-y-4 p-5">
        <p
          className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200"
          data-testid="billing-card"
        >
          <CreditCard className="h-5 w-5 shrink-0 text-slate-400" aria-hidden="true" />
          {o.paymentMethod ? cardText(o.paymentMethod) : 'No card on file. You add one when you subscribe.'}
        </p>
        {portal.error ? <Alert>{portal.error}</Alert> : null}
        {o.hasSubscription || o.paymentMethod ? (
          <Button variant="secondary" busy={portal.busy} onClick={() => void portal.open()}>
            Manage card and invoices
          </Button>
        ) : null}
      </div>
    </Card>
  );
};

/** The local provider's page for a new card (Stripe keeps cards in its Customer Portal). */
export const CardUpdateCard = ({ overview: o }: { overview: BillingOverview }) => {
  const card = useCardForm();
  const change = useBillingChange();
  const portal = usePortal();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  if (o.provider !== 'local') {
    return (
      <Card>
        <CardHeader title="Card" description="Your card and billing details are kept by Stripe." />
        <div className="space-y-3 p-5">
          {portal.error ? <Alert>{portal.error}</Alert> : null}
          <Button variant="secondary" busy={portal.busy} onClick={() => void portal.open()}>
            <ExternalLink className="h-4 w-4" aria-hidden="true" /> Open the Stripe billing portal
          </Button>
        </div>
      </Card>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const input = card.parse();
    if (!input) return;
    setBusy(true);
    setProblem(null);
    try {
      const next = await change(() => billingCalls.paymentMethod(input));
      setSaved(next.paymentMethod ? `Card saved: ${cardText(next.paymentMethod)}.` : 'Card saved.');
      card.reset();
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card>
      <CardHeader
        title="Card"
        description={o.paymentMethod ? `On file: ${cardText(o.paymentMethod)}` : 'No card on file yet.'}
      />
      <div className="p-5">
        <Form onSubmit={submit} error={problem} busy={busy} submitLabel="Save card">
          {saved ? <Alert tone="success">{saved}</Alert> : null}
          <CardFields form={card} />
          <TestCardsNote />
        </Form>
      </div>
    </Card>
  );
};

const STATUS_TONES: Record<BillingInvoice['status'], 'green' | 'amber' | 'slate' | 'red'> = {
  paid: 'green',
  open: 'amber',
  draft: 'slate',
  void: 'slate',
  uncollectible: 'red',
};

const STATUS_LABELS: Record<BillingInvoice['status'], string> = {
  paid: 'Paid',
  open: 'Open',
  draft: 'Draft',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

export const InvoicesCard = ({ provider }: { provider: BillingOverview['provider'] }) => {
  const list = useBillingInvoices();
  const invoices = list.data?.invoices ?? [];
  const columns: Column<BillingInvoice>[] = [
    {
      header: 'Invoice',
      rowHeader: true,
      cell: (i) => <span className="font-medium">{i.number}</span>,
      className: 'whitespace-nowrap',
    },
    { header: 'Date', cell: (i) => formatDate(i.createdAt), className: 'whitespace-nowrap' },
    { header: 'Description', cell: (i) => i.description, className: 'min-w-48' },
    { header: 'Amount', numeric: true, cell: (i) => formatAmount(i.amountDue, i.currency) },
    { header: 'Status', cell: (i) => <Badge tone={STATUS_TONES[i.status]}>{STATUS_LABELS[i.status]}</Badge> },
    {
      // A visible heading: the kit's screen-reader-only one is positioned against the page and
      // would widen a phone's page past the scrolling table.
      header: 'PDF',
      cell: (i) => {
        const url = invoicePdfUrl(i, provider);
        return url ? (
          <a
            href={url}
            download={url.startsWith('/') ? `${i.number}.pdf` : undefined}
            target={url.startsWith('/') ? undefined : '_blank'}
            rel="noreferrer"
            className="relative inline-flex min-h-11 items-center gap-1.5 font-medium whitespace-nowrap text-brand-700 hover:underline dark:text-brand-300"
          >
            <Download className="h-4 w-4" aria-hidden="true" /> PDF
            <span className="sr-only"> of invoice {i.number}</span>
          </a>
        ) : null;
      },
    },
  ];
  return (
    <ListCard
      title="Invoices"
      description="Every charge of your subscription."
      state={{
        loading: list.isPending,
        loadingLabel: 'Loading invoices...',
        error: list.error ? `Could not load your invoices. ${errorText(list.error)}` : null,
        onRetry: () => void list.refetch(),
        empty: invoices.length === 0,
        emptyTitle: 'No invoices yet',
        emptyDescription: 'Your invoices appear here after your first payment.',
      }}
    >
      <DataTable caption="Billing invoices" columns={columns} rows={invoices} rowKey={(i) => i.id} />
    </ListCard>
  );
};

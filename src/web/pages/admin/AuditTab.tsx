import { Download } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { buttonClasses, Button } from '../../components/ui/Button.tsx';
import { type Column, DataTable } from '../../components/ui/DataTable.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { ListCard } from '../../components/ui/ListCard.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { Pager, useCursorPages } from '../accounting/Pager.tsx';
import { type AuditFilter, auditCsvHref, useAdminActions, useAdminAudit } from './adminApi.ts';
import { adminListState } from './parts.tsx';

// The audit log across every company: filter by company id, user id, action and dates, page
// through, download the same filter as CSV. Below it, what platform admins did (every admin
// action is recorded with the admin's id).

/** A cell of a name and an id: wide enough to read on a phone (the table scrolls sideways). */
const Wide = ({ children }: { children: ReactNode }) => <div className="min-w-48">{children}</div>;

/**
 * A table that may scroll sideways, reachable by keyboard to scroll it (its cells hold nothing
 * to tab to); the kit's own scroll frame is let out so this one does the scrolling.
 */
const ScrollRegion = ({ label, children }: { label: string; children: ReactNode }) => (
  <section
    aria-label={label}
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
    tabIndex={0}
    className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500"
  >
    {children}
  </section>
);

/** A log's table: scrolls inside its own labelled region, newest first, "When" in the first column. */
const LogTable = <T extends { id: string; createdAt: string }>({
  label,
  rows,
  columns,
}: {
  label: string;
  rows: T[];
  columns: Column<T>[];
}) => (
  <ScrollRegion label={label}>
    <DataTable
      caption={label}
      rows={rows}
      rowKey={(r) => r.id}
      dense
      className="overflow-visible!"
      columns={[
        {
          header: 'When',
          cell: (r) => <span className="whitespace-nowrap">{formatDateTime(r.createdAt)}</span>,
        },
        ...columns,
      ]}
    />
  </ScrollRegion>
);

const NO_FILTER: AuditFilter = { organizationId: '', userId: '', action: '', from: '', to: '' };

export const AuditTab = () => (
  <div className="space-y-6">
    <CompanyAudit />
    <AdminActions />
  </div>
);

const CompanyAudit = () => {
  const form = useFormFields(NO_FILTER);
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER);
  const [problem, setProblem] = useState<string | null>(null);
  const pages = useCursorPages();
  const list = useAdminAudit(filter, pages.cursor);
  const rows = list.data?.entries ?? [];
  const filtered = Object.values(filter).some((v) => v.trim() !== '');
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = { ...form.values };
    if (next.from && next.to && next.from > next.to) {
      setProblem('The From date is after the To date.');
      return;
    }
    setProblem(null);
    pages.reset();
    setFilter(next);
  };
  const clear = () => {
    form.set(NO_FILTER);
    setProblem(null);
    pages.reset();
    setFilter(NO_FILTER);
  };
  return (
    <ListCard
      title="Audit log"
      description="What members did in every company, newest first."
      actions={
        <a href={auditCsvHref(filter)} download className={buttonClasses('secondary')}>
          <Download className="h-4 w-4" aria-hidden="true" /> Export CSV
        </a>
      }
      toolbar={
        <form
          onSubmit={apply}
          className="grid w-full gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto_auto_auto]"
          aria-label="Audit log filters"
        >
          <TextField label="Company id" autoComplete="off" {...form.bind('organizationId')} />
          <TextField label="User id" autoComplete="off" {...form.bind('userId')} />
          <TextField label="Action" placeholder="invoice.sent" autoComplete="off" {...form.bind('action')} />
          <TextField label="From" type="date" {...form.bind('from')} />
          <TextField label="To" type="date" {...form.bind('to')} />
          <div className="flex items-end gap-2">
            <Button type="submit">Filter</Button>
            {filtered ? (
              <Button variant="ghost" onClick={clear}>
                Clear
              </Button>
            ) : null}
          </div>
        </form>
      }
      notices={[{ message: problem }]}
      state={adminListState(list, 'the audit log', rows.length === 0, {
        title: filtered ? 'No entries match' : 'No entries yet',
        description: filtered ? 'Try other filters, or Clear them.' : undefined,
      })}
      footer={<Pager label="Audit log" pages={pages} nextCursor={list.data?.nextCursor} />}
    >
      <LogTable
        label="Audit log entries"
        rows={rows}
        columns={[
          {
            header: 'Company',
            cell: (r) => (
              <Wide>
                {r.organizationName ?? 'Deleted company'}
                <code className="block text-xs break-all text-slate-500 dark:text-slate-400">
                  {r.organizationId}
                </code>
              </Wide>
            ),
          },
          {
            header: 'User',
            cell: (r) =>
              r.actorUserId ? (
                <Wide>
                  <span className="break-all">{r.actorEmail ?? 'Deleted user'}</span>
                  <code className="block text-xs break-all text-slate-500 dark:text-slate-400">
                    {r.actorUserId}
                  </code>
                </Wide>
              ) : (
                'System'
              ),
          },
          {
            header: 'Action',
            rowHeader: true,
            cell: (r) => <code className="text-xs whitespace-nowrap">{r.action}</code>,
          },
          {
            header: 'Record',
            cell: (r) => (
              <Wide>
                {r.entityType}
                <code className="block text-xs break-all text-slate-500 dark:text-slate-400">
                  {r.entityId}
                </code>
              </Wide>
            ),
          },
        ]}
      />
    </ListCard>
  );
};

/** An admin action's details as "key: value" pairs (an object's), shortened past 120 characters. */
const detailsText = (details: unknown) => {
  if (details === null || details === undefined) return '';
  const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const text =
    typeof details === 'object' && !Array.isArray(details)
      ? Object.entries(details as Record<string, unknown>)
          .filter(([, v]) => v !== null && v !== undefined)
          .map(([k, v]) => `${k}: ${value(v)}`)
          .join(' · ')
      : value(details);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};

const AdminActions = () => {
  const pages = useCursorPages();
  const list = useAdminActions(pages.cursor);
  const rows = list.data?.actions ?? [];
  return (
    <ListCard
      title="Admin actions"
      description="What platform admins did here, with who did it."
      state={adminListState(list, 'admin actions', rows.length === 0, { title: 'No admin actions yet' })}
      footer={<Pager label="Admin actions" pages={pages} nextCursor={list.data?.nextCursor} />}
    >
      <LogTable
        label="Admin actions"
        rows={rows}
        columns={[
          { header: 'Admin', cell: (r) => <Wide>{r.adminEmail}</Wide> },
          {
            header: 'Action',
            rowHeader: true,
            cell: (r) => <code className="text-xs whitespace-nowrap">{r.action}</code>,
          },
          {
            header: 'Target',
            cell: (r) => (
              <Wide>
                {r.targetType}
                <code className="block text-xs break-all text-slate-500 dark:text-slate-400">
                  {r.targetId}
                </code>
              </Wide>
            ),
          },
          {
            header: 'Details',
            cell: (r) => (
              <div className="min-w-72 text-xs break-words text-slate-600 dark:text-slate-300">
                {detailsText(r.details)}
              </div>
            ),
          },
        ]}
      />
    </ListCard>
  );
};

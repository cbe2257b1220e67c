import { Mail } from 'lucide-react';
import { useState } from 'react';
import type { AdminContactMessage } from '../../../shared/admin.ts';
import { Button, buttonClasses } from '../../components/ui/Button.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { ListCard } from '../../components/ui/ListCard.tsx';
import { formatDateTime, plural } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { Pager, useCursorPages } from '../accounting/Pager.tsx';
import { type MessageFilter, useAdminChanges, useAdminMessages } from './adminApi.ts';
import { FilterSelect, adminListState } from './parts.tsx';

// Contact messages from the website's /contact form: newest first, unread ones marked, each
// with Reply (the mail app, to the sender) and mark read / replied.

const FILTERS: readonly { value: MessageFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'unreplied', label: 'Not replied' },
];

const replyHref = (m: AdminContactMessage) =>
  `mailto:${encodeURIComponent(m.email).replace('%40', '@')}?subject=${encodeURIComponent('Re: your message to Kontor')}&body=${encodeURIComponent(
    `\n\n> ${m.message.split('\n').join('\n> ')}`,
  )}`;

export const MessagesTab = () => {
  const [status, setStatus] = useState<MessageFilter>('all');
  const pages = useCursorPages();
  const list = useAdminMessages(status, pages.cursor);
  const { markMessage } = useAdminChanges();
  const action = useAction();
  const rows = list.data?.messages ?? [];
  const unread = list.data?.unread ?? 0;
  const mark = (m: AdminContactMessage, change: { read?: boolean; replied?: boolean }, key: string) =>
    void action.run(() => markMessage(m.id, change), { key: `${m.id}:${key}` });
  return (
    <ListCard
      title="Messages"
      description={
        list.data ? `${plural(unread, 'unread message')} from the contact form.` : 'From the contact form.'
      }
      toolbar={
        <FilterSelect label="Show" value={status} pages={pages} onChange={setStatus} options={FILTERS} />
      }
      notices={[{ message: action.error }]}
      state={adminListState(list, 'messages', rows.length === 0, {
        title: status === 'all' ? 'No messages yet' : 'Nothing here',
        description:
          status === 'all'
            ? 'Messages sent from the contact page show here.'
            : 'Every message is read or replied to.',
      })}
      footer={<Pager label="Messages" pages={pages} nextCursor={list.data?.nextCursor} />}
    >
      <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Messages">
        {rows.map((m) => (
          <li key={m.id} className={`px-5 py-4 ${m.readAt ? '' : 'bg-brand-50/50 dark:bg-brand-950/30'}`}>
            <article aria-labelledby={`message-${m.id}`}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <h3
                    id={`message-${m.id}`}
                    className="font-semibold break-words text-slate-900 dark:text-white"
                  >
                    {m.name}
                    {m.company ? (
                      <span className="font-normal text-slate-500 dark:text-slate-400"> · {m.company}</span>
                    ) : null}
                  </h3>
                  <p className="text-sm break-all text-slate-600 dark:text-slate-300">{m.email}</p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  {m.readAt ? null : <Badge tone="blue">Unread</Badge>}
                  {m.repliedAt ? <Badge tone="green">Replied</Badge> : null}
                  <time dateTime={m.createdAt} className="text-xs text-slate-500 dark:text-slate-400">
                    {formatDateTime(m.createdAt)}
                  </time>
                </div>
              </div>
              <p className="mt-2 text-sm break-words whitespace-pre-wrap text-slate-800 dark:text-slate-200">
                {m.message}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <a href={replyHref(m)} className={buttonClasses('secondary', 'sm')}>
                  <Mail className="h-4 w-4" aria-hidden="true" /> Reply
                  <span className="sr-only"> to {m.name}</span>
                </a>
                <Button
                  size="sm"
                  variant="ghost"
                  busy={action.busyKey === `${m.id}:read`}
                  onClick={() => mark(m, { read: !m.readAt }, 'read')}
                >
                  {m.readAt ? 'Mark unread' : 'Mark read'}
                  <span className="sr-only"> ({m.name})</span>
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  busy={action.busyKey === `${m.id}:replied`}
                  onClick={() =>
                    mark(m, m.repliedAt ? { replied: false } : { replied: true, read: true }, 'replied')
                  }
                >
                  {m.repliedAt ? 'Mark not replied' : 'Mark replied'}
                  <span className="sr-only"> ({m.name})</span>
                </Button>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </ListCard>
  );
};

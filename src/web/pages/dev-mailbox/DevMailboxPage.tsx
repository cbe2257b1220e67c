import { useQuery } from '@tanstack/react-query';
import { Inbox, Mail } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Logo } from '../../components/Logo.tsx';
import { PageSpinner } from '../../components/Spinner.tsx';
import { api } from '../../lib/api.ts';
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { keys } from '../../lib/queryKeys.ts';

// /dev/mailbox: the mail outbox in development, so every mail flow (verification, reset,
// invitations) works without a mail server. The API answers 404 outside development.

type Summary = { id: string; to: string; subject: string; createdAt: string };
type Message = Summary & {
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string | null; size: number }[];
};

const URL_PATTERN = /(https?:\/\/[^\s<>"']+)/g;

/** Splits text into plain and link parts, keyed by their offset in the text. */
const segments = (text: string) => {
  const parts: { at: number; text: string; link: boolean }[] = [];
  let at = 0;
  for (const [i, part] of text.split(URL_PATTERN).entries()) {
    parts.push({ at, text: part, link: i % 2 === 1 });
    at += part.length;
  }
  return parts;
};

const Linkified = ({ text }: { text: string }) => (
  <>
    {segments(text).map((s) =>
      s.link ? (
        <a key={s.at} href={s.text} className="break-all text-brand-600 underline dark:text-brand-400">
          {s.text}
        </a>
      ) : (
        <Fragment key={s.at}>{s.text}</Fragment>
      ),
    )}
  </>
);

const DevMailboxPage = () => {
  const [selected, setSelected] = useState<string | null>(null);
  const list = useQuery({
    queryKey: keys.devMailbox(),
    queryFn: () => api.get<{ messages: Summary[] }>('/dev/mailbox'),
    refetchInterval: 3000,
    retry: false,
  });
  const message = useQuery({
    queryKey: keys.devMailbox(selected),
    queryFn: () => api.get<Message>(`/dev/mailbox/${selected}`),
    enabled: selected !== null,
  });

  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-6 py-3 dark:border-slate-800 dark:bg-slate-900">
        <Logo size="sm" />
        <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">
          Development mailbox
        </span>
      </header>
      <main className="mx-auto grid max-w-6xl gap-6 p-6 md:grid-cols-[20rem_1fr]">
        <section aria-labelledby="mailbox-heading">
          <h1 id="mailbox-heading" className="mb-3 flex items-center gap-2 text-lg font-bold">
            <Inbox className="h-5 w-5" aria-hidden="true" /> Outbox
          </h1>
          {list.isPending ? (
            <PageSpinner label="Loading mail..." />
          ) : list.isError ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              The mailbox is only available in development. {list.error.message}
            </p>
          ) : list.data.messages.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
              No mail yet. Sign up or request a reset link and it shows up here.
            </p>
          ) : (
            <ul className="space-y-2">
              {list.data.messages.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    onClick={() => setSelected(m.id)}
                    aria-current={selected === m.id ? 'true' : undefined}
                    className={`w-full rounded-lg border p-3 text-left text-sm ${selected === m.id ? 'border-brand-500 bg-brand-50 dark:bg-brand-900/30' : 'border-slate-200 bg-white hover:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:bg-slate-800'}`}
                  >
                    <span className="block font-semibold text-slate-900 dark:text-white">{m.subject}</span>
                    <span className="block truncate text-slate-600 dark:text-slate-400">{m.to}</span>
                    <span className="block text-xs text-slate-500 dark:text-slate-400">
                      {formatDateTime(m.createdAt)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section
          aria-label="Message"
          className="min-h-64 rounded-xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900"
        >
          {selected === null ? (
            <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
              <Mail className="h-4 w-4" aria-hidden="true" /> Choose a message to read it.
            </p>
          ) : message.isPending ? (
            <PageSpinner label="Opening..." />
          ) : message.isError ? (
            <p role="alert" className="text-sm text-red-600">
              {message.error.message}
            </p>
          ) : (
            <article>
              <h2 className="text-xl font-bold">{message.data.subject}</h2>
              <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
                To {message.data.to} · {formatDateTime(message.data.createdAt)}
              </p>
              <pre
                data-testid="mail-text"
                className="mt-4 whitespace-pre-wrap font-sans text-sm leading-relaxed text-slate-800 dark:text-slate-200"
              >
                <Linkified text={message.data.text} />
              </pre>
              {message.data.attachments.length > 0 ? (
                <ul className="mt-4 text-sm text-slate-600 dark:text-slate-400">
                  {message.data.attachments.map((a) => (
                    <li key={a.filename}>
                      📎 {a.filename} ({formatBytes(a.size)})
                    </li>
                  ))}
                </ul>
              ) : null}
            </article>
          )}
        </section>
      </main>
    </div>
  );
};

export default DevMailboxPage;

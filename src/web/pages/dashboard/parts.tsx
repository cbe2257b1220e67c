import { ArrowLeftRight, ArrowRight, BookOpen, FileText } from 'lucide-react';
import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import { EmptyState } from '../../components/ui/Card.tsx';
import { Link } from 'react-router';
import { Card } from '../../components/ui/Card.tsx';

// Pieces of the dashboard: a key figure tile (a link to what is behind it), its loading
// placeholder, and the first steps for a company with nothing posted yet.

/** A key figure: its label and value link to the report or list behind it; `footer` adds more links. */
export const Kpi = ({
  label,
  to,
  linkLabel,
  hint,
  children,
  footer,
}: {
  label: string;
  to: string;
  linkLabel: string;
  hint: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) => (
  <section
    aria-label={label}
    className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
  >
    <Link
      to={to}
      className="group -m-2 block min-h-11 rounded-lg p-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 dark:hover:bg-slate-800/60"
    >
      <h2 className="flex items-center justify-between gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
        {label}
        <ArrowRight
          className="h-4 w-4 shrink-0 text-slate-400 transition-transform group-hover:translate-x-0.5"
          aria-hidden="true"
        />
      </h2>
      <div className="mt-2 text-2xl font-semibold tracking-tight break-words text-slate-900 dark:text-white">
        {children}
      </div>
      <span className="sr-only">{linkLabel}</span>
    </Link>
    <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>
    {footer}
  </section>
);

/** The tiles while the figures load. */
export const KpiSkeletons = ({ count }: { count: number }) => (
  <>
    {Array.from({ length: count }, (_, i) => (
      <div
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        key={i}
        aria-hidden="true"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="h-4 w-24 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
        <div className="mt-3 h-8 w-32 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
        <div className="mt-2 h-3 w-40 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
      </div>
    ))}
  </>
);

export const GetStarted = () => {
  const steps = [
    {
      to: '/transactions',
      icon: ArrowLeftRight,
      title: 'Record your first transaction',
      text: 'Add money in or out, or import a bank statement.',
    },
    {
      to: '/invoices',
      icon: FileText,
      title: 'Send an invoice',
      text: 'Bill a customer; it shows here as receivable until paid.',
    },
    {
      to: '/accounting?tab=journal&new=entry',
      icon: BookOpen,
      title: 'Record a journal entry',
      text: 'Bring over opening balances from your previous books.',
    },
  ];
  return (
    <Card className="overflow-hidden">
      <div className="border-b border-slate-200 bg-gradient-to-r from-brand-50 to-white px-6 py-5 dark:border-slate-800 dark:from-brand-950/60 dark:to-slate-900">
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">
          Record your first transaction
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Your books are set up with a standard chart of accounts. Once something is recorded, your cash,
          income and expenses appear here.
        </p>
      </div>
      <ul className="grid gap-px bg-slate-200 sm:grid-cols-3 dark:bg-slate-800">
        {steps.map((s) => (
          <li key={s.to} className="bg-white dark:bg-slate-900">
            <Link
              to={s.to}
              className="group flex h-full min-h-11 gap-3 p-5 hover:bg-slate-50 dark:hover:bg-slate-800/60"
            >
              <s.icon
                className="mt-0.5 h-5 w-5 shrink-0 text-brand-600 dark:text-brand-400"
                aria-hidden="true"
              />
              <span>
                <span className="flex items-center gap-1 font-medium text-slate-900 dark:text-white">
                  {s.title}
                  <ArrowRight
                    className="h-4 w-4 transition-transform group-hover:translate-x-0.5"
                    aria-hidden="true"
                  />
                </span>
                <span className="mt-1 block text-sm text-slate-500 dark:text-slate-400">{s.text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
};

/**
 * Whether a box is within `margin` px of the viewport (or has been): charts further down are
 * neither downloaded nor drawn until the reader scrolls towards them, so a phone's first
 * seconds are not spent on pictures below the fold. Without IntersectionObserver: at once.
 */
const useNearViewport = (margin: number) => {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const box = ref.current;
    if (near || !box) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin}px 0px` },
    );
    observer.observe(box);
    return () => observer.disconnect();
  }, [near, margin]);
  return { ref, near };
};

/**
 * A dashboard chart's place: its empty state, or the chart (loaded lazily once its place is
 * within 600 px of the screen; a spinner of the chart's height meanwhile, so nothing moves
 * when it comes), hidden from screen readers, who read the table beside it.
 */
export const ChartSlot = ({
  height,
  empty,
  children,
}: {
  height: number;
  empty: { title: string; description: string } | null;
  children: ReactNode;
}) => {
  const { ref, near } = useNearViewport(600);
  if (empty) return <EmptyState title={empty.title} description={empty.description} />;
  const placeholder = (
    <div className="flex items-center justify-center" style={{ height }}>
      <Spinner label="Loading chart..." />
    </div>
  );
  return (
    <div ref={ref}>
      {near ? (
        <Suspense fallback={placeholder}>
          <div aria-hidden="true">{children}</div>
        </Suspense>
      ) : (
        // Not near the screen yet: nothing is loading, so no spinner and no status; the box
        // keeps the chart's height so nothing moves when it is drawn.
        <div aria-hidden="true" style={{ height }} />
      )}
    </div>
  );
};

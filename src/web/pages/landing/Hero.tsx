import { Check } from 'lucide-react';
import { Suspense, lazy } from 'react';
import { CtaLinks, IconList } from '../../components/site/Marketing.tsx';

const DashboardPreview = lazy(() => import('../../demo/DashboardPreview.tsx'));

const PROMISES = [
  { label: 'No credit card required' },
  { label: '14-day free trial' },
  { label: 'Cancel anytime' },
];

const PreviewSkeleton = () => (
  <div
    aria-hidden="true"
    className="h-[30rem] animate-pulse rounded-2xl border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-900"
  />
);

export const Hero = () => (
  <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
    {/* One soft glow behind the hero; the rest of the page stays calm. */}
    <div
      aria-hidden="true"
      className="absolute inset-x-0 -top-48 -z-10 mx-auto h-[40rem] max-w-5xl opacity-70 blur-2xl dark:opacity-40"
      style={{
        background:
          'radial-gradient(45% 50% at 35% 40%, rgb(96 165 250 / 0.45), transparent 70%), radial-gradient(40% 45% at 70% 45%, rgb(167 139 250 / 0.35), transparent 70%)',
      }}
    />
    <div className="mx-auto max-w-7xl px-4 pt-16 pb-12 sm:px-6 sm:pt-24 lg:px-8">
      <div className="mx-auto max-w-3xl text-center">
        <p className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white/70 px-3 py-1 text-sm font-medium text-slate-700 shadow-sm dark:border-slate-800 dark:bg-slate-900/70 dark:text-slate-300">
          <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden="true" />
          Trusted by 10,000+ businesses
        </p>
        <h1
          id="hero-title"
          className="mt-6 text-4xl font-bold tracking-tight text-balance text-slate-950 sm:text-6xl dark:text-white"
        >
          Business finance,{' '}
          <span className="bg-gradient-to-r from-brand-600 to-violet-600 bg-clip-text text-transparent dark:from-brand-400 dark:to-violet-400">
            done right.
          </span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-pretty text-slate-600 dark:text-slate-300">
          Invoices, bills, bank accounts and double-entry books in one place. Kontor closes your month in
          hours, not days — and saves teams 15+ hours every week.
        </p>
        <CtaLinks
          className="mt-9"
          primary={{ to: '/pricing', label: 'Subscribe Now' }}
          secondary={{ to: '/about', label: 'Learn More', more: 'about Kontor' }}
        />
        <IconList
          items={PROMISES}
          icon={Check}
          className="mt-6 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-600 dark:text-slate-400"
        />
      </div>
      <div className="relative mx-auto mt-14 max-w-6xl sm:mt-16">
        <div
          aria-hidden="true"
          className="absolute -inset-x-6 -inset-y-4 -z-10 rounded-[2rem] bg-gradient-to-b from-brand-100/70 to-transparent dark:from-brand-500/10"
        />
        <Suspense fallback={<PreviewSkeleton />}>
          <DashboardPreview />
        </Suspense>
      </div>
    </div>
  </section>
);

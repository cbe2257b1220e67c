import { Check, Star } from 'lucide-react';
import { lazy } from 'react';
import {
  CtaLinks,
  IconList,
  InfoCardGrid,
  SiteSection,
  TitleLine,
} from '../../components/site/Marketing.tsx';
import { FEATURES_SECTION_ID } from '../../components/site/SiteHeader.tsx';
import {
  BUSINESS_TYPES,
  CLAIMS,
  FEATURES,
  SECTION_COPY,
  SECURITY_BADGES,
  STATS,
  TESTIMONIALS,
} from './content.ts';
import { LazyWhenNear } from './LazyWhenNear.tsx';

const InteractiveDemo = lazy(() => import('../../demo/InteractiveDemo.tsx'));

export const StatsStrip = () => (
  <section
    aria-label="Kontor in numbers"
    className="border-y border-slate-200 bg-slate-50/60 dark:border-slate-800 dark:bg-slate-900/40"
  >
    <div className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-10 sm:px-6 lg:grid-cols-4 lg:px-8">
      {STATS.map((s) => (
        <div key={s.label} className="text-center">
          <p className="text-3xl font-bold tracking-tight text-slate-950 dark:text-white">{s.value}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{s.label}</p>
        </div>
      ))}
    </div>
  </section>
);

export const Features = () => (
  <SiteSection id={FEATURES_SECTION_ID} headingId="features-title" copy={SECTION_COPY.features}>
    <InfoCardGrid
      items={FEATURES}
      className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3"
      cardClassName="group rounded-2xl border border-slate-200 bg-white p-6 transition hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-lg hover:shadow-slate-900/5 dark:border-slate-800 dark:bg-slate-900/60 dark:hover:border-brand-500/40"
      titleClassName="text-lg font-semibold"
      icon={(f) => (
        <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100 dark:bg-brand-500/10 dark:text-brand-300 dark:ring-brand-500/20">
          <f.icon aria-hidden="true" className="size-5" />
        </span>
      )}
    >
      {(f) => (
        <IconList
          items={f.points.map((label) => ({ label }))}
          icon={Check}
          className="mt-4 space-y-1.5"
          itemClassName="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300"
        />
      )}
    </InfoCardGrid>
  </SiteSection>
);

export const CallToAction = () => (
  <section aria-labelledby="cta-title" className="px-4 sm:px-6 lg:px-8">
    <div className="relative isolate mx-auto max-w-7xl overflow-hidden rounded-3xl bg-slate-950 px-6 py-16 text-center shadow-2xl sm:px-16 dark:bg-slate-900 dark:ring-1 dark:ring-slate-800">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 opacity-60"
        style={{
          background:
            'radial-gradient(60% 80% at 20% 0%, rgb(37 99 235 / 0.55), transparent 70%), radial-gradient(50% 70% at 90% 100%, rgb(124 58 237 / 0.45), transparent 70%)',
        }}
      />
      <h2
        id="cta-title"
        className="mx-auto max-w-2xl text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl"
      >
        Take control of your company's money today
      </h2>
      <p className="mx-auto mt-4 max-w-xl text-lg text-slate-300">
        Start your 14-day free trial. No credit card required, cancel anytime.
      </p>
      <CtaLinks
        tone="dark"
        className="mt-8"
        primary={{ to: '/pricing', label: 'Subscribe Now' }}
        secondary={{ to: '/pricing', label: 'View Pricing' }}
      />
      <IconList
        items={CLAIMS}
        iconClassName="size-4"
        className="mt-8 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-300"
      />
    </div>
  </section>
);

export const CommandCenter = () => (
  <SiteSection id="demo" headingId="demo-title" copy={SECTION_COPY.demo}>
    <div className="mt-12">
      <LazyWhenNear minHeight="40rem" label="Loading the demo...">
        <InteractiveDemo />
      </LazyWhenNear>
    </div>
  </SiteSection>
);

export const Testimonials = () => (
  <SiteSection
    headingId="testimonials-title"
    className="bg-slate-50 dark:bg-slate-900/40"
    copy={SECTION_COPY.testimonials}
  >
    <div className="mt-14 grid gap-5 lg:grid-cols-3">
      {TESTIMONIALS.map((t) => (
        <figure
          key={t.name}
          className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="flex gap-0.5 text-amber-500" role="img" aria-label="5 out of 5 stars">
            {[0, 1, 2, 3, 4].map((i) => (
              <Star key={i} aria-hidden="true" className="size-4 fill-current" />
            ))}
          </div>
          <blockquote className="mt-4 flex-1 text-base leading-7 text-slate-800 dark:text-slate-200">
            <p>“{t.quote}”</p>
          </blockquote>
          <figcaption className="mt-6 flex items-center gap-3">
            <span
              aria-hidden="true"
              className="inline-flex size-10 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-violet-500 text-sm font-semibold text-white"
            >
              {t.initials}
            </span>
            <TitleLine title={t.name} line={`${t.role}, ${t.company}`} />
          </figcaption>
        </figure>
      ))}
    </div>
    <p className="mt-6 text-center text-xs text-slate-600 dark:text-slate-400">
      Customer stories shown are illustrative.
    </p>
  </SiteSection>
);

export const BusinessTypes = () => (
  <SiteSection headingId="segments-title" copy={SECTION_COPY.segments}>
    <InfoCardGrid
      items={BUSINESS_TYPES}
      className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-4"
      icon={(b) => <b.icon aria-hidden="true" className="size-6 text-violet-600 dark:text-violet-400" />}
    />
  </SiteSection>
);

export const SecurityBadges = () => (
  <section aria-labelledby="security-title" className="border-t border-slate-200 py-16 dark:border-slate-800">
    <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
      <h2 id="security-title" className="text-center text-xl font-semibold text-slate-950 dark:text-white">
        Bank-grade security and compliance
      </h2>
      <ul className="mt-8 grid grid-cols-2 gap-4 lg:grid-cols-4">
        {SECURITY_BADGES.map((b) => (
          <li
            key={b.title}
            className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900/60"
          >
            <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-emerald-50 text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-300">
              <b.icon aria-hidden="true" className="size-5" />
            </span>
            <TitleLine title={b.title} line={b.body} lineSize="text-xs" />
          </li>
        ))}
      </ul>
    </div>
  </section>
);

import { CtaLinks, Eyebrow, InfoCardGrid } from '../../components/site/Marketing.tsx';
import { SiteLayout } from '../../components/site/SiteLayout.tsx';

// /about: who Kontor is for and what it promises.

const VALUES = [
  {
    title: 'Right to the cent',
    body: 'Amounts are stored as whole cents and every document posts to a balanced double-entry ledger. If the books do not balance, nothing is saved.',
  },
  {
    title: 'Your data stays yours',
    body: 'Each company’s records are kept apart from every other company’s. Kontor can run on your own server, and you can export everything at any time.',
  },
  {
    title: 'Nothing lost',
    body: 'Posted entries are never edited — corrections are reversing entries — and every change is written to an audit log with who, when and what.',
  },
  {
    title: 'Clear, quick screens',
    body: 'Built for owners and accountants alike: readable numbers, keyboard access, dark mode and pages that load in a blink.',
  },
];

const AboutPage = () => (
  <SiteLayout>
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-24">
      <Eyebrow>About Kontor</Eyebrow>
      <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance text-slate-950 sm:text-5xl dark:text-white">
        Finance software for the people who run the business
      </h1>
      <div className="mt-8 space-y-5 text-lg leading-8 text-slate-700 dark:text-slate-300">
        <p>
          Kontor started with a simple observation: small-business owners spend their evenings copying numbers
          between a bank portal, a spreadsheet and an invoicing tool — and their accountants spend the
          month-end fixing it.
        </p>
        <p>
          We built one platform where invoices, bills, payments and bank transactions all post to the same
          double-entry ledger. The owner sees cash and profit in real time; the accountant gets clean books,
          reconciliations and tax reports without chasing anyone.
        </p>
      </div>
    </section>
    <section aria-labelledby="values-title" className="bg-slate-50 py-16 dark:bg-slate-900/40">
      <div className="mx-auto max-w-5xl px-4 sm:px-6">
        <h2 id="values-title" className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
          What we promise
        </h2>
        <InfoCardGrid
          items={VALUES}
          className="mt-8 grid gap-5 sm:grid-cols-2"
          cardClassName="rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900"
        />
      </div>
    </section>
    <section aria-labelledby="next-title" className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6">
      <h2 id="next-title" className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
        See it with your own numbers
      </h2>
      <p className="mt-3 text-slate-600 dark:text-slate-300">14-day free trial. No credit card required.</p>
      <CtaLinks
        className="mt-6"
        primary={{ to: '/pricing', label: 'View Pricing' }}
        secondary={{ to: '/contact', label: 'Talk to us' }}
      />
    </section>
  </SiteLayout>
);

export default AboutPage;

import type { ReactNode } from 'react';
import { BackToTop } from './BackToTop.tsx';
import { SiteFooter } from './SiteFooter.tsx';
import { SiteHeader } from './SiteHeader.tsx';

/** Header, main landmark and footer shared by every public page. */
export const SiteLayout = ({ children }: { children: ReactNode }) => (
  <div className="flex min-h-screen flex-col bg-white dark:bg-slate-950">
    <a
      href="#main"
      className="sr-only z-50 rounded-lg bg-brand-600 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
    <SiteHeader />
    <main id="main" className="flex-1">
      {children}
    </main>
    <SiteFooter />
    <BackToTop />
  </div>
);

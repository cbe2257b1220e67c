import { Menu, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, type LinkProps, useLocation, useNavigate } from 'react-router';
import { Logo } from '../Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { useScrolledPast } from './useScrolledPast.ts';

// The public site's sticky header (SPEC section 2, Landing page): Home scrolls to the top,
// Features to the features section, Pricing/About/Contact navigate, Login goes to /login and
// Subscribe Now to /pricing. On other public pages Home and Features lead back to the landing.

export const FEATURES_SECTION_ID = 'features';

const prefersReducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

export const scrollToTop = () =>
  window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });

export const scrollToSection = (id: string) => {
  const el = document.getElementById(id);
  if (!el) return false;
  el.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  return true;
};

const navItem =
  'inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium text-slate-700 transition hover:bg-slate-100 hover:text-slate-950 aria-[current=page]:text-brand-700 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-[current=page]:text-brand-300';
const mobileItem =
  'flex min-h-12 w-full items-center rounded-lg px-3 text-left text-base font-medium text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800';

const PAGE_LINKS = [
  { to: '/pricing', label: 'Pricing' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
];

export const SiteHeader = () => {
  const scrolled = useScrolledPast();
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const menuId = useId();

  // Close the mobile menu on navigation and with Escape.
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  // Whether a click is on the landing page is read when it happens, not from the last render:
  // a click right after following a link, while the next page is still rendering, must
  // navigate rather than scroll the page being left.
  const landingNow = () => window.location.pathname === '/';
  const goHome = () => {
    setMenuOpen(false);
    if (landingNow()) scrollToTop();
    else navigate('/');
  };
  const goFeatures = () => {
    setMenuOpen(false);
    if (landingNow()) scrollToSection(FEATURES_SECTION_ID);
    else navigate(`/#${FEATURES_SECTION_ID}`);
  };

  // Home, Features, then the other pages: the desktop bar marks the current page, the mobile
  // menu closes when a link is followed.
  const navItems = (className: string, linkProps: (to: string) => Partial<LinkProps>) => (
    <>
      <button type="button" className={className} onClick={goHome}>
        Home
      </button>
      <button type="button" className={className} onClick={goFeatures}>
        Features
      </button>
      {PAGE_LINKS.map((l) => (
        <Link key={l.to} to={l.to} className={className} {...linkProps(l.to)}>
          {l.label}
        </Link>
      ))}
    </>
  );

  return (
    <header
      data-scrolled={scrolled ? 'true' : 'false'}
      className={`sticky top-0 z-40 border-b transition-[background-color,border-color,box-shadow] duration-300 ${
        scrolled || menuOpen
          ? 'border-slate-200/80 bg-white/90 shadow-sm backdrop-blur-lg dark:border-slate-800/80 dark:bg-slate-950/90'
          : 'border-transparent bg-white/40 backdrop-blur-sm dark:bg-slate-950/30'
      }`}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Logo size="md" onClick={() => (landingNow() ? scrollToTop() : navigate('/'))} />
        <nav aria-label="Main" className="ml-6 hidden items-center gap-1 lg:flex">
          {navItems(navItem, (to) => ({ 'aria-current': pathname === to ? 'page' : undefined }))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <Link
            to="/login"
            className="hidden min-h-11 items-center rounded-lg px-4 text-sm font-semibold text-slate-800 hover:bg-slate-100 sm:inline-flex dark:text-slate-100 dark:hover:bg-slate-800"
          >
            Login
          </Link>
          <Link
            to="/pricing"
            className="hidden min-h-11 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white shadow-sm shadow-brand-600/30 transition hover:bg-brand-700 sm:inline-flex"
          >
            Subscribe Now
          </Link>
          <button
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? (
              <X aria-hidden="true" className="size-6" />
            ) : (
              <Menu aria-hidden="true" className="size-6" />
            )}
          </button>
        </div>
      </div>
      <div
        id={menuId}
        hidden={!menuOpen}
        className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 lg:hidden dark:border-slate-800 dark:bg-slate-950"
      >
        <nav aria-label="Mobile" className="flex flex-col gap-1">
          {navItems(mobileItem, () => ({ onClick: () => setMenuOpen(false) }))}
          <div className="mt-3 grid grid-cols-2 gap-3">
            <Link
              to="/login"
              className="inline-flex min-h-12 items-center justify-center rounded-lg border border-slate-300 font-semibold text-slate-800 dark:border-slate-700 dark:text-slate-100"
            >
              Login
            </Link>
            <Link
              to="/pricing"
              className="inline-flex min-h-12 items-center justify-center rounded-lg bg-brand-600 font-semibold text-white"
            >
              Subscribe Now
            </Link>
          </div>
        </nav>
      </div>
    </header>
  );
};

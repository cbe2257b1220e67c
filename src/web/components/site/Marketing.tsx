import { ArrowRight } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';

// Pieces the public pages (landing, about) share: a section with its eyebrow, heading and
// intro; the pair of call-to-action links; a card of a title and a line or two; a short list
// with an icon before each item.

export const Eyebrow = ({ children }: { children: ReactNode }) => (
  <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">
    {children}
  </p>
);

/** A section's words: the eyebrow over its heading, the heading, the intro under it. */
export type SectionCopy = { eyebrow: string; title: string; intro: string };

export const SectionHeading = ({
  id,
  copy: { eyebrow, title, intro },
}: {
  id: string;
  copy: SectionCopy;
}) => (
  <div className="mx-auto max-w-2xl text-center">
    <Eyebrow>{eyebrow}</Eyebrow>
    <h2
      id={id}
      className="mt-3 text-3xl font-bold tracking-tight text-balance text-slate-950 sm:text-4xl dark:text-white"
    >
      {title}
    </h2>
    <p className="mt-4 text-lg leading-8 text-pretty text-slate-600 dark:text-slate-300">{intro}</p>
  </div>
);

/**
 * A landing section: labelled by its heading, a centred heading block, then its content. One
 * with an `id` is a link target, so it keeps clear of the sticky header when scrolled to.
 */
export const SiteSection = ({
  id,
  headingId,
  copy,
  className,
  children,
}: {
  id?: string;
  headingId: string;
  copy: SectionCopy;
  className?: string;
  children: ReactNode;
}) => (
  <section
    id={id}
    aria-labelledby={headingId}
    className={['py-20 sm:py-28', id ? 'scroll-mt-20' : '', className].filter(Boolean).join(' ')}
  >
    <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
      <SectionHeading id={headingId} copy={copy} />
      {children}
    </div>
  </section>
);

const CTA_TONES = {
  // On the page's own background (hero, about).
  light: {
    primary: 'bg-brand-600 text-white shadow-lg shadow-brand-600/25 hover:bg-brand-700',
    secondary:
      'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-white dark:hover:bg-slate-800',
  },
  // On the dark call-to-action band.
  dark: {
    primary: 'bg-white text-slate-950 hover:bg-slate-100',
    secondary: 'text-white ring-1 ring-white/30 hover:bg-white/10',
  },
} as const;

const CTA_BASE =
  'inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-xl px-6 text-base font-semibold transition sm:w-auto';

/** The primary link (with an arrow) and the secondary one, side by side from small screens up. */
export const CtaLinks = ({
  primary,
  secondary,
  tone = 'light',
  className = '',
}: {
  primary: { to: string; label: string };
  /** `more` completes a short label for screen readers and search engines ("Learn More" about what). */
  secondary: { to: string; label: string; more?: string };
  tone?: keyof typeof CTA_TONES;
  className?: string;
}) => (
  <div className={`flex flex-col items-center justify-center gap-3 sm:flex-row ${className}`}>
    <Link to={primary.to} className={`${CTA_BASE} ${CTA_TONES[tone].primary}`}>
      {primary.label} <ArrowRight aria-hidden="true" className="size-4" />
    </Link>
    <Link to={secondary.to} className={`${CTA_BASE} ${CTA_TONES[tone].secondary}`}>
      {secondary.label}
      {secondary.more ? <span className="sr-only"> {secondary.more}</span> : null}
    </Link>
  </div>
);

/** A card of a title and its text, an icon or more content optional. */
export const InfoCard = ({
  title,
  body,
  icon,
  className = 'rounded-2xl border border-slate-200 p-6 dark:border-slate-800',
  titleClassName = 'font-semibold',
  children,
}: {
  title: string;
  body: string;
  icon?: ReactNode;
  className?: string;
  titleClassName?: string;
  children?: ReactNode;
}) => (
  <article className={className}>
    {icon}
    <h3 className={`${icon ? 'mt-4' : ''} text-slate-950 dark:text-white ${titleClassName}`}>{title}</h3>
    <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-300">{body}</p>
    {children}
  </article>
);

/** Cards in a grid, one per item (a feature, a segment, a value), each its title and text. */
export const InfoCardGrid = <T extends { title: string; body: string }>({
  items,
  className,
  cardClassName,
  titleClassName,
  icon,
  children,
}: {
  items: readonly T[];
  className: string;
  cardClassName?: string;
  titleClassName?: string;
  icon?: (item: T) => ReactNode;
  children?: (item: T) => ReactNode;
}) => (
  <div className={className}>
    {items.map((item) => (
      <InfoCard
        key={item.title}
        title={item.title}
        body={item.body}
        icon={icon?.(item)}
        className={cardClassName}
        titleClassName={titleClassName}
      >
        {children?.(item)}
      </InfoCard>
    ))}
  </div>
);

/** A name in bold over its line (a customer's role, a badge's text). */
export const TitleLine = ({
  title,
  line,
  lineSize = 'text-sm',
}: {
  title: ReactNode;
  line: ReactNode;
  lineSize?: 'text-sm' | 'text-xs';
}) => (
  <span>
    <span className="block text-sm font-semibold text-slate-950 dark:text-white">{title}</span>
    <span className={`block ${lineSize} text-slate-600 dark:text-slate-400`}>{line}</span>
  </span>
);

/** A short list, each item after its icon ("No credit card required", a feature's points). */
export const IconList = ({
  items,
  icon: Icon,
  iconClassName = 'size-4 text-emerald-600 dark:text-emerald-400',
  className,
  itemClassName = 'inline-flex items-center gap-1.5',
}: {
  items: readonly { label: string; icon?: ComponentType<{ className?: string; 'aria-hidden'?: boolean }> }[];
  icon?: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  iconClassName?: string;
  className: string;
  itemClassName?: string;
}) => (
  <ul className={className}>
    {items.map((item) => {
      const ItemIcon = item.icon ?? Icon;
      return (
        <li key={item.label} className={itemClassName}>
          {ItemIcon ? <ItemIcon aria-hidden className={iconClassName} /> : null}
          {item.label}
        </li>
      );
    })}
  </ul>
);

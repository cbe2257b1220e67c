import type { ComponentType, ReactNode } from 'react';

// A part of the Security settings (a card with its icon, title and line), and the green line
// that says an action went through.

export const Section = ({
  title,
  description,
  icon,
  children,
}: {
  title: string;
  description: string;
  icon: ReactNode;
  children: ReactNode;
}) => (
  <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
    <div className="mb-5 flex items-start gap-3">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-brand-500 to-indigo-500 text-white">
        {icon}
      </span>
      <div>
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{description}</p>
      </div>
    </div>
    {children}
  </section>
);

/** One part of a settings tab: a card with its icon, title, line and content. */
export type SectionPart = {
  title: string;
  description: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  Part: ComponentType;
};

/** A settings tab made of parts (Security, Notifications), one Section each. */
export const SectionList = ({ parts, testId }: { parts: readonly SectionPart[]; testId: string }) => (
  <div className="space-y-6" data-testid={testId}>
    {parts.map(({ title, description, icon: Icon, Part }) => (
      <Section
        key={title}
        title={title}
        description={description}
        icon={<Icon className="h-5 w-5" aria-hidden="true" />}
      >
        <Part />
      </Section>
    ))}
  </div>
);

export const Success = ({ message }: { message: string | null }) =>
  message ? (
    <p
      role="status"
      className="mb-4 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-300"
    >
      {message}
    </p>
  ) : null;

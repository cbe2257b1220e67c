import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

// The tab strip of a page with sections (Accounting, Invoices, Settings): Radix tabs (arrow
// keys move between tabs, the panel is labelled by its tab), underlined when active,
// scrolling sideways on narrow screens. `PageTabs` is the whole thing from a list of tabs and
// their panels; `TabList` the strip alone, inside <Tabs.Root> from Radix.

export const TabList = ({
  label,
  tabs,
}: {
  label: string;
  tabs: readonly { id: string; label: string }[];
}) => (
  <RadixTabs.List
    aria-label={label}
    className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
  >
    {tabs.map((t) => (
      <RadixTabs.Trigger
        key={t.id}
        value={t.id}
        className="-mb-px min-h-11 shrink-0 border-b-2 border-transparent px-4 text-sm font-medium whitespace-nowrap text-slate-600 hover:text-slate-900 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 dark:text-slate-400 dark:hover:text-white dark:data-[state=active]:border-brand-400 dark:data-[state=active]:text-brand-300"
      >
        {t.label}
      </RadixTabs.Trigger>
    ))}
  </RadixTabs.List>
);

export type PageTab = { id: string; label: string; panel: ReactNode };

/** The tab named in the query string (`?tab=`), or `fallback` when it names none of `tabs`. */
export const tabFrom = (tabs: readonly { id: string }[], requested: string | null, fallback: string) =>
  tabs.some((t) => t.id === requested) ? (requested as string) : fallback;

/** A page's sections as tabs: the strip (`label` names it), then each tab's panel. */
export const PageTabs = ({
  label,
  tabs,
  value,
  onValueChange,
  className,
  panelClassName = 'pt-6 focus:outline-none',
}: {
  label: string;
  tabs: readonly PageTab[];
  value: string;
  onValueChange: (value: string) => void;
  className?: string;
  panelClassName?: string;
}) => (
  <RadixTabs.Root value={value} onValueChange={onValueChange} className={className}>
    <TabList label={label} tabs={tabs} />
    {tabs.map((t) => (
      <RadixTabs.Content key={t.id} value={t.id} className={panelClassName}>
        {t.panel}
      </RadixTabs.Content>
    ))}
  </RadixTabs.Root>
);

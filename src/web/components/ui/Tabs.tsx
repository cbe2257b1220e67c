import * as RadixTabs from '@radix-ui/react-tabs';

// The tab strip of a page with sections (Accounting, Settings): Radix tabs (arrow keys move
// between tabs, the panel is labelled by its tab), underlined when active, scrolling sideways
// on narrow screens. Pages keep <Tabs.Root> and <Tabs.Content> from Radix around it.

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

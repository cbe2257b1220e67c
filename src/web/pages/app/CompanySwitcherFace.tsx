import { Building2, ChevronsUpDown } from 'lucide-react';

// What the company switcher's button looks like and says, the same before and after its menu
// has loaded (CompanySwitcher.tsx, CompanySwitcherMenu.tsx).

export const SWITCHER_TRIGGER_CLASS =
  'inline-flex min-h-11 max-w-64 min-w-0 items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800';

export const switcherLabel = (name: string) => `Company: ${name}. Switch company`;

export const SwitcherFace = ({ name }: { name: string }) => (
  <>
    <Building2 className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
    <span className="truncate">{name}</span>
    <ChevronsUpDown className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
  </>
);

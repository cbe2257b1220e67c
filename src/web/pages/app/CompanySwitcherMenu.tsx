import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { useCompanies } from '../../lib/company.tsx';
import { CreateCompanyForm } from '../onboarding/CreateCompany.tsx';
import { SWITCHER_TRIGGER_CLASS, SwitcherFace, switcherLabel } from './CompanySwitcherFace.tsx';

// The header's company switcher menu: the companies the person belongs to, and creating
// another. Loaded when the switcher is first pointed at, focused or used (CompanySwitcher.tsx),
// so the menu, dialog and company form stay out of the signed-in pages' first load.

export default function CompanySwitcherMenu({
  openAtOnce,
  byKeyboard,
}: {
  openAtOnce: boolean;
  byKeyboard: boolean;
}) {
  const { companies, current, switchTo, refresh } = useCompanies();
  const [creating, setCreating] = useState(false);
  // Opened by Enter/Space before this menu had loaded: Radix did not see the key and focuses
  // the menu itself, so the first item takes the focus then, as for a keyboard opening.
  const firstFocus = useRef(byKeyboard);
  if (!current) return null;
  return (
    <>
      <DropdownMenu.Root defaultOpen={openAtOnce}>
        <DropdownMenu.Trigger className={SWITCHER_TRIGGER_CLASS} aria-label={switcherLabel(current.name)}>
          <SwitcherFace name={current.name} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="start"
            sideOffset={6}
            onFocus={(event) => {
              if (!firstFocus.current || event.target !== event.currentTarget) return;
              firstFocus.current = false;
              event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
            }}
            className="z-50 min-w-64 rounded-xl border border-slate-200 bg-white p-1 shadow-xl dark:border-slate-700 dark:bg-slate-900"
          >
            <DropdownMenu.Label className="px-3 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              Your companies
            </DropdownMenu.Label>
            {companies.map((c) => (
              <DropdownMenu.Item
                key={c.id}
                onSelect={() => switchTo(c.id)}
                className="flex min-h-11 cursor-pointer items-center justify-between gap-3 rounded-lg px-3 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 dark:text-slate-100 dark:data-[highlighted]:bg-slate-800"
              >
                <span className="truncate">{c.name}</span>
                <span className="flex items-center gap-2 text-xs text-slate-500">
                  {c.baseCurrency}
                  {c.id === current.id ? (
                    <Check className="h-4 w-4 text-brand-600" aria-label="current" />
                  ) : null}
                </span>
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
            <DropdownMenu.Item
              onSelect={() => setCreating(true)}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm font-medium text-brand-700 outline-none data-[highlighted]:bg-brand-50 dark:text-brand-300 dark:data-[highlighted]:bg-slate-800"
            >
              <Plus className="h-4 w-4" aria-hidden="true" /> New company
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <Dialog
        open={creating}
        onOpenChange={setCreating}
        title="New company"
        description="Each company keeps its own books."
      >
        <CreateCompanyForm
          onCreated={async (company) => {
            await refresh();
            switchTo(company.id);
            setCreating(false);
          }}
        />
      </Dialog>
    </>
  );
}

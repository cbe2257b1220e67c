import { type ComponentType, useState } from 'react';
import { useCompanies } from '../../lib/company.tsx';
import { SWITCHER_TRIGGER_CLASS, SwitcherFace, switcherLabel } from './CompanySwitcherFace.tsx';

// The header's company switcher. Its face is drawn at once; the menu (Radix's dropdown, the
// "New company" dialog and form: CompanySwitcherMenu.tsx) loads when the button is first
// pointed at or focused, and a click before it has arrived opens the menu as soon as it does.

type Menu = ComponentType<{ openAtOnce: boolean; byKeyboard: boolean }>;
let loading: Promise<Menu> | null = null;
const loadMenu = () => {
  loading ??= import('./CompanySwitcherMenu.tsx').then((m) => m.default);
  return loading;
};

export const CompanySwitcher = () => {
  const { current } = useCompanies();
  const [menu, setMenu] = useState<{ Menu: Menu; byKeyboard: boolean } | null>(null);
  if (!current) return null;
  if (menu) return <menu.Menu openAtOnce byKeyboard={menu.byKeyboard} />;
  const open = (byKeyboard: boolean) => {
    loadMenu().then(
      (Menu) => setMenu((was) => was ?? { Menu, byKeyboard }),
      () => {
        loading = null; // a failed chunk load is tried again on the next use
      },
    );
  };
  return (
    <button
      type="button"
      className={SWITCHER_TRIGGER_CLASS}
      aria-label={switcherLabel(current.name)}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadMenu().catch(() => {})}
      onFocus={() => void loadMenu().catch(() => {})}
      // A click from Enter or Space has no pointer position (detail 0): the menu then opens
      // with the focus on its first item, as Radix's own trigger does for the keyboard.
      onClick={(event) => open(event.detail === 0)}
    >
      <SwitcherFace name={current.name} />
    </button>
  );
};

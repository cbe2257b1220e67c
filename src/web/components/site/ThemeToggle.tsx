import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../../lib/theme.tsx';
import { useHydrated } from '../../lib/useHydrated.ts';
import { nextTheme, themeToggleLabel } from './themeToggle.ts';

// The icon follows the `dark` class on <html> (set before the first paint by theme-init.js),
// so prerendered HTML shows the right one at once; the name follows the theme state once the
// page is hydrated (the server cannot know the device's theme and names the light one).
export const ThemeToggle = ({ className = '' }: { className?: string }) => {
  const { resolved, setMode } = useTheme();
  const showing = useHydrated() ? resolved : 'light';
  return (
    <button
      type="button"
      onClick={() => setMode(nextTheme(resolved))}
      aria-label={themeToggleLabel(showing)}
      title={themeToggleLabel(showing)}
      data-theme-showing={showing}
      className={`inline-flex size-11 items-center justify-center rounded-lg text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white ${className}`}
    >
      <Sun aria-hidden="true" className="hidden size-5 dark:block" />
      <Moon aria-hidden="true" className="size-5 dark:hidden" />
    </button>
  );
};

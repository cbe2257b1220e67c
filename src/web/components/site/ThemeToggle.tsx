import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../../lib/theme.tsx';
import { nextTheme, themeToggleLabel } from './themeToggle.ts';

export const ThemeToggle = ({ className = '' }: { className?: string }) => {
  const { resolved, setMode } = useTheme();
  return (
    <button
      type="button"
      onClick={() => setMode(nextTheme(resolved))}
      aria-label={themeToggleLabel(resolved)}
      title={themeToggleLabel(resolved)}
      data-theme-showing={resolved}
      className={`inline-flex size-11 items-center justify-center rounded-lg text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white ${className}`}
    >
      {resolved === 'dark' ? (
        <Sun aria-hidden="true" className="size-5" />
      ) : (
        <Moon aria-hidden="true" className="size-5" />
      )}
    </button>
  );
};

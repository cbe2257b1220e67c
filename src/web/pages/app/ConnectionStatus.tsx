import { useQuery } from '@tanstack/react-query';
import { checkHealth } from '../../../shared/config/health.ts';
import { appConfig } from '../../lib/config.ts';
import { keys } from '../../lib/queryKeys.ts';

// Tells the user plainly when the server or its database cannot be reached, instead of
// leaving every page to fail on its own. Checks once a minute.

export const ConnectionStatus = () => {
  const health = useQuery({
    queryKey: keys.health,
    queryFn: () => checkHealth(appConfig()),
    refetchInterval: 60_000,
    retry: false,
  });
  if (!health.data || health.data.healthy) return null;
  return (
    <div
      role="alert"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
    >
      Kontor cannot reach its server right now, so changes may not be saved. Check your connection; this
      message goes away when the server answers again.
    </div>
  );
};

import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { keys } from '../../lib/queryKeys.ts';

// Whether the signed-in user is a platform admin (GET /api/admin/me): the app shell shows the
// Admin item only to them, and the admin page tells anyone else it is for admins only. The
// server refuses every other admin route to non-admins (403); this only decides what is shown.

export const useIsAdmin = () => {
  const me = useQuery({
    queryKey: keys.admin('me'),
    queryFn: () => api.get<{ isAdmin: boolean }>('/admin/me'),
    staleTime: 5 * 60_000,
    retry: false,
  });
  return {
    isAdmin: me.data?.isAdmin === true,
    isLoading: me.isLoading,
    error: me.error,
    refetch: me.refetch,
  };
};

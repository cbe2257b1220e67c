import { dashboardQuerySchema, dashboardSchema } from '../../../shared/dashboard.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { getDashboard } from './service.ts';

// The dashboard's one route (docs/dashboard.md): every figure of the page in one round trip.

export const dashboardRoutes = companyRoutePlugin(['dashboard'], (route) => {
  route.get(
    '/dashboard',
    {
      summary:
        'The dashboard: monthly income, expenses, net and cash (12 or 24 months, or from/to), key figures, a 13-week cash forecast, insights and the latest entries',
      permission: 'read',
      query: dashboardQuerySchema,
      response: dashboardSchema,
    },
    getDashboard,
  );
});

import { companyRoutePlugin } from '../../http/routes.ts';

// Payables routes: recurring (filled in by issue 15's recurring work).

export const payablesRecurringRoutes = companyRoutePlugin(['payables'], (_route) => {});

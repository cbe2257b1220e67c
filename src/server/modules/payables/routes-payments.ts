import { companyRoutePlugin } from '../../http/routes.ts';

// Payables routes: payments (filled in by issue 15's payments work).

export const payablesPaymentsRoutes = companyRoutePlugin(['payables'], (_route) => {});

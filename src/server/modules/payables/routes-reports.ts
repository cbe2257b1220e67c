import { companyRoutePlugin } from '../../http/routes.ts';

// Payables routes: reports (filled in by issue 15's reports work).

export const payablesReportsRoutes = companyRoutePlugin(['payables'], (_route) => {});

import { companyRoutePlugin } from '../../http/routes.ts';

// Payables routes: bills (filled in by issue 15's bills work).

export const payablesBillsRoutes = companyRoutePlugin(['payables'], (_route) => {});

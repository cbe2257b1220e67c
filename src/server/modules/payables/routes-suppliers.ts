import { companyRoutePlugin } from '../../http/routes.ts';

// Payables routes: suppliers (filled in by issue 15's suppliers work).

export const payablesSuppliersRoutes = companyRoutePlugin(['payables'], (_route) => {});

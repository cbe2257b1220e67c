import { companyRoutePlugin } from '../../http/routes.ts';

// Payables routes: credits (filled in by issue 15's credits work).

export const payablesCreditsRoutes = companyRoutePlugin(['payables'], (_route) => {});

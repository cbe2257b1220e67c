import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { COMPANY_ROUTE_PREFIX } from '../../http/tenancy.ts';
import { payerAccountOf, refuseIfReadOnly } from './limits.ts';

// The read-only account (issue 16 §2; docs/billing-limits.md). When a trial ends without a
// subscription (or a subscription ends or goes unpaid), the account's data is kept but nothing
// may change: every state-changing request (POST, PUT, PATCH, DELETE) to a company whose payer
// (companyPayer: its earliest owner) is read-only answers 402 `account_read_only` with the
// reason from billingStateOf. Creating a company (POST /api/orgs, no company yet) is refused
// by the companies limit check in its service, which refuses a read-only account first
// (limits.ts assertWithinLimit), as are accepting an invitation and the recurring invoice
// runner's work (not requests under /api/orgs). Members of that company are read-only there too: the payer's plan is the
// company's plan. Reads and exports (GET) are never blocked, nor is anything outside
// /api/orgs (billing, sign-in, promo codes, admin, profile, invitations to me), so the way
// back — choosing a plan in Billing or redeeming a code — always works.
//
// It runs as a preValidation hook right after the membership check, so an outsider still gets
// 404 and a bad body from a read-only account gets the 402 (nothing would be written anyway).
// One indexed query per change: the payer (organization_members' key) joined to its billing
// account (billing_accounts' key). No billing row yet means an account from before billing,
// which gets a fresh trial on first need: full access.

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Company routes that are POSTs but change nothing, so a read-only account may use them:
 * - statement-imports/sniff and /preview parse an upload and show what an import would do,
 *   writing nothing (the import itself is blocked);
 * - leave: a member may always leave a company (it changes their own membership, not the
 *   company's books), e.g. a read-only owner's colleague who moves elsewhere.
 */
export const READ_POSTS = new Set([
  `${COMPANY_ROUTE_PREFIX}/statement-imports/sniff`,
  `${COMPANY_ROUTE_PREFIX}/statement-imports/preview`,
  `${COMPANY_ROUTE_PREFIX}/leave`,
]);

/** POSTs that are reads when asked as a dry run (checked and reported, nothing saved). */
const DRY_RUN_POSTS = new Set([`${COMPANY_ROUTE_PREFIX}/suppliers/import`]);

const isDryRun = (request: FastifyRequest) =>
  typeof request.body === 'object' &&
  request.body !== null &&
  (request.body as { dryRun?: unknown }).dryRun === true;

/** Registers the guard; call it right after registerCompanyMembershipCheck. */
export const registerReadOnlyGuard = (app: FastifyInstance, ctx: AppContext) => {
  app.addHook('preValidation', async (request) => {
    if (!CHANGING.has(request.method)) return;
    const url = request.routeOptions.url;
    if (!url?.startsWith(`${COMPANY_ROUTE_PREFIX}/`) && url !== COMPANY_ROUTE_PREFIX) return;
    if (READ_POSTS.has(url)) return;
    if (DRY_RUN_POSTS.has(url) && isDryRun(request)) return;
    // The membership check ran first: without a member there is nothing to guard here.
    const organizationId = request.member?.organizationId;
    if (!organizationId) return;
    refuseIfReadOnly(await payerAccountOf(ctx.database.db, organizationId), ctx.now());
  });
};

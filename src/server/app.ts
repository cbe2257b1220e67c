import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { type ZodTypeProvider, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { registerErrorHandling } from './http/errors.ts';
import { MAX_PARAM_LENGTH, clientErrorHandler, frameworkErrors, registerTextGuard } from './http/input.ts';
import { registerApiRateLimit } from './http/rate-limit.ts';
import { registerRequestSecurity } from './http/request-security.ts';
import { registerReadReplica } from './http/read-replica.ts';
import { registerWebApp } from './http/web-app.ts';
import { authRoutes } from './auth/routes.ts';
import { registerCompanyMembershipCheck } from './http/tenancy.ts';
import { READ_POSTS, registerReadOnlyGuard } from './modules/billing/read-only.ts';
import { openApiOptions } from './http/openapi.ts';
import { authOpenApi } from './auth/openapi.ts';
import { companyRoutes } from './modules/companies/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { invoiceRoutes } from './modules/invoices/routes.ts';
import { payablesRoutes } from './modules/payables/routes.ts';
import { matchingRoutes } from './modules/matching/routes.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { billingRoutes } from './modules/billing/routes.ts';
import { startSignUpTrial } from './modules/billing/service.ts';
import { onSignIn } from './auth/signin-hooks.ts';
import { onSignUp } from './auth/signup-hooks.ts';
import { ledgerRoutes } from './modules/ledger/routes.ts';
import { mailRoutes } from './modules/mail/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { recordSignIn } from './modules/notifications/sign-ins.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { profilePhotoRoutes } from './modules/attachments/routes-profile-photo.ts';
import { promoRoutes } from './modules/promo/routes.ts';
import { statementImportRoutes } from './modules/statement-import/routes.ts';
import { transactionRoutes } from './modules/transactions/routes.ts';
import { transferRoutes } from './modules/transfers/routes.ts';
import { walletRoutes } from './modules/wallet/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { bankFeedRoutes } from './modules/bank-feeds/routes.ts';
import { plaidWebhookRoutes } from './modules/bank-feeds/plaid-webhook-route.ts';
import { registerApiKeyAuthentication } from './modules/api-keys/authenticate.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerRequestIds, requestIdOf } from './http/request-ids.ts';

// Builds the whole HTTP app without listening: main.ts listens, tests use app.inject.

export const DEFAULT_WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

export type BuildAppOptions = {
  logger?: FastifyServerOptions['logger'];
  /** The built React app; not served when the folder does not exist (API-only tests). */
  webDir?: string;
};

export const buildApp = async (ctx: AppContext, options: BuildAppOptions = {}) => {
  const app = Fastify({
    logger: options.logger ?? false,
    // Only behind a proxy may X-Forwarded-For name the client: otherwise anyone could pick
    // their own address and step around the per-address rate limits. Even then only the one
    // hop our proxy appended counts: entries further left are whatever the client sent.
    trustProxy: ctx.config.trustProxy ? (_address: string, hop: number) => hop < 1 : false,
    bodyLimit: 5 * 1024 * 1024,
    forceCloseConnections: 'idle',
    // A random id per request, or a trusted proxy's (docs/operations.md, "Request ids").
    genReqId: requestIdOf(ctx.config.trustProxy),
    // Malformed percent-encoding and over-long path parameters answer in the API's error shape.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // x-request-id on every answer and error.requestId in every API error body.
  registerRequestIds(app);
  // GET /metrics (Prometheus) and request latency by route (docs/operations.md).
  registerMetrics(app, ctx, { token: ctx.config.metricsToken, pool: ctx.database.pool ?? null });
  // NUL characters and lone surrogates in any field: 400 naming it (decision 0014).
  registerTextGuard(app);
  // Cross-site refusal and Cache-Control: no-store for every /api route (docs/security.md).
  registerRequestSecurity(app, ctx);
  // With DATABASE_REPLICA_URL: a write's answer carries its WAL position (kontor_lsn), so the
  // writer's next reads wait for the replica to have it (read-your-writes, decision 0047).
  registerReadReplica(app, ctx);
  // Every route, as registered: the tenant-isolation test walks this list.
  const registeredRoutes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      registeredRoutes.push({ method: String(method), url: route.url });
  });
  app.decorate('registeredRoutes', registeredRoutes);
  // `Authorization: Bearer kontor_…`: the API key, looked up before the rate limit (decision 0038).
  registerApiKeyAuthentication(app, ctx);
  registerCompanyMembershipCheck(app, ctx);
  // What sign-up does beyond the account and profile: billing's trial on the chosen plan.
  onSignUp(startSignUpTrial);
  // What a sign-in does beyond the session: the sign-in history and its new-device alert.
  onSignIn(recordSignIn);
  // A read-only billing account's companies refuse every change with 402 (docs/billing-limits.md).
  registerReadOnlyGuard(app, ctx);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Plaid Link (the Wallet's bank connections, docs/bank-feeds.md) loads its script and frame
        // from Plaid's CDN and calls Plaid, only on a server with Plaid keys.
        scriptSrc: ["'self'", ...(ctx.config.plaid ? ['https://cdn.plaid.com'] : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(ctx.config.plaid ? ['https://*.plaid.com'] : [])],
        frameSrc: ["'self'", 'blob:', ...(ctx.config.plaid ? ['https://cdn.plaid.com'] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: ctx.config.app.SECURE_COOKIES,
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  // Per signed-in session, or per address when anonymous; 429 with Retry-After. Counted in
  // PostgreSQL or Redis, so every server process shares the counts (decision 0044).
  await registerApiRateLimit(app, ctx);

  // The OpenAPI document: every route's schemas and every status it can answer (docs/api.md).
  await app.register(
    swagger,
    openApiOptions(ctx, { readOnlyExempt: READ_POSTS, ...(await authOpenApi(ctx)) }),
  );
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(healthRoutes(ctx));
      await api.register(authRoutes(ctx));
      await api.register(companyRoutes(ctx));
      await api.register(contactRoutes(ctx));
      await api.register(profileRoutes(ctx));
      await api.register(profilePhotoRoutes(ctx));
      await api.register(promoRoutes(ctx));
      await api.register(billingRoutes(ctx));
      await api.register(walletRoutes(ctx));
      await api.register(dashboardRoutes(ctx));
      await api.register(transferRoutes(ctx));
      await api.register(transactionRoutes(ctx));
      await api.register(matchingRoutes(ctx));
      await api.register(statementImportRoutes(ctx));
      await api.register(bankFeedRoutes(ctx));
      await api.register(plaidWebhookRoutes(ctx));
      await api.register(mailRoutes(ctx));
      await api.register(ledgerRoutes(ctx));
      await api.register(auditRoutes(ctx));
      await api.register(invoiceRoutes(ctx));
      await api.register(payablesRoutes(ctx));
      await api.register(adminRoutes(ctx));
      await api.register(notificationRoutes(ctx));
      await api.register(apiKeyRoutes(ctx));
      await api.register(webhookRoutes(ctx));
    },
    { prefix: '/api' },
  );

  // Everything outside /api: the built app, its pages (prerendered where the build made them),
  // robots.txt, sitemap.xml and the not-found answers (src/server/http/web-app.ts).
  await registerWebApp(app, ctx, { webDir: options.webDir ?? DEFAULT_WEB_DIR });

  return app;
};

export type App = Awaited<ReturnType<typeof buildApp>>;

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: { method: string; url: string }[];
  }
}

import { ConfigError } from '../shared/config/config.ts';
import { type ServerConfig, loadServerConfig } from './config.ts';
import { buildApp } from './app.ts';
import { isLocalEnvironment, isLoopbackHostname } from './http/origins.ts';
import { openConfiguredDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { rateLimitSweepJob } from './db/rate-counter.ts';
import { recurringInvoicesJob } from './modules/invoices/recurring.ts';
import { createJobQueue, scheduleJob } from './modules/jobs/queue.ts';
import { MAIL_JOB, type QueuedMail, deliverQueuedMail } from './modules/mail/service.ts';
import { recurringBillsJob } from './modules/payables/recurring-runner.ts';
import { overdueInvoicesJob } from './modules/notifications/overdue.ts';
import { attachmentObjectSweepJob } from './modules/attachments/sweep.ts';
import { bankFeedsKeyProblem, tokenCipherOf } from './modules/bank-feeds/token-cipher.ts';
import { registerBankFeedJobs } from './modules/bank-feeds/worker.ts';
import { registerWebhookWorker } from './modules/webhooks/deliver.ts';
import { type TracingHandle, startTracing } from './tracing.ts';

// Entry point: read config, open the database, migrate, listen; shut down cleanly.

const fail = (message: string): never => {
  process.stderr.write(`kontor: ${message}\n`);
  process.exit(1);
};

const main = async () => {
  let config: ServerConfig;
  try {
    config = loadServerConfig();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error));
  }
  const bankFeedsProblem = bankFeedsKeyProblem(config);
  if (bankFeedsProblem) return fail(`Invalid configuration: ${bankFeedsProblem}`);
  // OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md "Tracing"); else
  // nothing of it is loaded.
  let tracing: TracingHandle | null;
  try {
    tracing = await startTracing({
      version: config.version,
      databaseKind: config.databaseUrl ? 'postgres' : 'pglite',
    });
  } catch (error) {
    return fail(`Invalid configuration: ${error instanceof Error ? error.message : String(error)}`);
  }
  let database: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    database = await openConfiguredDatabase(config);
    await migrateToLatest(database.db);
  } catch (error) {
    const where = config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR (${config.dataDir})`;
    return fail(
      `could not open the database at ${where}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const logger =
    config.logLevel === 'silent'
      ? false
      : process.stdout.isTTY
        ? {
            level: config.logLevel,
            transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } },
          }
        : { level: config.logLevel };
  const ctx = { config, database, now: () => new Date() };
  const app = await buildApp(ctx, { logger, webDir: process.env.WEB_DIR || undefined });
  tracing?.logTo((message) => app.log.warn(`tracing: ${message}`));
  // Background work runs on the job queue in the database (docs/jobs.md): recurring invoices
  // and bills every minute, the overdue check every hour (each once per interval, one run at a
  // time, across every server process on the database), and SMTP deliveries queued by requests.
  const jobs = createJobQueue({ db: database.db, now: ctx.now, log: app.log });
  scheduleJob(jobs, ctx, recurringInvoicesJob, app.log);
  scheduleJob(jobs, ctx, recurringBillsJob, app.log);
  scheduleJob(jobs, ctx, overdueInvoicesJob, app.log);
  // Ended rate-limit windows out of rate_limit_hits every 5 minutes (decision 0044).
  scheduleJob(jobs, ctx, rateLimitSweepJob, app.log);
  // Objects of deleted attachments (S3_*), every ten minutes and after a company's erasure.
  scheduleJob(jobs, ctx, attachmentObjectSweepJob, app.log);
  jobs.work<QueuedMail>(MAIL_JOB, (job) => deliverQueuedMail(ctx, job.data));
  // Bank feeds: a sync per connection when asked, and every active connection every 4 hours.
  registerBankFeedJobs(jobs, ctx, app.log);
  // The token key is read (or, in development, generated into DATA_DIR) before any request.
  tokenCipherOf(config, (message) => app.log.warn(message));
  // Webhook deliveries have their own queue object (more at once, mostly waiting on receivers),
  // so a burst of them never holds up mail or the schedules (docs/webhooks.md).
  const webhookJobs = createJobQueue({ db: database.db, now: ctx.now, log: app.log, concurrency: 8 });
  registerWebhookWorker(webhookJobs, ctx);
  app.addHook('onClose', async () => {
    await webhookJobs.stop();
    await jobs.stop();
    await database.close();
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await app.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
    await jobs.start();
    await webhookJobs.start();
  } catch (error) {
    await database.close();
    return fail(
      `could not listen on port ${config.port}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const dbLabel = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  app.log.info(
    `Kontor ${config.version} (${config.app.ENVIRONMENT}) on ${config.publicUrl} using ${dbLabel}`,
  );
  // PLAID_ENV=development: Plaid retired that environment, so the server calls Sandbox.
  if (config.plaid?.warning) app.log.warn(config.plaid.warning);
  if (!isLoopbackHostname(config.host) && isLocalEnvironment(config.app.ENVIRONMENT)) {
    app.log.warn(
      `HOST=${config.host}: this ${config.app.ENVIRONMENT} server is reachable from your network (development tools still answer only on this machine). Beyond your own desk, run APP_ENV=production behind HTTPS.`,
    );
  }
};

await main();

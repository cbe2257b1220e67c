import { loadServerConfig } from '../src/server/config.ts';
import { openConfiguredDatabase } from '../src/server/db/client.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { moveAttachmentsToObjectStore } from '../src/server/modules/attachments/move.ts';
import { objectStoreOf } from '../src/server/modules/attachments/object-store.ts';
import { legacyAttachmentsDir } from '../src/server/modules/attachments/store.ts';
import { ConfigError } from '../src/shared/config/config.ts';

// node --import tsx scripts/attachments-to-s3.ts — moves the attachments kept in the database
// (and the oldest journal attachments on disk) into the S3 bucket S3_* names, with the same
// settings as the server (DATABASE_URL or DATA_DIR, S3_*). Safe while the server runs and safe
// to run again. docs/operations.md, "Attachments in S3"; decision 0043.

const fail = (message: string): never => {
  console.error(`kontor attachments-to-s3: ${message}`);
  process.exit(1);
};

try {
  const config = loadServerConfig();
  const objects = objectStoreOf(config);
  if (!objects) fail('S3_BUCKET is not set: set the S3_* settings the server uses, then run this again.');
  const database = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(database.db);
    const results = await moveAttachmentsToObjectStore(database.db, objects!, {
      legacyDir: legacyAttachmentsDir(config.dataDir),
      now: () => new Date(),
      log: (line) => console.log(line),
    });
    const missing = Object.values(results).reduce((n, r) => n + r.missing, 0);
    console.log(
      missing > 0
        ? `Done; ${missing} attachment${missing === 1 ? '' : 's'} whose file was already missing stayed as they were.`
        : 'Done: every attachment is in the bucket.',
    );
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  fail(
    `could not finish (${error instanceof Error ? error.message : String(error)}); run it again to go on.`,
  );
}

import { ConfigError } from '../src/shared/config/config.ts';
import { loadServerConfig } from '../src/server/config.ts';
import { openConfiguredDatabase } from '../src/server/db/client.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';

// npm run db:migrate: applies pending migrations to the configured database.
try {
  const config = loadServerConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(
    `kontor: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

// Migrations are TypeScript files in ./migrations, applied in file-name order at start-up
// and by `npm run db:migrate`. Each module adds its own files, named
// YYYYMMDD_NNNN_<what>.ts, so no shared index needs editing.

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

class DirectoryMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(MIGRATIONS_DIR)).filter(
      (f) => /\.(ts|js)$/.test(f) && !f.includes('.test.'),
    );
    const migrations: Record<string, Migration> = {};
    for (const file of files.sort()) {
      const mod = (await import(path.join(MIGRATIONS_DIR, file))) as Migration;
      migrations[file.replace(/\.(ts|js)$/, '')] = mod;
    }
    return migrations;
  }
}

/**
 * `schema` names the schema the migration bookkeeping lives in; tests on PostgreSQL give each
 * file its own schema, and Kysely would otherwise find another schema's lock table.
 */
export const migrateToLatest = async (db: Kysely<any>, options: { schema?: string } = {}) => {
  // Always name the schema: Kysely otherwise looks for its tables in every schema of the
  // database and can mistake another schema's for ours.
  const schema =
    options.schema ??
    (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name ??
    'public';
  const migrator = new Migrator({
    db,
    provider: new DirectoryMigrationProvider(),
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (results ?? []).map((r) => r.migrationName);
};

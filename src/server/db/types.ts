import type { ColumnType, Generated } from 'kysely';

// Table types. Each module adds its tables here next to its migration.

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type AuditLogTable = {
  organization_id: string;
  id: Generated<string>;
  actor_user_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  before: unknown | null;
  after: unknown | null;
  created_at: Generated<Timestamp>;
};

export type Database = {
  audit_log: AuditLogTable;
};

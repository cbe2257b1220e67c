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

export type Role = 'owner' | 'admin' | 'accountant' | 'member' | 'viewer';

export type OrganizationsTable = {
  id: string;
  name: string;
  base_currency: string;
  fiscal_year_start_month: ColumnType<number, number | undefined, number>;
  country: string | null;
  time_zone: ColumnType<string, string | undefined, string>;
  created_by: string;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
};

export type OrganizationMembersTable = {
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: Generated<Timestamp>;
};

export type OrganizationInvitationsTable = {
  organization_id: string;
  id: string;
  email: string;
  role: Exclude<Role, 'owner'>;
  status: ColumnType<'pending' | 'accepted' | 'declined' | 'revoked', string | undefined, string>;
  invited_by: string;
  expires_at: Timestamp;
  created_at: Generated<Timestamp>;
  responded_at: Timestamp | null;
};

export type ContactMessagesTable = {
  id: Generated<string>;
  name: string;
  email: string;
  company: string;
  message: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Generated<Timestamp>;
};

export type ContactMessagesTable = {
  id: Generated<string>;
  name: string;
  email: string;
  company: string;
  message: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Generated<Timestamp>;
};

export type Database = {
  contact_messages: ContactMessagesTable;
  contact_messages: ContactMessagesTable;
  audit_log: AuditLogTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  organization_invitations: OrganizationInvitationsTable;
};

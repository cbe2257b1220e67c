import { type Kysely, sql } from 'kysely';
import { keyColumns, createdColumns } from '../migrations-helpers.ts';

// Companies (organizations, the tenant), their members with roles, and invitations.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table organizations (
      id text primary key,
      name text not null,
      base_currency char(3) not null,
      fiscal_year_start_month smallint not null default 1 check (fiscal_year_start_month between 1 and 12),
      country char(2),
      time_zone text not null default 'UTC',
      created_by text not null,
      ${createdColumns({ updated: true })}
    )`.execute(db);
  await sql`
    create table organization_members (
      organization_id text not null references organizations (id) on delete cascade,
      user_id text not null,
      role text not null check (role in ('owner', 'admin', 'accountant', 'member', 'viewer')),
      created_at timestamptz not null default now(),
      primary key (organization_id, user_id)
    )`.execute(db);
  await sql`create index organization_members_user on organization_members (user_id)`.execute(db);
  await sql`
    create table organization_invitations (
      ${keyColumns(true)},
      email text not null,
      role text not null check (role in ('admin', 'accountant', 'member', 'viewer')),
      status text not null default 'pending' check (status in ('pending', 'accepted', 'declined', 'revoked')),
      invited_by text not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      responded_at timestamptz,
      primary key (organization_id, id)
    )`.execute(db);
  await sql`create unique index organization_invitations_id on organization_invitations (id)`.execute(db);
  await sql`create index organization_invitations_email on organization_invitations (lower(email)) where status = 'pending'`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table organization_invitations`.execute(db);
  await sql`drop table organization_members`.execute(db);
  await sql`drop table organizations`.execute(db);
};

import { type Kysely, sql } from 'kysely';

// A user's profile photo (issue 17, Settings > Profile): one row per user, the file's columns
// as the attachment tables have them (name, sniffed type, size, sha256, bytes). Not company
// data: a photo belongs to one user across companies, so it has no organization_id, and only
// its owner reads or writes it (src/server/modules/profile/photo.ts).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table user_photos (
      user_id text primary key references "user" ("id") on delete cascade,
      file_name text not null,
      content_type text not null,
      size_bytes integer not null check (size_bytes > 0),
      sha256 text not null,
      data bytea not null,
      created_at timestamptz not null default now()
    )`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table user_photos`.execute(db);
};

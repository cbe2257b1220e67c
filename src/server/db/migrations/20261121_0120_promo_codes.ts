import { type Kysely, sql } from 'kysely';

// Promo codes (SPEC section 7). Codes are stored upper-case; each user redeems a code at
// most once (primary key), and redemption_count never passes max_redemptions (check).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table promo_codes (
      code text primary key check (code = upper(code) and length(code) >= 6),
      plan_access text not null check (plan_access in ('personal', 'business', 'enterprise')),
      description text,
      expires_at timestamptz,
      max_redemptions integer check (max_redemptions is null or max_redemptions > 0),
      redemption_count integer not null default 0,
      created_at timestamptz not null default now(),
      check (max_redemptions is null or redemption_count <= max_redemptions)
    )`.execute(db);
  await sql`
    create table promo_redemptions (
      code text not null references promo_codes (code) on delete cascade,
      user_id text not null references "user" ("id") on delete cascade,
      plan_access text not null,
      redeemed_at timestamptz not null default now(),
      primary key (code, user_id)
    )`.execute(db);
  await sql`create index promo_redemptions_user_idx on promo_redemptions (user_id)`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table promo_redemptions`.execute(db);
  await sql`drop table promo_codes`.execute(db);
};

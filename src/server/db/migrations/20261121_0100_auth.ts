import { type Kysely, sql } from 'kysely';

// Better Auth's tables, as its schema generator compiles them for our plugin set
// (two-factor, admin, bearer; database rate limits). They keep the library's own
// camelCase names; a new plugin or library version means a new migration, generated the
// same way (see docs/decisions/0004-auth-on-better-auth.md).

const STATEMENTS = [
  `create table "user" ("id" text not null primary key, "name" text not null, "email" text not null unique, "emailVerified" boolean not null, "image" text, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz default CURRENT_TIMESTAMP not null, "twoFactorEnabled" boolean, "role" text, "banned" boolean, "banReason" text, "banExpires" timestamptz)`,
  `create table "session" ("id" text not null primary key, "expiresAt" timestamptz not null, "token" text not null unique, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz not null, "ipAddress" text, "userAgent" text, "userId" text not null references "user" ("id") on delete cascade, "impersonatedBy" text)`,
  `create table "account" ("id" text not null primary key, "accountId" text not null, "providerId" text not null, "userId" text not null references "user" ("id") on delete cascade, "accessToken" text, "refreshToken" text, "idToken" text, "accessTokenExpiresAt" timestamptz, "refreshTokenExpiresAt" timestamptz, "scope" text, "password" text, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz not null)`,
  `create table "verification" ("id" text not null primary key, "identifier" text not null, "value" text not null, "expiresAt" timestamptz not null, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz default CURRENT_TIMESTAMP not null)`,
  `create table "twoFactor" ("id" text not null primary key, "secret" text not null, "backupCodes" text not null, "userId" text not null references "user" ("id") on delete cascade, "verified" boolean, "failedVerificationCount" integer, "lockedUntil" timestamptz)`,
  `create table "rateLimit" ("id" text not null primary key, "key" text not null unique, "count" integer not null, "lastRequest" bigint not null)`,
  `create index "session_userId_idx" on "session" ("userId")`,
  `create index "account_userId_idx" on "account" ("userId")`,
  `create index "verification_identifier_idx" on "verification" ("identifier")`,
  `create index "twoFactor_secret_idx" on "twoFactor" ("secret")`,
  `create index "twoFactor_userId_idx" on "twoFactor" ("userId")`,
];

export const up = async (db: Kysely<unknown>) => {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  for (const table of ['rateLimit', 'twoFactor', 'verification', 'account', 'session', 'user']) {
    await sql.raw(`drop table "${table}"`).execute(db);
  }
};

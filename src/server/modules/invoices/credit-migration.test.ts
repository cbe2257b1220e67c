import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerCreditAccounts } from '../../db/migrations/20261125_0500_customer_credit.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase, testDatabaseKind } from '../../testing/db.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';

// Migration 20261125_0500 gives every existing company a Customer credit account (decision
// 0028): a company created before it (no customer_credit account) gets one, on a free code and
// a free name when 2350 and "Customer credit" are taken; a company that has one keeps it; the
// migration can run twice without adding a second.

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const creditAccounts = (organizationId: string) =>
  database.db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'type', 'subtype', 'currency'])
    .where('organization_id', '=', organizationId)
    .where('system_key', '=', 'customer_credit')
    .execute();

describe(`customer credit account migration (${testDatabaseKind()})`, () => {
  it('adds the account to companies without one, avoiding taken codes and names, once', async () => {
    const old = await createTestCompanyInDatabase(database.db, {
      baseCurrency: 'EUR',
      name: 'Before credit',
    });
    const plain = await createTestCompanyInDatabase(database.db, { name: 'Plain old' });
    const kept = await createTestCompanyInDatabase(database.db, { name: 'Already has it' });
    const [keptBefore] = await creditAccounts(kept.id);
    // As they were before the migration: no customer credit account; one of them already uses
    // code 2350 and the name "Customer credit" for something else.
    await database.db
      .deleteFrom('accounts')
      .where('organization_id', 'in', [old.id, plain.id])
      .where('system_key', '=', 'customer_credit')
      .execute();
    await database.db
      .insertInto('accounts')
      .values({
        organization_id: old.id,
        id: crypto.randomUUID(),
        code: '2350',
        name: 'CUSTOMER CREDIT',
        type: 'liability',
        subtype: 'current_liability',
        parent_id: null,
        currency: 'EUR',
        description: '',
        system_key: null,
      })
      .execute();

    await addCustomerCreditAccounts(database.db as unknown as Kysely<unknown>);
    await addCustomerCreditAccounts(database.db as unknown as Kysely<unknown>);

    const [a, ...moreA] = await creditAccounts(old.id);
    expect(moreA).toEqual([]);
    expect(a).toMatchObject({
      code: '2351',
      name: 'Customer credit (2351)',
      type: 'liability',
      subtype: 'current_liability',
      currency: 'EUR',
    });
    const [b, ...moreB] = await creditAccounts(plain.id);
    expect(moreB).toEqual([]);
    expect(b).toMatchObject({ code: '2350', name: 'Customer credit', currency: 'USD' });
    expect(await creditAccounts(kept.id)).toEqual([keptBefore]);
  });
});

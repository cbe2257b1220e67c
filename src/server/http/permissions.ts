import type { Role } from '../db/types.ts';

// What each role may do. Checked on the server for every route; the UI reads the same
// table (through /api/orgs) to hide what a role cannot do.

export const PERMISSIONS = [
  'read', // see the company's data and reports
  'record', // create and edit drafts: entries, invoices, transactions
  'post', // post to the ledger, send invoices, record payments
  'approve', // approve entries that need approval
  'manage_settings', // lock date, company settings, chart of accounts
  'manage_members', // invite, remove, change roles
  'view_audit', // read the audit log
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  accountant: ['read', 'record', 'post', 'approve', 'manage_settings', 'view_audit'],
  member: ['read', 'record', 'post'],
  viewer: ['read'],
};

export const roleCan = (role: Role, permission: Permission) => ROLE_PERMISSIONS[role].includes(permission);

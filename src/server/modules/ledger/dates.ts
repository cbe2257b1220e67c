// The ledger's calendar-date arithmetic is the shared one (src/shared/dates.ts), so the
// server and the pages count days, months and fiscal years the same way.
export * from '../../../shared/dates.ts';

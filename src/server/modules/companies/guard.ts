// The tenancy guard is plumbing and lives in src/server/http/tenancy.ts. This re-export stays
// only until the statement-import module (being edited elsewhere) imports it from there; new
// code imports src/server/http/tenancy.ts.
export * from '../../http/tenancy.ts';

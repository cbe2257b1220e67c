// Recomputes the committed expected balances of the journal corpus (issue 12 §6) with the
// installed hledger and ledger binaries:
//   node --import tsx scripts/journal-corpus-expected.ts [../shared/corpus/journal]
// Files expected to be refused keep their hand-written expectation (line and reason); check
// every change of balances by reading the journal before committing.
import fs from 'node:fs';
import path from 'node:path';
import { hledgerBalances, ledgerBalances } from '../src/server/modules/ledger/corpus-balances.ts';

const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../shared/corpus/journal'));
const file = path.join(import.meta.dirname, '../src/server/modules/ledger/journal-corpus.expected.json');
const expected = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<
  string,
  { baseCurrency: string; tool?: 'hledger' | 'ledger'; balances?: unknown }
>;
for (const [name, entry] of Object.entries(expected)) {
  if (!entry.tool) continue;
  const journal = path.join(dir, name);
  entry.balances = await (entry.tool === 'hledger' ? hledgerBalances : ledgerBalances)(journal);
}
fs.writeFileSync(file, `${JSON.stringify(expected, null, 2)}\n`);
console.log(`wrote ${file}`);

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// Test support for the journal corpus (journal-corpus.test.ts and
// scripts/journal-corpus-expected.ts): each account's own balance (sub-accounts excluded) per
// commodity at cost (-B), as hledger or ledger computes it, as exact decimal text.

const run = promisify(execFile);

export type ToolBalances = Record<string, Record<string, string>>;

const addDecimal = (a: string | undefined, b: { mantissa: bigint; places: number }) => {
  let mantissa = b.mantissa;
  let places = b.places;
  if (a !== undefined) {
    const [w, f = ''] = a.replace('-', '').split('.');
    let m = BigInt(`${w}${f}`) * (a.startsWith('-') ? -1n : 1n);
    let p = f.length;
    while (p < places) {
      m *= 10n;
      p += 1;
    }
    while (places < p) {
      mantissa *= 10n;
      places += 1;
    }
    mantissa += m;
  }
  const negative = mantissa < 0n;
  const digits = (negative ? -mantissa : mantissa).toString().padStart(places + 1, '0');
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return `${negative ? '-' : ''}${text}`;
};

const decimalOf = (text: string) => {
  const t = text.trim();
  const negative = t.startsWith('-');
  const [w, f = ''] = t.replace(/^-/, '').split('.');
  return { mantissa: BigInt(`${w}${f}`) * (negative ? -1n : 1n), places: f.length };
};

const dropZeros = (balances: ToolBalances) => {
  for (const [account, byCommodity] of Object.entries(balances)) {
    for (const [c, v] of Object.entries(byCommodity)) if (/^-?0*\.?0*$/.test(v)) delete byCommodity[c];
    if (Object.keys(byCommodity).length === 0) delete balances[account];
  }
  return balances;
};

type HledgerAmount = { acommodity: string; aquantity: { decimalMantissa: number; decimalPlaces: number } };

/** `hledger -f FILE bal --flat -B -O json`: exclusive balances at cost. */
export const hledgerBalances = async (file: string): Promise<ToolBalances> => {
  const { stdout } = await run('hledger', ['-f', file, 'bal', '--flat', '-B', '-N', '-O', 'json'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const [rows] = JSON.parse(stdout) as [[string, string, number, HledgerAmount[]][], unknown];
  const out: ToolBalances = {};
  for (const [account, , , amounts] of rows) {
    out[account] ??= {};
    const byCommodity = out[account]!;
    for (const a of amounts) {
      byCommodity[a.acommodity] = addDecimal(byCommodity[a.acommodity], {
        mantissa: BigInt(a.aquantity.decimalMantissa),
        places: a.aquantity.decimalPlaces,
      });
    }
  }
  return dropZeros(out);
};

const csvRow = (line: string) => {
  const cells: string[] = [];
  const re = /"((?:[^"]|"")*)"(?:,|$)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) cells.push(m[1]!.replace(/""/g, '"'));
  return cells;
};

/** `ledger -f FILE csv -B`, summed per account: every posting at cost, in full precision. */
export const ledgerBalances = async (file: string): Promise<ToolBalances> => {
  const { stdout } = await run('ledger', ['-f', file, 'csv', '-B'], { maxBuffer: 64 * 1024 * 1024 });
  const out: ToolBalances = {};
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    const [, , , account, commodity, amount] = csvRow(line);
    out[account!] ??= {};
    const byCommodity = out[account!]!;
    byCommodity[commodity!] = addDecimal(byCommodity[commodity!], decimalOf(amount!.replace(/,/g, '')));
  }
  return dropZeros(out);
};

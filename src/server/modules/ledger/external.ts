import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { currencyExponent, parseDecimalToMinor } from '../../../shared/money.ts';

// Runs hledger or ledger (when installed) on an exported journal file and reads their
// balance report back as minor units per account, to compare with our trial balance.

const run = promisify(execFile);

export type PlainTextTool = 'hledger' | 'ledger';

export const toolAvailable = async (tool: PlainTextTool) => {
  try {
    await run(tool, ['--version'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
};

const ARGS: Record<PlainTextTool, (file: string) => string[]> = {
  hledger: (file) => ['-f', file, 'balance', '-B', '--flat', '-N', '-O', 'csv'],
  ledger: (file) => [
    '-f',
    file,
    'balance',
    '-B',
    '--flat',
    '--no-total',
    '--balance-format',
    '%(account)\t%(scrub(display_total))\n',
  ],
};

/** Balance per account in minor units of `currency`, as the tool reports it (cost basis). */
export const externalBalances = async (tool: PlainTextTool, file: string, currency: string) => {
  const { stdout } = await run(tool, ARGS[tool](file), {
    timeout: 30 * 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  const exponent = currencyExponent(currency);
  const balances = new Map<string, number>();
  const rows =
    tool === 'hledger'
      ? stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => {
            const m = /^"((?:[^"]|"")*)","((?:[^"]|"")*)"$/.exec(line.trim());
            return m ? [m[1]!.replace(/""/g, '"'), m[2]!] : null;
          })
      : stdout
          .trim()
          .split('\n')
          .map((line) => {
            const i = line.lastIndexOf('\t');
            return i > 0 ? [line.slice(0, i), line.slice(i + 1)] : null;
          });
  for (const row of rows) {
    if (!row) continue;
    const [account, amount] = row as [string, string];
    const text = amount.replace(currency, '').replace(/,/g, '').trim();
    if (text === '' || text === '0') continue;
    balances.set(
      account,
      parseDecimalToMinor(text, exponent, { allowNegative: true, limit: Number.MAX_SAFE_INTEGER }),
    );
  }
  return balances;
};

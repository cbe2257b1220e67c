import { LineInput, LineSelect } from '../../components/ui/LineItems.tsx';
import { DocumentTotals, LineEndCells, LinesCard } from '../../components/ui/LinesCard.tsx';
import type { BillEditorLine, BillLineCheck } from './billEditorState.ts';
import type { BillEditorState } from './useBillEditor.ts';

// The bill editor's Lines card: one row per line (description, the account it is booked to,
// quantity, unit price, tax, amount), the list of line problems, Add line and the live totals.
// It draws any state with the bill editor's line names (a supplier credit's, a recurring
// bill's template: SupplierLines.ts).

/** What the card reads of an editor's state. */
export type BillLinesEditor = Pick<
  BillEditorState,
  | 'lines'
  | 'currency'
  | 'totals'
  | 'problems'
  | 'serverProblems'
  | 'showErrors'
  | 'accounts'
  | 'rates'
  | 'taxRates'
  | 'update'
  | 'addLine'
  | 'removeLine'
  | 'items'
  | 'chooseItem'
>;

const LineRow = ({ ed, line, i }: { ed: BillLinesEditor; line: BillEditorLine; i: number }) => {
  const p: BillLineCheck & Record<string, string | undefined> = {
    ...(ed.showErrors ? ed.problems[i] : {}),
    ...ed.serverProblems.lines[i],
  };
  const n = i + 1;
  return (
    <tr className="align-top">
      <td className="px-3 py-2">
        <LineSelect
          label={`Line ${n} item`}
          value={line.itemId}
          onChange={(e) => ed.chooseItem(line.key, e.target.value)}
        >
          <option value="">Free text</option>
          {ed.items
            .filter((it) => !it.archived || it.id === line.itemId)
            .map((it) => (
              <option key={it.id} value={it.id}>
                {it.name}
              </option>
            ))}
        </LineSelect>
      </td>
      <td className="px-3 py-2">
        <LineInput
          label={`Line ${n} description`}
          value={line.description}
          onChange={(e) => ed.update(line.key, { description: e.target.value })}
          invalid={Boolean(p.description)}
          title={p.description}
        />
      </td>
      <td className="px-3 py-2">
        <LineSelect
          label={`Line ${n} account`}
          value={line.accountId}
          onChange={(e) => ed.update(line.key, { accountId: e.target.value })}
          invalid={Boolean(p.accountId)}
          title={p.accountId}
        >
          <option value="">Choose an account</option>
          {ed.accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.code} {a.name}
            </option>
          ))}
        </LineSelect>
      </td>
      <td className="px-3 py-2">
        <LineInput
          label={`Line ${n} quantity`}
          numeric
          value={line.quantity}
          onChange={(e) => ed.update(line.key, { quantity: e.target.value })}
          invalid={Boolean(p.quantity)}
          title={p.quantity}
        />
      </td>
      <td className="px-3 py-2">
        <LineInput
          label={`Line ${n} unit price`}
          numeric
          placeholder="0.00"
          value={line.unitPrice}
          onChange={(e) => ed.update(line.key, { unitPrice: e.target.value })}
          invalid={Boolean(p.unitPrice)}
          title={p.unitPrice}
        />
      </td>
      <td className="px-3 py-2">
        <LineSelect
          label={`Line ${n} tax`}
          value={line.taxRateIds[0] ?? ''}
          onChange={(e) => ed.update(line.key, { taxRateIds: e.target.value ? [e.target.value] : [] })}
          invalid={Boolean(p.taxes)}
          title={p.taxes}
        >
          <option value="">No tax</option>
          {ed.rates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.percent}%{t.inclusive ? ', incl.' : ''})
            </option>
          ))}
        </LineSelect>
      </td>
      <LineEndCells
        line={n}
        net={ed.totals.lines[i]?.net ?? 0}
        currency={ed.currency}
        onlyLine={ed.lines.length === 1}
        onRemove={() => ed.removeLine(line.key)}
      />
    </tr>
  );
};

const LINE_FIELD_NAMES: Record<string, string> = {
  description: 'description',
  accountId: 'account',
  quantity: 'quantity',
  unitPrice: 'unit price',
  discountPercent: 'discount',
  taxes: 'tax',
};

const BillTotals = ({ ed }: { ed: BillLinesEditor }) => (
  <DocumentTotals label="Bill totals" totals={ed.totals} currency={ed.currency} taxRates={ed.taxRates} />
);

export const BillLinesCard = ({ ed }: { ed: BillLinesEditor }) => {
  const lineProblems = ed.lines.flatMap((line, i) =>
    Object.entries({ ...(ed.showErrors ? ed.problems[i] : {}), ...ed.serverProblems.lines[i] }).map(
      ([field, msg]) => ({
        key: `${line.key}-${field}`,
        text: `Line ${i + 1} ${LINE_FIELD_NAMES[field] ?? field}: ${msg}`,
      }),
    ),
  );
  return (
    <LinesCard
      description="What the supplier billed, and the expense or asset account each cost is booked to."
      caption="Bill lines"
      tableClassName="min-w-[1120px]"
      columns={[
        { label: 'Item', className: 'w-40' },
        { label: 'Description' },
        { label: 'Account', className: 'w-52' },
        { label: 'Qty', className: 'w-20' },
        { label: 'Unit price', className: 'w-32' },
        { label: 'Tax', className: 'w-40' },
        { label: 'Amount', numeric: true, className: 'w-32' },
        { label: 'Remove', shown: '', className: 'w-12' },
      ]}
      problems={lineProblems}
      onAddLine={ed.addLine}
      totals={<BillTotals ed={ed} />}
    >
      {ed.lines.map((line, i) => (
        <LineRow key={line.key} ed={ed} line={line} i={i} />
      ))}
    </LinesCard>
  );
};

import { Money } from '../../components/money/Money.tsx';
import { LineInput, LineSelect } from '../../components/ui/LineItems.tsx';
import { DocumentTotals, LineEndCells, LinesCard, TotalsLine } from '../../components/ui/LinesCard.tsx';
import type { EditorLine } from './editorState.ts';
import type { InvoiceEditorState } from './useInvoiceEditor.ts';

// The invoice editor's Lines card: one row per line (item, description, numbers, taxes,
// amount), the list of line problems, the Add line button and the live totals.

/** The typed numbers of a line, in column order. */
const NUMBER_CELLS = [
  { field: 'quantity', label: 'quantity', placeholder: undefined },
  { field: 'unitPrice', label: 'unit price', placeholder: '0.00' },
  { field: 'discountPercent', label: 'discount percent', placeholder: '0' },
] as const;

const LineTaxCell = ({
  ed,
  line,
  n,
  problem,
}: {
  ed: InvoiceEditorState;
  line: EditorLine;
  n: number;
  problem: string | undefined;
}) => (
  <td className="px-3 py-2">
    <div className="space-y-1">
      <LineSelect
        label={`Line ${n} tax`}
        value={line.taxRateIds[0] ?? ''}
        onChange={(e) =>
          ed.update(line.key, {
            taxRateIds: e.target.value ? [e.target.value, ...line.taxRateIds.slice(1)] : [],
          })
        }
        invalid={Boolean(problem)}
        title={problem}
      >
        <option value="">No tax</option>
        {ed.rates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} ({t.percent}%{t.inclusive ? ', incl.' : ''})
          </option>
        ))}
      </LineSelect>
      {line.taxRateIds.length > 0 && ed.rates.length > 1 ? (
        <LineSelect
          label={`Line ${n} second tax`}
          value={line.taxRateIds[1] ?? ''}
          onChange={(e) =>
            ed.update(line.key, {
              taxRateIds: e.target.value
                ? [line.taxRateIds[0]!, e.target.value]
                : line.taxRateIds.slice(0, 1),
            })
          }
          invalid={Boolean(problem)}
        >
          <option value="">+ second tax</option>
          {ed.rates
            .filter((t) => t.id !== line.taxRateIds[0])
            .map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.percent}%{t.compound ? ', compound' : ''})
              </option>
            ))}
        </LineSelect>
      ) : null}
    </div>
  </td>
);

const LineRow = ({ ed, line, i }: { ed: InvoiceEditorState; line: EditorLine; i: number }) => {
  const p = ed.showErrors ? ed.problems[i]! : {};
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
            .filter((it) => !it.archived)
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
      {NUMBER_CELLS.map(({ field, label, placeholder }) => (
        <td key={field} className="px-3 py-2">
          <LineInput
            label={`Line ${n} ${label}`}
            numeric
            value={line[field]}
            placeholder={placeholder}
            onChange={(e) => ed.update(line.key, { [field]: e.target.value })}
            invalid={Boolean(p[field])}
            title={p[field]}
          />
        </td>
      ))}
      <LineTaxCell ed={ed} line={line} n={n} problem={p.taxes} />
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

const InvoiceTotals = ({ ed }: { ed: InvoiceEditorState }) => (
  <DocumentTotals label="Invoice totals" totals={ed.totals} currency={ed.currency} taxRates={ed.taxRates}>
    {ed.totals.discountTotal > 0 ? (
      <TotalsLine label="Discounts" className="text-slate-500 dark:text-slate-400">
        <Money minor={-ed.totals.discountTotal} currency={ed.currency} tintNegative={false} />
      </TotalsLine>
    ) : null}
  </DocumentTotals>
);

export const InvoiceLinesCard = ({ ed }: { ed: InvoiceEditorState }) => (
  <LinesCard
    description="Choose an item or type a description; amounts update as you type."
    caption="Invoice lines"
    tableClassName="min-w-[880px]"
    columns={[
      { label: 'Item', className: 'w-44' },
      { label: 'Description' },
      { label: 'Qty', className: 'w-24' },
      { label: 'Unit price', className: 'w-32' },
      { label: 'Disc. %', className: 'w-24' },
      { label: 'Tax', className: 'w-40' },
      { label: 'Amount', numeric: true, className: 'w-32' },
      { label: 'Remove', shown: '', className: 'w-12' },
    ]}
    problems={
      ed.showErrors
        ? ed.lines.flatMap((line, i) =>
            Object.values(ed.problems[i] ?? {}).map((msg) => ({
              key: `${line.key}-${msg}`,
              text: `Line ${i + 1}: ${msg}`,
            })),
          )
        : []
    }
    onAddLine={ed.addLine}
    totals={<InvoiceTotals ed={ed} />}
  >
    {ed.lines.map((line, i) => (
      <LineRow key={line.key} ed={ed} line={line} i={i} />
    ))}
  </LinesCard>
);

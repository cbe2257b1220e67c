import type { ReactNode } from 'react';
import { RowTh, Table, Td, Th } from './Table.tsx';

// A table of records described by its columns: each column's heading and how a record fills
// its cell. The kit's Table, Th and Td underneath (caption, header scopes, numbers right-aligned
// in tabular figures); a column marked `rowHeader` names its row to screen readers, and one
// marked `actions` has a heading only screen readers read.

export type Column<T> = {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
  /** The row's name cell (<th scope="row">). */
  rowHeader?: boolean;
  /** The last column of row buttons: its heading is "Actions" for screen readers only. */
  actions?: boolean;
  headerClassName?: string;
  className?: string;
};

export const DataTable = <T,>({
  caption,
  captionHidden = true,
  columns,
  rows,
  rowKey,
  rowClassName,
  onRowClick,
  dense,
  className,
}: {
  caption: ReactNode;
  captionHidden?: boolean;
  columns: readonly (Column<T> | false | null | undefined)[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
  /** A click anywhere on the row (a pointer shortcut: the row still needs a button for keyboards). */
  onRowClick?: (row: T) => void;
  dense?: boolean;
  className?: string;
}) => {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  return (
    <Table caption={caption} captionHidden={captionHidden} dense={dense} className={className}>
      <thead>
        <tr>
          {shown.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table
            <Th key={i} numeric={c.numeric} className={c.headerClassName}>
              {c.actions ? <span className="sr-only">Actions</span> : c.header}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            className={rowClassName?.(row)}
            onClick={onRowClick ? () => onRowClick(row) : undefined}
          >
            {shown.map((c, i) =>
              c.rowHeader ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table
                <RowTh key={i} className={c.className}>
                  {c.cell(row)}
                </RowTh>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table
                <Td key={i} numeric={c.numeric} className={c.className}>
                  {c.cell(row)}
                </Td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
};

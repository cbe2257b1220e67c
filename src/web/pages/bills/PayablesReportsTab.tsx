// Placeholder for issue 15's payables web work: replaced by the real tab.

export type PayablesTabProps = { onOpenBill: (billId: string) => void };

export const PayablesReportsTab = (_props: PayablesTabProps) => null;

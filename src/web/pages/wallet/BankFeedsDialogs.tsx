import { useEffect } from 'react';
import { usePlaidLink } from 'react-plaid-link';
import type {
  BankConnection,
  FeedAccount,
  FeedAccountMapping,
  LinkStart,
} from '../../../shared/bank-feeds.ts';
import { MONEY_ACCOUNT_KIND_LABELS } from '../../../shared/wallet.ts';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useWallet } from '../transactions/api.ts';

// The Wallet's bank-connection dialogs: the Demo Bank's institution choice (no third party),
// Plaid Link (react-plaid-link, opened as soon as its script is ready; update mode when the
// link token was made for a connection in error), and mapping one of the bank's accounts.

/** Demo Bank: choose an institution; the page hands the server a public token naming it. */
export const DemoLinkDialog = ({
  start,
  onClose,
  onPublicToken,
}: {
  start: LinkStart;
  onClose: () => void;
  onPublicToken: (publicToken: string) => Promise<unknown>;
}) => {
  const institutions = start.institutions ?? [];
  const { values, bind } = useFormFields({ institution: institutions[0]?.id ?? '' });
  return (
    <FormDialog
      title="Connect a bank"
      description="The Demo Bank is built into Kontor: it brings realistic transactions (payroll, rent, card spend, SaaS, customer payments), and new ones as days pass. No real bank is contacted."
      onClose={onClose}
      submitLabel="Connect"
      onSubmit={async () => {
        if (!values.institution) return 'Choose a bank.';
        const nonce = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) =>
          b.toString(16).padStart(2, '0'),
        ).join('');
        await onPublicToken(`demo-public:${values.institution}:${nonce}`);
        onClose();
      }}
    >
      <SelectField
        id="demo-institution"
        label="Bank"
        {...bind('institution')}
        options={institutions.map((i) => ({ value: i.id, label: i.name }))}
      />
    </FormDialog>
  );
};

/** Plaid Link: opens itself when ready; a success hands the public token over (new link) or reports the repair (update mode). */
export const PlaidLinkLauncher = ({
  start,
  onSuccess,
  onExit,
}: {
  start: LinkStart;
  onSuccess: (publicToken: string) => void;
  onExit: () => void;
}) => {
  const { open, ready } = usePlaidLink({
    token: start.linkToken,
    onSuccess: (publicToken) => onSuccess(publicToken),
    onExit: () => onExit(),
  });
  useEffect(() => {
    if (ready) open();
  }, [ready, open]);
  return null;
};

const CHOICE_NEW = '__new__';
const CHOICE_NONE = '__none__';

/** Map one of the bank's accounts: a new money account, an existing one that fits, or none. */
export const MapAccountDialog = ({
  connection,
  account,
  onClose,
  onSave,
}: {
  connection: BankConnection;
  account: FeedAccount;
  onClose: () => void;
  onSave: (mapping: FeedAccountMapping) => Promise<unknown>;
}) => {
  const wallet = useWallet();
  const fitting = (wallet.data?.accounts ?? []).filter(
    (m) => !m.archived && m.currency === account.currency && account.kinds.includes(m.kind),
  );
  const { values, bind } = useFormFields({
    choice: account.moneyAccountId ?? CHOICE_NEW,
    name: account.name,
  });
  const kinds = account.kinds.map((k) => MONEY_ACCOUNT_KIND_LABELS[k].toLowerCase()).join(' or ');
  return (
    <FormDialog
      title={`Map ${account.name}${account.mask ? ` •••• ${account.mask}` : ''}`}
      description={`Lines from ${connection.institutionName ?? 'the bank'} go into this money account. It must be a ${kinds} kept in ${account.currency ?? 'the same currency'}.`}
      onClose={onClose}
      submitLabel="Save mapping"
      onSubmit={async () => {
        const mapping: FeedAccountMapping =
          values.choice === CHOICE_NEW
            ? { target: 'new', ...(values.name.trim() ? { name: values.name.trim() } : {}) }
            : values.choice === CHOICE_NONE
              ? { target: 'none' }
              : { target: 'existing', moneyAccountId: values.choice };
        await onSave(mapping);
        onClose();
      }}
    >
      <SelectField
        id="map-choice"
        label="Money account"
        {...bind('choice')}
        options={[
          { value: CHOICE_NEW, label: 'A new money account' },
          ...fitting.map((m) => ({ value: m.id, label: `${m.name} (${m.currency})` })),
          { value: CHOICE_NONE, label: 'Do not bring its lines in yet' },
        ]}
      />
      {values.choice === CHOICE_NEW ? (
        <TextField id="map-name" label="New account's name" {...bind('name')} maxLength={120} />
      ) : null}
    </FormDialog>
  );
};

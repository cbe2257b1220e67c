import { Paperclip, Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_KINDS_TEXT,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TOO_LARGE_TEXT,
} from '../../../shared/attachments.ts';
import type { Bill } from '../../../shared/payables.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader } from '../../components/ui/Card.tsx';
import { FileField } from '../../components/ui/Form.tsx';
import { api, errorText } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatBytes } from '../../lib/format.ts';
import { useBillMutation, useBillsPath } from './billsApi.ts';

// The supplier's own document of a bill (their PDF, or a photo of the paper bill): the files
// attached, download, attach and remove. Through the one attachment module, like a bank
// transaction's receipts (JSON with the file as base64).

const toBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

export const BillAttachmentsCard = ({ bill }: { bill: Bill }) => {
  const { can } = useCompany();
  const { base } = useBillsPath();
  const path = `${base}/bills/${bill.id}/attachments`;
  const [problem, setProblem] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const upload = useBillMutation(
    async (_b, file: File) =>
      api.post(path, {
        fileName: file.name,
        contentType: file.type || 'application/octet-stream',
        dataBase64: await toBase64(file),
      }),
    'payables',
  );
  const remove = useBillMutation(
    (_b, attachmentId: string) => api.delete(`${path}/${attachmentId}`),
    'payables',
  );
  const editable = can('record') && bill.storedStatus !== 'void';

  const attach = async (file: File | null) => {
    setProblem(null);
    if (!file) return;
    if (file.size > ATTACHMENT_MAX_BYTES) {
      setProblem(ATTACHMENT_TOO_LARGE_TEXT);
      return;
    }
    try {
      await upload.mutateAsync(file);
      setInputKey((k) => k + 1);
    } catch (err) {
      setProblem(errorText(err));
    }
  };

  return (
    <Card>
      <CardHeader title="Attachments" description="The supplier's bill as they sent it." />
      <div className="space-y-3 px-5 py-4 text-sm">
        {problem ? <Alert>{problem}</Alert> : null}
        {remove.error ? <Alert>{errorText(remove.error)}</Alert> : null}
        {bill.attachments.length === 0 ? (
          <p className="text-slate-500 dark:text-slate-400">No files attached.</p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {bill.attachments.map((a) => (
              <li key={a.id} className="flex items-center justify-between gap-3 py-1">
                <a
                  href={`/api${path}/${a.id}`}
                  className="inline-flex min-h-11 items-center gap-2 font-medium text-brand-700 hover:underline dark:text-brand-300"
                >
                  <Paperclip className="h-4 w-4 shrink-0" aria-hidden="true" />
                  {a.fileName}
                </a>
                <span className="ml-auto text-xs text-slate-500 dark:text-slate-400">
                  {formatBytes(a.sizeBytes)}
                </span>
                {editable ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${a.fileName}`}
                    busy={remove.isPending && remove.variables === a.id}
                    onClick={() => remove.mutate(a.id)}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {editable ? (
          <div key={inputKey} aria-busy={upload.isPending}>
            <FileField
              id="bill-attachment"
              label={`Attach the supplier's bill (${ATTACHMENT_KINDS_TEXT})`}
              accept={ATTACHMENT_ACCEPT}
              onFile={(file) => void attach(file)}
            />
            {upload.isPending ? (
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" role="status">
                Uploading...
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </Card>
  );
};

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_KINDS_TEXT,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TOO_LARGE_TEXT,
} from '../../../shared/attachments.ts';
import { Button } from '../../components/ui/Button.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { problemText } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatBytes } from '../../lib/format.ts';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';
import { useOrgId } from './api.ts';

// The receipts of one transaction: the files attached, and attaching or removing one.

type Attachment = { id: string; fileName: string; contentType: string; sizeBytes: number; createdAt: string };

const toBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

export const Receipts = ({
  transactionId,
  onError,
}: {
  transactionId: string;
  /** A problem to show (null clears it): the file is too large, the upload failed. */
  onError: (message: string | null) => void;
}) => {
  const orgId = useOrgId();
  const { can } = useCompany();
  const client = useQueryClient();
  const base = `/orgs/${orgId}/transactions/${transactionId}/attachments`;
  const attachments = useQuery({
    queryKey: keys.transactions(orgId, 'attachments', transactionId),
    queryFn: async () => (await api.get<{ attachments: Attachment[] }>(base)).attachments,
  });
  const [uploading, setUploading] = useState(false);
  const refresh = () => invalidateAfter.transactionAttachments(client, orgId, transactionId);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    onError(null);
    if (file.size > ATTACHMENT_MAX_BYTES) return onError(ATTACHMENT_TOO_LARGE_TEXT);
    setUploading(true);
    try {
      await api.post(base, {
        fileName: file.name,
        contentType: file.type || 'application/octet-stream',
        dataBase64: await toBase64(file),
      });
      await refresh();
    } catch (err) {
      onError(problemText(err));
    } finally {
      setUploading(false);
    }
  };

  return (
    <section aria-label="Receipts" className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">Receipts</h3>
      {(attachments.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No files attached.</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {attachments.data!.map((a) => (
            <li key={a.id} className="flex items-center justify-between gap-2">
              <a
                className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                href={`/api${base}/${a.id}`}
              >
                {a.fileName}
              </a>
              <span className="text-xs text-slate-500 dark:text-slate-400">{formatBytes(a.sizeBytes)}</span>
              {can('record') ? (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${a.fileName}`}
                  onClick={async () => {
                    await api.delete(`${base}/${a.id}`);
                    await refresh();
                  }}
                >
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {can('record') ? (
        <div className="mt-2">
          <TextField
            id="edit-receipt"
            label={`Attach a receipt (${ATTACHMENT_KINDS_TEXT})`}
            type="file"
            accept={ATTACHMENT_ACCEPT}
            disabled={uploading}
            onChange={(e) => upload(e.target.files?.[0])}
            className="py-2"
          />
        </div>
      ) : null}
    </section>
  );
};

import { useQueryClient } from '@tanstack/react-query';
import { Download, Paperclip, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_KINDS_TEXT,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TOO_LARGE_TEXT,
} from '../../../shared/attachments.ts';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { isApiErrorBody } from '../../../shared/errors.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { invalidateAfter } from '../../lib/queryKeys.ts';
import { useAction } from '../../lib/useAction.ts';
import { ledgerPaths } from './ledgerApi.ts';
import { errorText } from './parts.tsx';
import { formatBytes } from '../../lib/format.ts';

// Receipts on a journal entry: list, download, upload (multipart, checked by content on the
// server) and remove. Shown inside the entry's detail dialog.

// api.post sends JSON; a file goes as multipart/form-data, so this one call uses fetch itself
// and turns the server's error body into the same ApiError the rest of the app shows.
const uploadFile = async (path: string, file: File) => {
  const form = new FormData();
  form.append('file', file);
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { method: 'POST', body: form, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network_error', 'Network error. Please check your internet connection.');
  }
  if (!response.ok) {
    const data: unknown = await response.json().catch(() => undefined);
    if (isApiErrorBody(data)) throw new ApiError(response.status, data.error.code, data.error.message);
    throw new ApiError(
      response.status,
      'http_error',
      `The server answered ${response.status}. Please try again.`,
    );
  }
};

export const EntryAttachments = ({ entry }: { entry: JournalEntry }) => {
  const { company, can } = useCompany();
  const queryClient = useQueryClient();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const { busy, error, setError, run } = useAction();
  const [confirmId, setConfirmId] = useState<string | null>(null);
  const attachments = entry.attachments ?? [];
  const base = `${ledgerPaths(company.id).entry(entry.id)}/attachments`;
  const refresh = () => invalidateAfter.entryAttachments(queryClient, company.id);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > ATTACHMENT_MAX_BYTES) {
      setError(ATTACHMENT_TOO_LARGE_TEXT);
      return;
    }
    await run(
      async () => {
        await uploadFile(base, file);
        await refresh();
      },
      { message: errorText },
    );
    if (inputRef.current) inputRef.current.value = '';
  };

  const remove = (id: string) =>
    run(
      async () => {
        await api.delete(`${base}/${id}`);
        setConfirmId(null);
        await refresh();
      },
      { message: errorText },
    );

  return (
    <section aria-labelledby={`${inputId}-title`} className="space-y-2">
      <h3 id={`${inputId}-title`} className="text-sm font-semibold text-slate-900 dark:text-white">
        Attachments
      </h3>
      {attachments.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No receipts attached to this entry yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {attachments.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center gap-3 px-3 py-1 text-sm">
              <Paperclip className="h-4 w-4 text-slate-400" aria-hidden="true" />
              <a
                href={`/api${base}/${a.id}`}
                target="_blank"
                rel="noreferrer"
                className="inline-flex min-h-11 items-center gap-1 font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
              >
                {a.fileName}
                <Download className="h-4 w-4" aria-hidden="true" />
                <span className="sr-only">(download)</span>
              </a>
              <span className="text-slate-500 dark:text-slate-400">{formatBytes(a.sizeBytes)}</span>
              {can('record') ? (
                confirmId === a.id ? (
                  <span className="ml-auto flex items-center gap-2">
                    <span className="text-slate-700 dark:text-slate-300">Remove this file?</span>
                    <Button variant="danger" busy={busy} onClick={() => void remove(a.id)}>
                      Remove
                    </Button>
                    <Button variant="ghost" onClick={() => setConfirmId(null)}>
                      Keep
                    </Button>
                  </span>
                ) : (
                  <Button
                    variant="ghost"
                    className="ml-auto"
                    aria-label={`Remove ${a.fileName}`}
                    onClick={() => setConfirmId(a.id)}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                  </Button>
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {error ? <Alert>{error}</Alert> : null}
      {can('record') ? (
        <div className="flex flex-wrap items-center gap-3">
          <label
            htmlFor={inputId}
            className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-4 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-500 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Paperclip className="h-4 w-4" aria-hidden="true" />
            {busy ? 'Uploading...' : 'Attach receipt'}
            <input
              ref={inputRef}
              id={inputId}
              type="file"
              accept={ATTACHMENT_ACCEPT}
              disabled={busy}
              className="sr-only"
              onChange={(e) => void upload(e.target.files?.[0])}
            />
          </label>
          <span className="text-xs text-slate-500 dark:text-slate-400">{ATTACHMENT_KINDS_TEXT}.</span>
        </div>
      ) : null}
    </section>
  );
};

import { Dialog } from '../../components/ui/Dialog.tsx';
import { CsvMappingStep } from './CsvMappingStep.tsx';
import { ImportPreview } from './ImportPreview.tsx';
import { DoneStep, FileStep, ImportErrors, ImportSteps, ImportingStep } from './ImportWizardSteps.tsx';
import { useImportWizard } from './useImportWizard.ts';
import type { DoneDialogProps } from '../../components/ui/FormDialog.tsx';

// Statement import in four steps: file → column mapping (CSV only; remembered per account)
// → preview with duplicates marked and rules applied → import with progress. A broken file
// is refused whole, line by line, and nothing is imported.

export const ImportWizard = ({ onClose, onDone }: DoneDialogProps) => {
  const w = useImportWizard({ onDone });
  const { step, setStep, sniff, mapping, setMapping, preview, account, live, assign, setAssign, busy } = w;
  const { error, lineErrors, uploaded, serverProgress, result, tryMapping, runPreview, commit } = w;

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && step !== 'importing' && onClose()}
      title="Import bank statement"
      description="CSV, OFX/QFX or CAMT.052/053/054. You see a preview before anything is imported."
      wide
    >
      <ImportSteps step={step} />
      {error ? <ImportErrors error={error} lineErrors={lineErrors} /> : null}

      {step === 'file' ? <FileStep w={w} onClose={onClose} /> : null}

      {step === 'mapping' && sniff && mapping ? (
        <CsvMappingStep
          sniff={sniff}
          mapping={mapping}
          onChange={setMapping}
          onBack={() => setStep('file')}
          onPreview={(m) => runPreview(m)}
          tryMapping={tryMapping}
          currency={account?.currency ?? 'USD'}
          busy={busy}
        />
      ) : null}

      {step === 'preview' && preview && account ? (
        <ImportPreview
          preview={preview}
          account={account}
          accounts={live}
          assign={assign}
          onAssign={(index, id) => {
            const chosen = { ...assign, [index]: id };
            setAssign(chosen);
            void runPreview(sniff ? mapping : null, chosen);
          }}
          categoryName={w.categoryName}
          onBack={() => setStep(sniff ? 'mapping' : 'file')}
          onImport={commit}
        />
      ) : null}

      {step === 'importing' ? <ImportingStep uploaded={uploaded} serverProgress={serverProgress} /> : null}

      {step === 'done' && result ? <DoneStep result={result} onClose={onClose} /> : null}
    </Dialog>
  );
};

import { ArrowLeft, Plus } from 'lucide-react';
import { Button } from '../../components/ui/Button.tsx';

// Pieces of a document editor (an invoice's, a bill's): its title with the Back button, and
// the link-styled button under the party picker that adds a new party.

export const EditorTitle = ({ title, onBack }: { title: string; onBack: () => void }) => (
  <div className="flex items-center gap-2">
    <Button variant="ghost" onClick={onBack} aria-label="Back">
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
    </Button>
    <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{title}</h1>
  </div>
);

/** "New customer", "New supplier": opens the form that adds one. */
export const NewPartyButton = ({ label, onClick }: { label: string; onClick: () => void }) => (
  <button
    type="button"
    onClick={onClick}
    className="mt-1 inline-flex min-h-11 items-center gap-1 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
  >
    <Plus className="h-4 w-4" aria-hidden="true" /> {label}
  </button>
);

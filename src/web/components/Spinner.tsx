export const Spinner = ({
  label = 'Loading...',
  size = 'md',
}: {
  label?: string;
  size?: 'sm' | 'md' | 'lg';
}) => {
  const px = size === 'sm' ? 'h-4 w-4 border-2' : size === 'lg' ? 'h-10 w-10 border-4' : 'h-6 w-6 border-2';
  return (
    <span role="status" aria-live="polite" className="inline-flex items-center gap-3">
      <span
        aria-hidden="true"
        className={`${px} animate-spin rounded-full border-brand-600 border-t-transparent dark:border-brand-400 dark:border-t-transparent`}
      />
      <span className="text-sm text-slate-600 dark:text-slate-300">{label}</span>
    </span>
  );
};

export const PageSpinner = ({ label = 'Loading...' }: { label?: string }) => (
  <div className="flex min-h-[50vh] items-center justify-center">
    <Spinner label={label} size="lg" />
  </div>
);

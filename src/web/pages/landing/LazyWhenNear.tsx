import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Spinner } from '../../components/Spinner.tsx';

/**
 * Renders `children` (usually a React.lazy component) only once the placeholder comes within
 * `margin` of the viewport, so code below the fold is not fetched for the first paint.
 */
export const LazyWhenNear = ({
  children,
  minHeight,
  label,
  margin = '600px',
}: {
  children: ReactNode;
  minHeight: string;
  label: string;
  margin?: string;
}) => {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [near, margin]);
  const placeholder = (
    <div className="flex items-center justify-center" style={{ minHeight }}>
      <Spinner label={label} />
    </div>
  );
  return (
    <div ref={ref} style={{ minHeight }}>
      {near ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder}
    </div>
  );
};

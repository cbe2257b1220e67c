import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

// The Kontor wordmark (SPEC section 2): sizes sm, md, lg, xl; variants gradient, image,
// plain. Goes to / when clicked unless a handler is given.

export type LogoSize = 'sm' | 'md' | 'lg' | 'xl';
export type LogoVariant = 'gradient' | 'image' | 'plain';

const TEXT_SIZE: Record<LogoSize, string> = { sm: 'text-lg', md: 'text-xl', lg: 'text-3xl', xl: 'text-5xl' };
const MARK_SIZE: Record<LogoSize, string> = {
  sm: 'h-6 w-6',
  md: 'h-8 w-8',
  lg: 'h-10 w-10',
  xl: 'h-14 w-14',
};

export const Logo = ({
  size = 'md',
  variant = 'gradient',
  onClick,
  className = '',
}: {
  size?: LogoSize;
  variant?: LogoVariant;
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
  className?: string;
}) => {
  const navigate = useNavigate();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (onClick) onClick(event);
    else navigate('/');
  };
  const word =
    variant === 'gradient'
      ? 'bg-gradient-to-r from-brand-600 to-violet-600 bg-clip-text text-transparent dark:from-brand-400 dark:to-violet-400'
      : 'text-slate-900 dark:text-white';
  return (
    <a
      href="/"
      onClick={handle}
      aria-label="Kontor home"
      data-size={size}
      data-variant={variant}
      className={`inline-flex min-h-11 items-center gap-2 rounded-md font-extrabold tracking-tight ${className}`}
    >
      {variant === 'image' ? <img src="/favicon.svg" alt="" className={MARK_SIZE[size]} /> : null}
      <span className={`${TEXT_SIZE[size]} ${word}`}>Kontor</span>
    </a>
  );
};

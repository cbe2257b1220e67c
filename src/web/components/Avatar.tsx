import { useState } from 'react';

// A person's picture: their profile photo, or their initials on a coloured disc when there is
// none or it cannot be loaded. Decorative beside a visible name (alt ""), else named.

/** Up to two initials from a name, else from an email's local part, else "?". */
export const initialsOf = (name: string | null | undefined, email?: string | null) => {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${[...words[0]!][0]}${[...words[words.length - 1]!][0]}`.toUpperCase();
  if (words.length === 1) return [...words[0]!].slice(0, 2).join('').toUpperCase();
  const local = (email ?? '').split('@')[0] ?? '';
  return local ? [...local].slice(0, 2).join('').toUpperCase() : '?';
};

const SIZES = { sm: 'h-8 w-8 text-xs', md: 'h-11 w-11 text-sm', lg: 'h-24 w-24 text-2xl' } as const;

export const Avatar = ({
  photoURL,
  name,
  email,
  size = 'sm',
  label,
}: {
  photoURL?: string | null;
  name?: string | null;
  email?: string | null;
  size?: keyof typeof SIZES;
  /** The accessible name when no visible text names the person; omitted, the avatar is decorative. */
  label?: string;
}) => {
  // The address that failed to load: a new photo gets a new address and is tried again.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const failed = !!photoURL && failedUrl === photoURL;
  const classes = `inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full ${SIZES[size]}`;
  if (photoURL && !failed) {
    return (
      <img
        src={photoURL}
        alt={label ?? ''}
        className={`${classes} object-cover`}
        onError={() => setFailedUrl(photoURL)}
        data-testid="avatar-photo"
      />
    );
  }
  return (
    <span
      className={`${classes} bg-gradient-to-br from-brand-500 to-indigo-500 font-semibold text-white`}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      data-testid="avatar-initials"
    >
      {initialsOf(name, email)}
    </span>
  );
};

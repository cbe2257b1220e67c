// What a profile photo may be, shared by the server's checks and the Profile page's picker.
// The page crops the chosen image to a square and sends a 256×256 PNG, far under the limit;
// the server reads the type from the bytes (the attachment module's sniffing) and takes only
// images a browser shows.

/** The largest photo the server stores. */
export const PROFILE_PHOTO_MAX_BYTES = 2 * 1024 * 1024;

/** The largest image the page opens to crop (it is scaled down before upload). */
export const PROFILE_PHOTO_SOURCE_MAX_BYTES = 20 * 1024 * 1024;

/** The side of the square the page uploads, in pixels. */
export const PROFILE_PHOTO_SIZE = 256;

/** Types (as sniffed from the bytes) a profile photo may have. */
export const PROFILE_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** The file picker's filter. */
export const PROFILE_PHOTO_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,.png,.jpg,.jpeg,.webp,.gif';

export const PROFILE_PHOTO_MESSAGES = {
  tooLarge: 'A profile photo can be at most 2 MB. Choose a smaller image.',
  sourceTooLarge: 'This image is over 20 MB. Choose a smaller one.',
  notImage: 'A profile photo must be a PNG, JPEG, WebP or GIF image.',
  unreadable: 'This image could not be opened. Choose a PNG, JPEG, WebP or GIF image.',
} as const;

import { z } from 'zod';
import { MESSAGES, isValidName } from './rules.ts';

// The rules of the Profile form's own fields (Settings > Profile), the same on the page and
// the server: names as SPEC section 5 says (trimmed, at least 2 characters, letters, spaces,
// apostrophes and hyphens, with its messages), a display name and a job title of bounded
// length, and a phone number that looks like one.

export const PROFILE_LIMITS = { name: 100, displayName: 200, phone: 40, jobTitle: 100 } as const;

export const PROFILE_MESSAGES = {
  firstName: MESSAGES.firstNameInvalid,
  lastName: MESSAGES.lastNameInvalid,
  nameTooLong: `Names can be at most ${PROFILE_LIMITS.name} characters.`,
  displayName: `Display name can be at most ${PROFILE_LIMITS.displayName} characters.`,
  phone:
    'Enter a phone number of at least 5 digits, with only digits, spaces and + - ( ) . (at most 40 characters).',
  jobTitle: `Job title can be at most ${PROFILE_LIMITS.jobTitle} characters.`,
} as const;

/** An empty phone, or one with 5 to 40 characters of digits, spaces and + - ( ) . (at most one leading +). */
export const isValidPhone = (value: string) => {
  const phone = value.trim();
  if (!phone) return true;
  return (
    phone.length <= PROFILE_LIMITS.phone &&
    /^\+?[\d\s().-]+$/.test(phone) &&
    (phone.match(/\d/g)?.length ?? 0) >= 5
  );
};

/** A first or last name in a profile change. */
export const profileNameSchema = (message: string) =>
  z.string().trim().max(PROFILE_LIMITS.name, PROFILE_MESSAGES.nameTooLong).refine(isValidName, message);

export const profilePhoneSchema = z.string().trim().refine(isValidPhone, PROFILE_MESSAGES.phone);

export type ProfileDetails = {
  firstName: string;
  lastName: string;
  displayName: string;
  phone: string;
  /** The profile's `role`, shown as "Job title". */
  role: string;
};

export type ProfileDetailsErrors = Partial<Record<keyof ProfileDetails, string>>;

/** Each field's problem, in the server's words, or an empty object when the form may be saved. */
export const validateProfileDetails = (form: ProfileDetails): ProfileDetailsErrors => {
  const errors: ProfileDetailsErrors = {};
  if (!isValidName(form.firstName)) errors.firstName = PROFILE_MESSAGES.firstName;
  else if (form.firstName.trim().length > PROFILE_LIMITS.name)
    errors.firstName = PROFILE_MESSAGES.nameTooLong;
  if (!isValidName(form.lastName)) errors.lastName = PROFILE_MESSAGES.lastName;
  else if (form.lastName.trim().length > PROFILE_LIMITS.name) errors.lastName = PROFILE_MESSAGES.nameTooLong;
  if (form.displayName.trim().length > PROFILE_LIMITS.displayName)
    errors.displayName = PROFILE_MESSAGES.displayName;
  if (!isValidPhone(form.phone)) errors.phone = PROFILE_MESSAGES.phone;
  if (form.role.trim().length > PROFILE_LIMITS.jobTitle) errors.role = PROFILE_MESSAGES.jobTitle;
  return errors;
};

/** What the form saves: trimmed, the display name filled from the names when left empty. */
export const profileDetailsPatch = (form: ProfileDetails): ProfileDetails => {
  const firstName = form.firstName.trim();
  const lastName = form.lastName.trim();
  return {
    firstName,
    lastName,
    displayName: form.displayName.trim() || `${firstName} ${lastName}`.trim(),
    phone: form.phone.trim(),
    role: form.role.trim(),
  };
};

import { History, KeyRound, Laptop, ListChecks, Mail, ShieldCheck } from 'lucide-react';
import { EmailVerificationStatus } from '../../../auth/EmailVerification.tsx';
import { BackupCodes } from './BackupCodes.tsx';
import { ChangePassword } from './ChangePassword.tsx';
import { LoginAlerts } from './LoginAlerts.tsx';
import { SectionList, type SectionPart } from './Section.tsx';
import { Sessions } from './Sessions.tsx';
import { SignInHistory } from './SignInHistory.tsx';
import { TwoFactor } from './TwoFactor.tsx';

// The Security part of /settings, one section a part: the email address, change password,
// two-factor authentication with a QR code, new backup codes, the list of sessions with
// sign-out, and the login-alerts switch.

const PARTS: SectionPart[] = [
  {
    title: 'Email address',
    description: 'Invitations and the email Kontor sends for you need a confirmed address.',
    icon: Mail,
    Part: EmailVerificationStatus,
  },
  {
    title: 'Change password',
    description: 'You need your current password to set a new one.',
    icon: KeyRound,
    Part: ChangePassword,
  },
  {
    title: 'Two-factor authentication',
    description:
      'Ask for a code from an authenticator app (Google Authenticator, 1Password, Authy) when you sign in.',
    icon: ShieldCheck,
    Part: TwoFactor,
  },
  {
    title: 'Backup codes',
    description:
      'One-time codes that sign you in when your authenticator app is not at hand. Making new ones ends the old ones.',
    icon: ListChecks,
    Part: BackupCodes,
  },
  {
    title: "Where you're signed in",
    description: "Sign out any session you don't recognise.",
    icon: Laptop,
    Part: Sessions,
  },
  {
    title: 'Sign-in history',
    description: 'Every sign-in to your account, with its device and time. A new device sends a login alert.',
    icon: History,
    Part: SignInHistory,
  },
  {
    title: 'Login alerts',
    description:
      'Be told when someone signs in from a device not used before (email and bell, as Notifications → Security says).',
    icon: ShieldCheck,
    Part: LoginAlerts,
  },
];

export const SecuritySettings = () => <SectionList parts={PARTS} testId="security-settings" />;

export default SecuritySettings;

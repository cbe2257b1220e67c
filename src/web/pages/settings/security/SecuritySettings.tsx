import { Mail } from 'lucide-react';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { EmailVerificationStatus } from '../../../auth/EmailVerification.tsx';
import { ChangePassword } from './ChangePassword.tsx';
import { LoginAlerts } from './LoginAlerts.tsx';
import { Section } from './Section.tsx';
import { Sessions } from './Sessions.tsx';
import { TwoFactor } from './TwoFactor.tsx';

// The Security part of /settings: the email address, change password, two-factor
// authentication with a QR code and backup codes, the list of sessions with sign-out, and the
// login-alerts switch.

export const SecuritySettings = () => {
  const { userProfile, currentUser, refreshProfile, refreshSession } = useAuth();
  const enabled = userProfile?.security.twoFactorEnabled ?? currentUser?.twoFactorEnabled === true;
  const changed = async () => {
    await refreshSession();
    await refreshProfile();
  };
  return (
    <div className="space-y-6" data-testid="security-settings">
      <Section
        title="Email address"
        description="Invitations and the email Kontor sends for you need a confirmed address."
        icon={<Mail className="h-5 w-5" aria-hidden="true" />}
      >
        <EmailVerificationStatus />
      </Section>
      <ChangePassword />
      <TwoFactor enabled={enabled} onChanged={changed} />
      <Sessions />
      <LoginAlerts profile={userProfile} onSaved={refreshProfile} />
    </div>
  );
};

export default SecuritySettings;

import { Camera, Mail, UserRound } from 'lucide-react';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { EmailChange } from './profile/EmailChange.tsx';
import { ProfileDetailsForm } from './profile/ProfileDetailsForm.tsx';
import { ProfilePhoto } from './profile/ProfilePhoto.tsx';
import { Section } from './security/Section.tsx';

// Settings > Profile: the signed-in user's photo, names, phone and job title, and the email
// address they sign in with (changed through a link to the new address).

export const ProfileSettings = () => {
  const { userProfile } = useAuth();
  if (!userProfile) return <Spinner label="Loading your profile..." />;
  return (
    <div className="space-y-6" data-testid="profile-settings">
      <Section
        title="Photo"
        description="Shown next to your name in Kontor."
        icon={<Camera className="h-5 w-5" aria-hidden="true" />}
      >
        <ProfilePhoto />
      </Section>
      <Section
        title="Your details"
        description="Your name as Kontor shows it, and how to reach you."
        icon={<UserRound className="h-5 w-5" aria-hidden="true" />}
      >
        <ProfileDetailsForm />
      </Section>
      <Section
        title="Email address"
        description="The address you sign in with and Kontor writes to. A new one needs your password and a click on the link we send to it."
        icon={<Mail className="h-5 w-5" aria-hidden="true" />}
      >
        <EmailChange />
      </Section>
    </div>
  );
};

export default ProfileSettings;

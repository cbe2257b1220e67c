import { Camera, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import {
  PROFILE_PHOTO_ACCEPT,
  PROFILE_PHOTO_MESSAGES,
  PROFILE_PHOTO_SOURCE_MAX_BYTES,
} from '../../../../shared/profile-photo.ts';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { ErrorBox } from '../../../auth/ui.tsx';
import { Avatar } from '../../../components/Avatar.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { api, apiRequest } from '../../../lib/api.ts';
import { useAction } from '../../../lib/useAction.ts';
import { Success } from '../security/Section.tsx';
import { PhotoCropper } from './PhotoCropper.tsx';

// The profile photo: the current one (or initials), choose an image to crop and upload, or
// remove it. The upload is the cropped 256×256 square (PUT /api/me/profile/photo).

export const ProfilePhoto = () => {
  const { userProfile: profile, currentUser, refreshProfile } = useAuth();
  const input = useRef<HTMLInputElement | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const photoURL = profile?.photoURL ?? '';

  const choose = (chosen: File | null) => {
    setDone(null);
    setError(null);
    if (input.current) input.current.value = '';
    if (!chosen) return;
    if (chosen.type && !chosen.type.startsWith('image/')) return setError(PROFILE_PHOTO_MESSAGES.notImage);
    if (chosen.size > PROFILE_PHOTO_SOURCE_MAX_BYTES) return setError(PROFILE_PHOTO_MESSAGES.sourceTooLarge);
    setFile(chosen);
  };

  const upload = async (square: Blob) => {
    const form = new FormData();
    form.append('file', square, 'profile-photo.png');
    await apiRequest('/me/profile/photo', { method: 'PUT', body: form });
    await refreshProfile();
    setFile(null);
    setDone('Photo saved.');
  };

  const remove = () =>
    run(async () => {
      setDone(null);
      await api.delete('/me/profile/photo');
      await refreshProfile();
      setDone('Photo removed.');
    });

  return (
    <div>
      <ErrorBox message={error} />
      <Success message={done} />
      <div className="flex flex-wrap items-center gap-5">
        <Avatar
          photoURL={photoURL}
          name={profile?.displayName || currentUser?.name}
          email={currentUser?.email}
          size="lg"
          label={photoURL ? 'Your profile photo' : 'Your initials (no photo yet)'}
        />
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            id="profile-photo-file"
            type="file"
            accept={PROFILE_PHOTO_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
          />
          <Button variant="secondary" onClick={() => input.current?.click()}>
            <Camera className="h-4 w-4" aria-hidden="true" />
            {photoURL ? 'Change photo' : 'Upload photo'}
          </Button>
          {photoURL ? (
            <Button variant="ghost" busy={busy} onClick={() => void remove()}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Remove photo
            </Button>
          ) : null}
        </div>
      </div>
      <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
        PNG, JPEG, WebP or GIF. You crop it to a square before it is saved.
      </p>
      <Dialog
        open={file !== null}
        onOpenChange={(open) => (open ? undefined : setFile(null))}
        title="Crop your photo"
        description="The square is what Kontor keeps; the circle is how it shows next to your name."
      >
        {file ? <PhotoCropper file={file} onCancel={() => setFile(null)} onCropped={upload} /> : null}
      </Dialog>
    </div>
  );
};

// Browser push on this device: the service worker (public/push-sw.js), the browser's
// subscription with the server's VAPID public key, and the server's copy of it.

import { api } from '../../../lib/api.ts';

export const SERVICE_WORKER_URL = '/push-sw.js';

export const browserSupportsPush = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
export const keyBytes = (base64url: string) => {
  const padded = `${base64url}${'='.repeat((4 - (base64url.length % 4)) % 4)}`
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const raw = atob(padded);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

export const currentSubscription = async () => {
  const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
  return (await registration?.pushManager.getSubscription()) ?? null;
};

export const enableBrowserPush = async (publicKey: string) => {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    throw new Error('The browser did not allow notifications. Allow them for this site in its settings.');
  const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL);
  await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  await api.post('/me/push/subscriptions', subscription.toJSON());
};

export const disableBrowserPush = async () => {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api.post('/me/push/unsubscribe', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
};

// Kontor's service worker for Web Push only (no offline cache): shows each push the server sends
// (title, body, the app path to open) and opens or focuses Kontor at that path on a click.
// Registered by Settings → Notifications → "Enable browser push".

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'Kontor', body: event.data ? event.data.text() : '' };
  }
  const title = data.title || 'Kontor';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      icon: '/apple-touch-icon.png',
      tag: data.id || undefined,
      data: { url: typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/dashboard' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/dashboard', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (new URL(w.url).origin === self.location.origin && 'focus' in w) {
          return w.navigate(url).then((c) => (c ?? w).focus());
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});

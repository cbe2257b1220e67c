import type { AppContext } from '../../context.ts';
import type { Mail } from '../mail/service.ts';

// The email a notification sends: its title as the subject, its text, a button to the page it
// is about, and where to change what arrives by email.

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const notificationMail = (
  ctx: AppContext,
  to: string,
  n: { title: string; body: string; link: string; categoryLabel: string },
): Mail => {
  const url = `${ctx.config.publicUrl}${n.link}`;
  const settingsUrl = `${ctx.config.publicUrl}/settings?tab=notifications`;
  const footer = `You get this email because "${n.categoryLabel}" emails are on in your notification settings: ${settingsUrl}`;
  return {
    to,
    subject: n.title,
    text: [n.body, '', `Open in Kontor: ${url}`, '', footer].join('\n'),
    html: `<div style="font-family:system-ui,sans-serif;max-width:480px;margin:auto;color:#0f172a"><p><strong>${escapeHtml(n.title)}</strong></p><p>${escapeHtml(n.body)}</p><p><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Open in Kontor</a></p><p style="font-size:12px;color:#64748b">${escapeHtml(footer)}</p></div>`,
  };
};

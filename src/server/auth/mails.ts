import type { Mail } from '../modules/mail/service.ts';

// The account emails: plain text for every client, and simple HTML.

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const html = (paragraphs: string[], action?: { label: string; url: string }) =>
  `<div style="font-family:system-ui,sans-serif;max-width:480px;margin:auto;color:#0f172a">${paragraphs
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('')}${
    action
      ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p><p style="font-size:12px;color:#64748b">${escapeHtml(action.url)}</p>`
      : ''
  }</div>`;

export const resetPasswordMail = (to: string, link: string): Mail => ({
  to,
  subject: 'Reset your Kontor password',
  text: [
    'Someone asked to reset the password of your Kontor account.',
    '',
    `Open this link to choose a new password: ${link}`,
    '',
    'The link expires in 24 hours and works once. If you did not ask for it, ignore this email; your password stays the same.',
  ].join('\n'),
  html: html(
    [
      'Someone asked to reset the password of your Kontor account.',
      'The link expires in 24 hours and works once. If you did not ask for it, ignore this email; your password stays the same.',
    ],
    { label: 'Choose a new password', url: link },
  ),
});

export const verificationMail = (to: string, link: string): Mail => ({
  to,
  subject: 'Confirm your email address for Kontor',
  text: [
    'Welcome to Kontor. Please confirm that this is your email address.',
    '',
    `Open this link to confirm: ${link}`,
    '',
    'The link expires in 24 hours. If you did not create a Kontor account, ignore this email.',
  ].join('\n'),
  html: html(
    [
      'Welcome to Kontor. Please confirm that this is your email address.',
      'The link expires in 24 hours. If you did not create a Kontor account, ignore this email.',
    ],
    { label: 'Confirm email address', url: link },
  ),
});

export const loginAlertMail = (
  to: string,
  /** `at`: the time already written in the user's date format and time zone. */
  info: { at: string; ip: string; device: string; settingsUrl: string },
): Mail => {
  const lines = [
    'There was a new sign-in to your Kontor account.',
    `When: ${info.at}`,
    `IP address: ${info.ip}`,
    `Device: ${info.device}`,
    'If this was you, there is nothing to do. If not, change your password now and sign out the other sessions in Settings > Security.',
  ];
  return {
    to,
    subject: 'New sign-in to your Kontor account',
    text: [...lines, '', info.settingsUrl].join('\n'),
    html: html(lines, { label: 'Review security settings', url: info.settingsUrl }),
  };
};

export const existingAccountSignUpMail = (to: string, info: { loginUrl: string }): Mail => {
  const lines = [
    'Someone just tried to create a Kontor account with this email address, which already has one.',
    'If it was you: you do not need a new account. Sign in instead; if you forgot your password, choose "Forgot password?" on the sign-in page.',
    'If it was not you, you can ignore this email: no account was created and nothing about yours changed.',
  ];
  return {
    to,
    subject: 'Someone tried to sign up to Kontor with your email address',
    text: [...lines, '', `Sign in: ${info.loginUrl}`].join('\n'),
    html: html(lines, { label: 'Sign in to Kontor', url: info.loginUrl }),
  };
};

export const changeEmailMail = (to: string, link: string, info: { from: string }): Mail => {
  const lines = [
    `You asked to change the email address of your Kontor account from ${info.from} to this one.`,
    'The address changes when you open the link; until then you keep signing in with the old one.',
    'The link expires in 24 hours. If you did not ask for this, ignore this email.',
  ];
  return {
    to,
    subject: 'Confirm your new email address for Kontor',
    text: [lines[0], '', `Open this link to confirm: ${link}`, '', lines[1], lines[2]].join('\n'),
    html: html(lines, { label: 'Confirm new email address', url: link }),
  };
};

export const emailChangedMail = (to: string, info: { newEmail: string; settingsUrl: string }): Mail => {
  const lines = [
    `The email address of your Kontor account was changed to ${info.newEmail}.`,
    'Kontor now signs you in and writes to you at the new address.',
    'If you did not do this, reset your password from the sign-in page with the new address or contact support at once.',
  ];
  return {
    to,
    subject: 'Your Kontor email address was changed',
    text: [...lines, '', info.settingsUrl].join('\n'),
    html: html(lines, { label: 'Review your profile', url: info.settingsUrl }),
  };
};

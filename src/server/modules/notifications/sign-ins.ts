import Bowser from 'bowser';
import type { SignInHistory } from '../../../shared/notifications.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor } from '../../db/cursor.ts';
import type { RequestSession } from '../../auth/session.ts';
import { loginAlertsEnabled } from '../profile/service.ts';
import { notifyNewSignIn } from './events.ts';
import { hasSignedInWithDevice, insertSignInEvent, selectSignInPage } from './queries.ts';

// The sign-in history (Settings → Security) and what decides "new device": every completed
// sign-in (password, or password and second factor) is recorded with its address, user agent
// and device label ("Chrome on Linux"). A sign-in is from a new device when the user has no
// earlier sign-in with the same label; a new browser version or a new address is the same
// device. Account creation is not a sign-in, so the first sign-in after sign-up counts as new.
// With login alerts on, a new-device sign-in notifies (security category of the matrix).

/** "Chrome on Linux", "Safari on iOS", or "Unknown browser" when the user agent says nothing. */
export const deviceLabel = (userAgent: string | null | undefined) => {
  const parser = Bowser.getParser(userAgent?.trim() || ' ');
  const browser = parser.getBrowserName() || 'Unknown browser';
  const os = parser.getOSName();
  return os ? `${browser} on ${os}` : browser;
};

export type SignInSession = {
  id?: string;
  userId: string;
  ipAddress?: string | null;
  userAgent?: string | null;
  createdAt: Date;
};

/** Records one sign-in; notifies when it is from a new device and login alerts are on. */
export const recordSignIn = async (ctx: AppContext, session: SignInSession) => {
  const db = ctx.database.db;
  const device = deviceLabel(session.userAgent);
  const deviceKey = device.toLowerCase();
  const newDevice = !(await hasSignedInWithDevice(db, session.userId, deviceKey));
  const at = ctx.now();
  const eventId = await insertSignInEvent(db, {
    userId: session.userId,
    sessionId: session.id ?? null,
    ip: session.ipAddress?.slice(0, 100) || null,
    userAgent: session.userAgent?.slice(0, 500) || null,
    device,
    deviceKey,
    newDevice,
    createdAt: at,
  });
  if (newDevice && (await loginAlertsEnabled(ctx, session.userId))) {
    await notifyNewSignIn(ctx, db, {
      userId: session.userId,
      eventId,
      at: new Date(session.createdAt ?? at),
      ip: session.ipAddress ?? null,
      device,
      userAgent: session.userAgent ?? null,
    });
  }
  return { eventId, device, newDevice };
};

export const signInHistory = async (
  ctx: AppContext,
  session: RequestSession,
  query: { limit: number; cursor?: string },
): Promise<SignInHistory> => {
  const after = decodeCursor(query.cursor, { t: 'timestamp', id: 'string' });
  const { page, nextCursor } = await selectSignInPage(ctx.database.db, session.user.id, {
    after,
    limit: query.limit,
  });
  return {
    signIns: page.map((r) => ({
      id: r.id,
      device: r.device,
      ip: r.ip,
      newDevice: r.new_device,
      current: r.session_id !== null && r.session_id === session.sessionId,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    nextCursor: nextCursor((last) => ({ t: last.created_key, id: last.id })),
  };
};

import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Alert, ErrorState } from '../../components/ui/Card.tsx';
import { ApiError, UPGRADE_HINT, errorText } from '../../lib/api.ts';

// A 402 (a plan limit, a read-only account) tells the person how to upgrade: its text ends with
// "See plans", and where errors show (Alert, ErrorState, and so FormDialog and Form) that end is a
// link to /billing. Other errors are shown as they are.

const LIMIT = 'Your Personal plan allows 1 company. Business allows 3.';

describe('402 upgrade path', () => {
  it('ends a 402 message with the way to upgrade, once', () => {
    const error = new ApiError(402, 'plan_limit', LIMIT);
    expect(errorText(error)).toBe(`${LIMIT} ${UPGRADE_HINT}`);
    expect(new ApiError(402, 'plan_limit', errorText(error)).message).toBe(`${LIMIT} ${UPGRADE_HINT}`);
    expect(errorText(new ApiError(400, 'bad', LIMIT))).toBe(LIMIT);
    expect(errorText(new ApiError(409, 'conflict', 'Taken.'))).toBe('Taken.');
  });

  it('shows the end as a link to /billing in an Alert and an ErrorState', () => {
    const text = errorText(new ApiError(402, 'account_read_only', 'Read-only.'));
    const alert = renderToStaticMarkup(<Alert>{text}</Alert>);
    expect(alert).toContain('Read-only. <a href="/billing"');
    expect(alert).toMatch(/>See plans<\/a>/);
    const state = renderToStaticMarkup(<ErrorState message={text} onRetry={() => undefined} />);
    expect(state).toMatch(/<a href="\/billing"[^>]*>See plans<\/a>/);
  });

  it('is a plain link inside the app too (a full load closes the dialog the error was in)', () => {
    const router = createMemoryRouter([{ path: '/', element: <Alert>{`No room. ${UPGRADE_HINT}`}</Alert> }]);
    const html = renderToStaticMarkup(<RouterProvider router={router} />);
    expect(html).toMatch(/<a href="\/billing"[^>]*>See plans<\/a>/);
  });

  it('leaves other errors without a link', () => {
    const html = renderToStaticMarkup(
      <Alert>{errorText(new ApiError(400, 'bad', 'Name the account.'))}</Alert>,
    );
    expect(html).not.toContain('/billing');
    expect(html).toContain('Name the account.');
  });
});

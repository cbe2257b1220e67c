import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SubmitButton } from '../../auth/ui.tsx';
import { Button } from './Button.tsx';

// A busy button keeps keyboard focus: it is marked aria-busy and aria-disabled instead of
// natively disabled (a disabled button drops focus to the page body); a button that is
// really unavailable stays natively disabled.

const attributes = (html: string) => {
  const tag = /<button[^>]*>/.exec(html)?.[0] ?? '';
  return {
    disabled: /\sdisabled=""/.test(tag),
    busy: /aria-busy="true"/.test(tag),
    ariaDisabled: /aria-disabled="true"/.test(tag),
  };
};

describe('Button', () => {
  it('stays focusable while busy', () => {
    expect(attributes(renderToStaticMarkup(<Button busy>Save</Button>))).toEqual({
      disabled: false,
      busy: true,
      ariaDisabled: true,
    });
    // Busy wins over disabled: the button that was pressed keeps focus while it works.
    expect(
      attributes(
        renderToStaticMarkup(
          <Button busy disabled>
            Save
          </Button>,
        ),
      ).disabled,
    ).toBe(false);
  });

  it('is natively disabled when unavailable, and plain otherwise', () => {
    expect(attributes(renderToStaticMarkup(<Button disabled>Save</Button>))).toEqual({
      disabled: true,
      busy: false,
      ariaDisabled: false,
    });
    expect(attributes(renderToStaticMarkup(<Button>Save</Button>))).toEqual({
      disabled: false,
      busy: false,
      ariaDisabled: false,
    });
  });

  it('is what the sign-in forms submit with, busy label included', () => {
    const html = renderToStaticMarkup(<SubmitButton busy label="Sign In" busyLabel="Signing In..." />);
    expect(html).toContain('type="submit"');
    expect(html).toContain('Signing In...');
    expect(attributes(html)).toEqual({ disabled: false, busy: true, ariaDisabled: true });
  });
});

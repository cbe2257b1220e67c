import { type HeaderProps, HeaderRow } from './Card.tsx';

// The top of a signed-in page: its one h1, a line under it (the company, the period) and the
// page's actions on the right, wrapping below on narrow screens.

export const PageHeader = (props: HeaderProps) => <HeaderRow kind="page" {...props} />;

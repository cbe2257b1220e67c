// The signed-in user's menu (name, sign out) — the accounts work fills this in.
export const UserMenuSlot = () => null;

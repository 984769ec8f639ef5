// The roles a member can have, and the members screen's way to run one change and reload.
export const ROLES = ["member", "admin", "owner"];

/** Runs one change, then notifies and reloads (or notifies the failure). */
export type MemberAction = (fn: () => Promise<unknown>, done: string) => Promise<unknown>;

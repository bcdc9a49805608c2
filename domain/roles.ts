/** Membership roles, strongest first. */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Owners and admins manage members, keys, companies and workspace settings. */
export function canManage(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

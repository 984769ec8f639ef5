// Roles and permission statements of the authentication layer (the second specification, section 6),
// written out through better-auth's access-control API. Shared by the server's plugins and by
// the clients (the console's organizationClient / adminClient take the same ac and roles).
import { createAccessControl } from "better-auth/plugins/access";

/** Organization resources and their actions. */
export const organizationStatements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
} as const;

export const organizationAc = createAccessControl(organizationStatements);

/** Organization roles: owner and admin hold every right but deleting (admin); a member only reads roles. */
export const organizationRoles = {
  owner: organizationAc.newRole({
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    ac: ["create", "read", "update", "delete"],
  }),
  admin: organizationAc.newRole({
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    ac: ["create", "read", "update", "delete"],
  }),
  member: organizationAc.newRole({
    ac: ["read"],
  }),
};

export type OrganizationRole = keyof typeof organizationRoles;

/** Platform administration (the admin plugin): what the admin role may do to users and sessions. */
export const adminStatements = {
  user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password", "get", "update"],
  session: ["list", "revoke", "delete"],
} as const;

export const adminAc = createAccessControl(adminStatements);

/** The platform roles: `admin` holds every admin action; `user` (everyone else) none. */
export const adminRoles = {
  admin: adminAc.newRole({
    user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password", "get", "update"],
    session: ["list", "revoke", "delete"],
  }),
  user: adminAc.newRole({ user: [], session: [] }),
};

// The better-auth instance: email + password, username sign-in, cached sessions, organizations
// with members, invitations and teams, admins, captcha, device authorization, the OAuth2 / OIDC
// provider (./oauth.ts) and a rate limiter in PostgreSQL shared by every API process.
// Its records live under our names (./tables.ts, created by server/migrations/0020_auth.ts;
// test/auth/schema.test.ts checks them). docs/AUTH.md describes it all.
import { betterAuth, type BetterAuthOptions, type BetterAuthPlugin } from "better-auth";
import { getAuthTables } from "better-auth/db";
import { APIError } from "better-auth/api";
import { admin, bearer, captcha, deviceAuthorization, organization, twoFactor, username } from "better-auth/plugins";
import { PostgresDialect } from "kysely";
import pg from "pg";
import { logger } from "../kit/logger.js";
import { sendMail } from "../kit/mail.js";
import { nameProblem, slugProblem } from "../organizations/service.js";
import { httpUrlProblem } from "../kit/urls.js";
import { adminAc, adminRoles, organizationAc, organizationRoles } from "./access.js";
import { trustedOrigins, type AuthConfig } from "./config.js";
import { invitationEmail, resetPasswordEmail, verificationEmail } from "./emails.js";
import { invitationPreview } from "./invitation-preview.js";
import { oauthPluginFactories } from "./oauth.js";
import { renamed, tableName, type ModelNaming } from "./tables.js";

/** The header our Express mount sets to the client's address before better-auth sees the request. */
export const CLIENT_IP_HEADER = "x-borealis-client-ip";

/** Session lifetimes (seconds): a week, extended once a day of use; fresh for a day; cookie cache 5 min. */
export const SESSION_EXPIRES_IN = 7 * 24 * 3600;
export const SESSION_UPDATE_AGE = 24 * 3600;
export const SESSION_FRESH_AGE = 24 * 3600;
export const SESSION_COOKIE_CACHE_MAX_AGE = 5 * 60;

/** Rules of the database-backed rate limiter beyond better-auth's own (sign-in/up 3 per 10 s, emails 3 per minute). */
const RATE_LIMIT_RULES = {
  "/verify-email": { window: 60, max: 10 },
  "/reset-password/*": { window: 60, max: 10 },
  "/device/token": { window: 5, max: 5 },
};

/** The client id of our command-line tool in the device flow. */
export const DEVICE_CLIENT_ID = "borealis-cli";

export const TEAM_NAME_MESSAGE = "A team name needs at least 1 character.";
export const SOLE_OWNER_MESSAGE = "You are the only owner of an organization: make another member owner before deleting your account.";

/** Whether the user is the only owner of some organization. */
async function soleOwner(pool: pg.Pool, userId: string): Promise<boolean> {
  const { rows } = await pool.query(
    `select 1 from members m
      where m.user_id = $1 and 'owner' = any(string_to_array(m.role, ','))
        and not exists (select 1 from members o where o.organization_id = m.organization_id and o.user_id <> $1
                        and 'owner' = any(string_to_array(o.role, ',')))
      limit 1`,
    [userId],
  );
  return rows.length > 0;
}

export interface AuthDeps {
  /** Where the tables are: the PostgreSQL connection string the API's knex instance uses. */
  connection: string;
  config: AuthConfig;
}

/**
 * Builds each plugin twice: once to learn the models it declares, then with our table and column
 * names for exactly those models (the `schema` option every plugin takes).
 */
function named<P extends BetterAuthPlugin>(make: (schema?: Record<string, ModelNaming>) => P): P {
  return make(renamed(make().schema));
}

function authOptions({ connection, config }: AuthDeps) {
  const pool = new pg.Pool({ connectionString: connection, max: 5 });
  // An idle connection PostgreSQL closes (a restart) is reported here; unheard, the error would
  // end the process. The pool opens a new connection when next asked.
  pool.on("error", (err) => logger.warn({ err }, "auth database pool: an idle connection was lost"));
  // better-auth's own models (user, session, account, verification, rate limit) under our names.
  const core = renamed(getAuthTables({ rateLimit: { storage: "database" } }));
  const coreModel = (model: string) => ({ modelName: tableName(model), fields: core[model].fields });

  const oauth = oauthPluginFactories(config, pool);
  const plugins = [
    named((schema) => username({ schema })),
    named((schema) =>
      organization({
        schema,
        ac: organizationAc,
        roles: organizationRoles,
        creatorRole: "owner",
        teams: { enabled: true },
        // Owners hold the "organization: delete" permission (the specification's roles), but an
        // organization holding orders and subscriptions is not deleted from under them.
        disableOrganizationDeletion: true,
        requireEmailVerificationOnInvitation: true,
        sendInvitationEmail: async (data: {
          id: string;
          email: string;
          role: string;
          organization: { name: string };
          inviter: { user: { name: string; email: string } };
        }) => {
          await sendMail(
            invitationEmail(Object.assign({}, data, { acceptUrl: `${config.appURL}/accept-invitation/${encodeURIComponent(data.id)}` })),
          );
        },
        organizationHooks: {
          beforeCreateOrganization: async ({
            organization: org,
          }: {
            organization: { name?: string; slug?: string; logo?: string | null };
          }) => {
            // Its logo is the organization's avatar_url, shown on its public pages: http(s) only.
            const logo = org.logo ? httpUrlProblem(org.logo) : null;
            const problem = nameProblem(org.name ?? "") ?? slugProblem(org.slug ?? "") ?? logo?.msg;
            if (problem) throw new APIError("BAD_REQUEST", { message: problem });
          },
          beforeCreateTeam: async ({ team }: { team: { name: string } }) => {
            if (!team.name.trim()) throw new APIError("BAD_REQUEST", { message: TEAM_NAME_MESSAGE });
          },
          beforeUpdateTeam: async ({ updates }: { updates: { name?: string } }) => {
            if (updates.name !== undefined && !updates.name.trim()) throw new APIError("BAD_REQUEST", { message: TEAM_NAME_MESSAGE });
          },
        },
      }),
    ),
    named((schema) => admin({ schema, ac: adminAc, roles: adminRoles, defaultRole: "user", adminRoles: ["admin"] })),
    named((schema) =>
      deviceAuthorization({
        schema,
        expiresIn: "30m",
        interval: "5s",
        deviceCodeLength: 40,
        userCodeLength: 8,
        verificationUri: `${config.appURL}/device`,
        validateClient: (clientId: string) => clientId === DEVICE_CLIENT_ID,
      }),
    ),
    // TOTP with backup codes; a user who enabled it is asked for a code after the password.
    named((schema) => twoFactor({ schema, issuer: "Borealis" })),
    invitationPreview(pool),
    // A session token as `Authorization: Bearer` (what the device flow hands a command-line tool).
    bearer(),
    // The OAuth2 / OpenID Connect provider (./oauth.ts).
    named(oauth.jwt),
    named(oauth.oauthProvider),
    ...(config.captcha
      ? [
          captcha({
            provider: config.captcha.provider,
            secretKey: config.captcha.secretKey,
            ...(config.captcha.siteVerifyURL ? { siteVerifyURLOverride: config.captcha.siteVerifyURL } : {}),
          }),
        ]
      : []),
  ];

  return {
    options: {
      appName: "Borealis",
      baseURL: config.baseURL,
      basePath: "/api/auth",
      secret: config.secret,
      // An organization's name and settings change through PATCH /v1/organizations/{id} (validated,
      // with its organization.updated event), not a second way around it; and the jwt plugin's
      // session-to-JWT endpoint is not needed by the OAuth2 provider.
      disabledPaths: ["/organization/update", "/token"],
      trustedOrigins: trustedOrigins(config),
      database: { dialect: new PostgresDialect({ pool }), type: "postgres", transaction: true },
      // A new email is confirmed from a link sent to it (the verification email) before it replaces the old.
      user: Object.assign(coreModel("user"), { deleteUser: { enabled: true }, changeEmail: { enabled: true } }),
      databaseHooks: {
        user: {
          delete: {
            // Through delete-user or an admin's remove-user: an organization keeps an owner.
            before: async (user) => {
              if (await soleOwner(pool, user.id)) throw new APIError("BAD_REQUEST", { message: SOLE_OWNER_MESSAGE });
            },
          },
        },
      },
      session: Object.assign(coreModel("session"), {
        expiresIn: SESSION_EXPIRES_IN,
        updateAge: SESSION_UPDATE_AGE,
        freshAge: SESSION_FRESH_AGE,
        cookieCache: { enabled: true, maxAge: SESSION_COOKIE_CACHE_MAX_AGE },
      }),
      account: coreModel("account"),
      verification: coreModel("verification"),
      emailAndPassword: {
        enabled: true,
        requireEmailVerification: true,
        revokeSessionsOnPasswordReset: true,
        sendResetPassword: async ({ user, url }) => {
          await sendMail(resetPasswordEmail({ email: user.email, name: user.name, url }));
        },
      },
      emailVerification: {
        sendOnSignUp: true,
        sendOnSignIn: true,
        autoSignInAfterVerification: true,
        sendVerificationEmail: async ({ user, url }) => {
          await sendMail(verificationEmail({ email: user.email, name: user.name, url }));
        },
      },
      rateLimit: Object.assign({ enabled: config.rateLimit, storage: "database" as const }, coreModel("rateLimit"), {
        window: 60,
        max: 100,
        customRules: RATE_LIMIT_RULES,
      }),
      advanced: {
        cookiePrefix: "borealis",
        database: { generateId: "uuid" },
        // better-auth skips the origin check when NODE_ENV is "test"; tests check it as it runs.
        disableOriginCheck: false,
        ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      },
      telemetry: { enabled: false },
      plugins,
    } satisfies BetterAuthOptions,
    pool,
  };
}

export function createAuth(deps: AuthDeps) {
  const { options, pool } = authOptions(deps);
  const auth = betterAuth(options);
  return Object.assign(auth, {
    /** Closes the connection pool better-auth uses. */
    close: async () => {
      await pool.end();
    },
  });
}

export type BorealisAuth = ReturnType<typeof createAuth>;

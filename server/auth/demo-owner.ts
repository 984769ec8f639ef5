// The demo owner `make run` signs in with: a verified user owning the demo organization (and a
// platform admin of this local instance), with a random password made on the first run, hashed the
// way better-auth hashes every password, and kept in the data directory so that every run prints it.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Knex } from "knex";
import { hashPassword, verifyPassword } from "better-auth/crypto";

export const DEMO_OWNER_EMAIL = "owner@demo.example";

export interface DemoOwner {
  email: string;
  /** null once the owner has chosen a password of their own. */
  password: string | null;
  userId: string;
}

/** Passwords are hashed with better-auth's own hasher (the instance sets no other), so no instance is needed. */
export async function seedDemoOwner(knex: Knex, organizationId: string, stateFile: string): Promise<DemoOwner> {
  const kept = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as { password?: string }).password : undefined;
  const password = kept ?? randomBytes(12).toString("base64url");
  const owner = await knex.transaction(async (trx) => {
    let user = await trx("users").where({ email: DEMO_OWNER_EMAIL }).first("id");
    if (!user) {
      [user] = await trx("users")
        .insert({ name: "Demo Owner", email: DEMO_OWNER_EMAIL, email_verified: true, role: "admin" })
        .returning("id");
    }
    const account = await trx("accounts").where({ user_id: user.id, provider_id: "credential" }).first("id", "password");
    const matches = account?.password ? await verifyPassword({ password, hash: account.password }) : false;
    let changed = false;
    if (!account) {
      await trx("accounts").insert({ user_id: user.id, account_id: user.id, provider_id: "credential", password: await hashPassword(password) });
    } else if (!kept) {
      // The kept password is gone (a new data dir file): set the one printed now.
      await trx("accounts").where({ id: account.id }).update({ password: await hashPassword(password), updated_at: trx.fn.now() });
    } else if (!matches) {
      changed = true; // the owner chose another password since: theirs stands
    }
    await trx("members").insert({ organization_id: organizationId, user_id: user.id, role: "owner" }).onConflict(["organization_id", "user_id"]).ignore();
    return { email: DEMO_OWNER_EMAIL, password: changed ? null : password, userId: user.id as string };
  });
  if (!kept) writeFileSync(stateFile, JSON.stringify({ email: owner.email, password }, null, 2) + "\n", { mode: 0o600 });
  return owner;
}

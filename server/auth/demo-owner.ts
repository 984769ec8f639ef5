// The demo owner `make run` signs in with: a verified user owning the demo organization (and a
// platform admin of this local instance), with a random password made on the first run, hashed the
// way better-auth hashes every password, and kept in the data directory so that every run prints it.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Knex } from "knex";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { insertMemberIfMissing } from "../organizations/repository.js";
import { findCredentialAccount, findUserIdByEmail, insertCredentialAccount, insertUser, setAccountPassword } from "./repository.js";

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
    let user = await findUserIdByEmail(trx, DEMO_OWNER_EMAIL);
    if (!user) user = await insertUser(trx, { name: "Demo Owner", email: DEMO_OWNER_EMAIL, email_verified: true, role: "admin" });
    const account = await findCredentialAccount(trx, user.id);
    const matches = account?.password ? await verifyPassword({ password, hash: account.password }) : false;
    let changed = false;
    if (!account) {
      await insertCredentialAccount(trx, user.id, await hashPassword(password));
    } else if (!kept) {
      // The kept password is gone (a new data dir file): set the one printed now.
      await setAccountPassword(trx, account.id, await hashPassword(password));
    } else if (!matches) {
      changed = true; // the owner chose another password since: theirs stands
    }
    await insertMemberIfMissing(trx, organizationId, user.id, "owner");
    return { email: DEMO_OWNER_EMAIL, password: changed ? null : password, userId: user.id };
  });
  if (!kept) writeFileSync(stateFile, JSON.stringify({ email: owner.email, password }, null, 2) + "\n", { mode: 0o600 });
  return owner;
}

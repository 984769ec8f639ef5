// A portal customer changing their email (Polar's customers/me/email-update): a code goes to the
// new address, in a link to the portal; the code, used once before it expires, changes the email
// (verified), sends customer.updated and answers a new session token. Whether the address is
// another customer's is answered only to whoever holds the code, so a request probes nobody.
import type { Knex } from "knex";
import { renderEmail } from "../../emails/src/index.js";
import { toCustomer } from "../customers/models.js";
import { emailTaken, lockLiveInOrganization, updateCustomerRow } from "../customers/repository.js";
import { hashToken, randomToken, type CustomerCaller } from "../kit/auth.js";
import { checkEmail } from "../kit/email.js";
import { invalid, NotPermitted, Unauthorized } from "../kit/errors.js";
import { emit } from "../kit/outbox.js";
import { allowsEmailChange, brandOf } from "../organizations/models.js";
import { findOrganization } from "../organizations/repository.js";
import { sendCode } from "./codes.js";
import { portalBaseUrl } from "./models.js";
import { deleteEmailVerification, insertSession, liveEmailVerification, replaceEmailVerification } from "./repository.js";
import { CUSTOMER_SESSION_TTL_MS } from "./service.js";

/** How long an email change code works (Polar's EMAIL_VERIFICATION_TTL_SECONDS). */
export const EMAIL_UPDATE_TTL_MINUTES = 30;

const INVALID_CODE = "This email change code is wrong, was already used, or has expired. Ask for a new one.";

/** The organization's customer portal; its verify-email route (portal/src) takes the code. */
const portalUrl = (organizationSlug: string) => `${portalBaseUrl()}/${encodeURIComponent(organizationSlug)}/portal`;

export async function requestEmailUpdate(db: Knex, caller: CustomerCaller, input: { email: string }): Promise<null> {
  const email = checkEmail(input.email);
  const org = await findOrganization(db, caller.organizationId);
  if (!org || !allowsEmailChange(org.customer_portal_settings)) {
    throw new NotPermitted("Email changes are not enabled for this organization.");
  }
  await db.transaction(async (trx) => {
    const customer = await lockLiveInOrganization(trx, caller.organizationId, caller.customerId);
    if (!customer) throw new Unauthorized("Invalid or expired customer session.");
    if (customer.email.toLowerCase() === email.toLowerCase()) {
      throw invalid(["body", "email"], "The new email is the same as your current email.", "value_error", input.email);
    }
    const token = randomToken("polar_cev_");
    const expiresAt = new Date(Date.now() + EMAIL_UPDATE_TTL_MINUTES * 60_000);
    await replaceEmailVerification(trx, {
      organization_id: caller.organizationId,
      customer_id: customer.id,
      email,
      token_hash: hashToken(token),
      expires_at: expiresAt,
    });
    const mail = await renderEmail({
      kind: "customer_email_update_verification",
      brand: brandOf(org),
      props: {
        customer_name: customer.name,
        customer_email: email,
        portal_url: portalUrl(org.slug),
        current_email: customer.email,
        verify_url: `${portalUrl(org.slug)}/verify-email?token=${encodeURIComponent(token)}`,
        expires_in_minutes: EMAIL_UPDATE_TTL_MINUTES,
        expires_at: expiresAt.toISOString(),
      },
    });
    // Sent before commit: a code that could not be sent is not kept.
    await sendCode({ to: email, subject: mail.subject, text: mail.text, html: mail.html }, "email change codes");
  });
  return null;
}

/** 204 when the code can still be used; 401 otherwise. */
export async function checkEmailUpdate(db: Knex, token: string): Promise<void> {
  if (!(await liveEmailVerification(db, hashToken(token)))) throw new Unauthorized(INVALID_CODE);
}

export async function verifyEmailUpdate(db: Knex, input: { token: string }): Promise<{ token: string }> {
  return db
    .transaction(async (trx) => {
      const row = await liveEmailVerification(trx, hashToken(input.token), { forUpdate: true });
      if (!row) throw new Unauthorized(INVALID_CODE);
      const customer = await lockLiveInOrganization(trx, row.organization_id, row.customer_id);
      if (!customer) throw new Unauthorized(INVALID_CODE);
      if (await emailTaken(trx, { organizationId: row.organization_id }, row.email, customer.id)) {
        throw invalid(["body", "token"], "This email address is already in use.", "value_error");
      }
      const updated = await updateCustomerRow(trx, customer.id, { email: row.email, email_verified: true, modified_at: new Date() });
      await deleteEmailVerification(trx, row.id);
      await emit(trx, row.organization_id, "customer.updated", toCustomer(updated));
      const token = randomToken("polar_cst_");
      await insertSession(trx, {
        customer_id: customer.id,
        token_hash: hashToken(token),
        expires_at: new Date(Date.now() + CUSTOMER_SESSION_TTL_MS),
      });
      return { token };
    })
    .catch((err: unknown) => {
      // Another customer verified the same address first: the unique index holds.
      const e = err as { code?: string; constraint?: string };
      if (e?.code === "23505" && e.constraint === "customers_org_email") {
        throw invalid(["body", "token"], "This email address is already in use.", "value_error");
      }
      throw err;
    });
}

// The portal's team: a team customer's owner sees its members, adds one, changes a role (making
// another member the owner hands ownership over) and removes one. The server holds every rule and
// answers a customer that is not a team, or an organization without members, with a 403.
import { useState } from "react";
import {
  customerPortalMembersAddMember,
  customerPortalMembersListMembers,
  customerPortalMembersRemoveMember,
  customerPortalMembersUpdateMember,
} from "../../../../generated/client/sdk.gen.js";
import type { MemberRole } from "../../../../generated/client/types.gen.js";
import { ApiFailure, call, send } from "../../api/errors.js";
import { Alert, aria, Button, Field, Loading } from "../../ui/components.js";
import { usePortal } from "./context.js";
import { useLoad } from "./data.js";
import { Failed } from "./layout.js";

const ROLES: { id: MemberRole; label: string }[] = [
  { id: "owner", label: "Owner" },
  { id: "billing_manager", label: "Billing manager" },
  { id: "member", label: "Member" },
];

const messageOf = (err: unknown) => (err instanceof ApiFailure ? err.detail : String(err));

export function TeamSection() {
  const { client } = usePortal();
  const [members, reload] = useLoad(() => call(customerPortalMembersListMembers({ client, query: { limit: 100 } })), [client]);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("member");
  const [addErrors, setAddErrors] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);

  const add = async () => {
    setBusy("add");
    setAddErrors({});
    try {
      await call(customerPortalMembersAddMember({ client, body: { email, role } }));
      setEmail("");
      reload();
    } catch (err) {
      setAddErrors(err instanceof ApiFailure ? { ...err.fields, form: err.detail } : { form: String(err) });
    } finally {
      setBusy(null);
    }
  };
  const act = async (id: string, change: { role: MemberRole } | null) => {
    setBusy(id);
    setErrors((e) => ({ ...e, [id]: "" }));
    try {
      if (change) await call(customerPortalMembersUpdateMember({ client, path: { id }, body: change }));
      else await send(customerPortalMembersRemoveMember({ client, path: { id } }));
      reload();
    } catch (err) {
      setErrors((e) => ({ ...e, [id]: messageOf(err) }));
    } finally {
      setBusy(null);
    }
  };

  if (members.state === "loading") return <Loading label="Loading your team…" />;
  if (members.state === "failed") return <Failed error={members.error} />;
  return (
    <section aria-labelledby="team-title">
      <h2 id="team-title">Team</h2>
      <form
        className="card"
        aria-labelledby="team-add-title"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <h3 id="team-add-title">Add a member</h3>
        <Field label="Email" required error={addErrors.email}>
          {(ids) => <input {...aria(ids)} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Role" error={addErrors.role}>
          {(ids) => (
            <select
              {...aria(ids)}
              value={role}
              onChange={(e) => setRole(e.target.value === "billing_manager" ? "billing_manager" : "member")}
            >
              <option value="member">Member</option>
              <option value="billing_manager">Billing manager</option>
            </select>
          )}
        </Field>
        {addErrors.form && !addErrors.email && !addErrors.role ? <Alert kind="error">{addErrors.form}</Alert> : null}
        <div className="actions">
          <Button kind="primary" type="submit" busy={busy === "add"}>
            Add member
          </Button>
        </div>
      </form>
      <ul className="list">
        {members.data.items.map((m) => (
          <li key={m.id} className="card" data-testid="team-member">
            <div className="row">
              <span>
                {m.name ? `${m.name} · ` : ""}
                {m.email}
              </span>
              <span className="row">
                <label className="visually-hidden" htmlFor={`role-${m.id}`}>
                  Role of {m.email}
                </label>
                <select
                  id={`role-${m.id}`}
                  value={m.role}
                  disabled={busy === m.id}
                  onChange={(e) => {
                    const next = ROLES.find((r) => r.id === e.target.value);
                    if (next) void act(m.id, { role: next.id });
                  }}
                >
                  {ROLES.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.label}
                    </option>
                  ))}
                </select>
                {m.role !== "owner" ? (
                  <Button kind="danger" busy={busy === m.id} label={`Remove ${m.email}`} onClick={() => void act(m.id, null)}>
                    Remove
                  </Button>
                ) : null}
              </span>
            </div>
            {errors[m.id] ? <Alert kind="error">{errors[m.id]}</Alert> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

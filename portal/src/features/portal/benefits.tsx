// A customer's benefit grants, each as its type calls for: a license key with its status, usage
// and activations (free a seat); downloads with their links; GitHub and Discord access with the
// account to connect; a note; meter credits. Used by the portal and the checkout confirmation.
import { useEffect, useState } from "react";
import type { Client } from "../../../../generated/client/client/index.js";
import {
  customerPortalBenefitGrantsUpdate,
  customerPortalDownloadablesList,
  customerPortalLicenseKeysDeactivate,
  customerPortalLicenseKeysGet,
} from "../../../../generated/client/sdk.gen.js";
import type { CustomerBenefitGrant, DownloadableRead, LicenseKeyWithActivations } from "../../../../generated/client/types.gen.js";
import { ApiFailure, call, send } from "../../api/errors.js";
import { Alert, aria, Button, Field, Loading } from "../../ui/components.js";
import { formatDate } from "../../ui/format.js";
import { useOptimistic } from "../../ui/inputs.js";

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      kind="secondary"
      label={label}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}

function LicenseKey({ client, id }: { client: Client; id: string }) {
  const [key, setKey] = useState<LicenseKeyWithActivations | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    call(customerPortalLicenseKeysGet({ client, path: { id } })).then(setKey, (e: unknown) =>
      setError(e instanceof ApiFailure ? e.detail : String(e)),
    );
  }, [client, id]);
  if (error) return <Alert kind="error">{error}</Alert>;
  if (!key) return <Loading label="Loading the license key…" />;
  const deactivate = async (activationId: string) => {
    setBusy(activationId);
    try {
      await send(
        customerPortalLicenseKeysDeactivate({
          client,
          body: { key: key.key, organization_id: key.organization_id, activation_id: activationId },
        }),
      );
      setKey({ ...key, activations: key.activations.filter((a) => a.id !== activationId) });
    } catch (e) {
      setError(e instanceof ApiFailure ? e.detail : String(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="license-key">
      <div className="license-key__row">
        <code className="license-key__key" data-testid="license-key">
          {key.key}
        </code>
        <CopyButton text={key.key} label="Copy license key" />
      </div>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge badge--${key.status}`}>{key.status}</span>
          </dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{key.expires_at ? formatDate(key.expires_at) : "Never"}</dd>
        </div>
        <div>
          <dt>Usage</dt>
          <dd>{key.limit_usage ? `${key.usage} of ${key.limit_usage}` : key.usage}</dd>
        </div>
        <div>
          <dt>Activations</dt>
          <dd>{key.limit_activations ? `${key.activations.length} of ${key.limit_activations}` : key.activations.length}</dd>
        </div>
      </dl>
      {key.activations.length ? (
        <table className="table">
          <caption className="visually-hidden">Activations of this license key</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Activated</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {key.activations.map((a) => (
              <tr key={a.id}>
                <td>{a.label}</td>
                <td>{formatDate(a.created_at)}</td>
                <td>
                  <Button kind="link" busy={busy === a.id} label={`Deactivate ${a.label}`} onClick={() => void deactivate(a.id)}>
                    Deactivate
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/** The files of a granted downloadables benefit, read again when the grant is (re)granted. */
function Downloads({ client, benefitId, grantedAt }: { client: Client; benefitId: string; grantedAt: string | null }) {
  const [items, setItems] = useState<DownloadableRead[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    call(customerPortalDownloadablesList({ client, query: { benefit_id: [benefitId], limit: 100 } })).then(
      (page) => live && setItems(page.items),
      (e: unknown) => live && setError(e instanceof ApiFailure ? e.detail : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, benefitId, grantedAt]);
  if (error) return <Alert kind="error">{error}</Alert>;
  if (!items) return <Loading label="Loading downloads…" />;
  if (!items.length) return <p className="muted">No files yet.</p>;
  return (
    <ul className="downloads">
      {items.map((d) => (
        <li key={d.id}>
          <a href={d.file.download.url} download={d.file.name}>
            Download {d.file.name}
          </a>{" "}
          <span className="muted">
            {d.file.size_readable}
            {d.file.version ? ` · version ${d.file.version}` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}

function ConnectAccount({
  client,
  grant,
  onChanged,
}: {
  client: Client;
  grant: CustomerBenefitGrant;
  onChanged: (g: CustomerBenefitGrant) => void;
}) {
  const [account, setAccount] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (grant.benefit.type !== "github_repository" && grant.benefit.type !== "discord") return null;
  const github = grant.benefit.type === "github_repository";
  const props: Record<string, unknown> = grant.properties;
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  const connected = text(props.granted_account_id) ?? text(props.account_id);
  if (connected) {
    return (
      <p>
        {github ? "GitHub account" : "Discord account"}: <strong>{connected}</strong>
        {grant.is_granted ? "" : " (access is being set up)"}
      </p>
    );
  }
  const submit = async () => {
    if (!account.trim()) {
      setError(github ? "Enter your GitHub username." : "Enter your Discord user ID.");
      return;
    }
    setBusy(true);
    try {
      const body = github
        ? { benefit_type: "github_repository" as const, properties: { account_id: account.trim() } }
        : { benefit_type: "discord" as const, properties: { account_id: account.trim() } };
      onChanged(await call(customerPortalBenefitGrantsUpdate({ client, path: { id: grant.id }, body })));
      setError(undefined);
    } catch (e) {
      setError(e instanceof ApiFailure ? (e.fields["properties.account_id"] ?? e.detail) : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Field
        label={github ? "Your GitHub username" : "Your Discord user ID"}
        help={
          github
            ? "You'll get an invitation to the repository on GitHub."
            : "Find it in Discord under Settings → Advanced → Developer Mode, then right-click your name → Copy User ID."
        }
        error={error}
      >
        {(ids) => <input {...aria(ids)} value={account} onChange={(e) => setAccount(e.target.value)} />}
      </Field>
      <Button type="submit" busy={busy}>
        Connect
      </Button>
    </form>
  );
}

export function GrantCard({ client, grant: latest }: { client: Client; grant: CustomerBenefitGrant }) {
  // The newest read of the grant wins (a grant being set up gets its key a moment later).
  const [grant, setGrant] = useOptimistic(latest);
  const b = grant.benefit;
  const properties: Record<string, unknown> = grant.properties;
  const licenseKeyId = typeof properties.license_key_id === "string" ? properties.license_key_id : null;
  return (
    <article className="grant card" aria-labelledby={`grant-${grant.id}`}>
      <h3 id={`grant-${grant.id}`}>{b.description}</h3>
      {grant.is_revoked ? <p className="badge badge--revoked">Revoked {formatDate(grant.revoked_at)}</p> : null}
      {b.type === "license_keys" && licenseKeyId ? <LicenseKey client={client} id={licenseKeyId} /> : null}
      {b.type === "downloadables" && grant.is_granted ? <Downloads client={client} benefitId={b.id} grantedAt={grant.granted_at} /> : null}
      {b.type === "github_repository" ? (
        <>
          <p>
            Access to the GitHub repository{" "}
            <strong>
              {b.properties.repository_owner}/{b.properties.repository_name}
            </strong>
            .
          </p>
          <ConnectAccount client={client} grant={grant} onChanged={setGrant} />
        </>
      ) : null}
      {b.type === "discord" ? (
        <>
          <p>A role on the seller's Discord server.</p>
          <ConnectAccount client={client} grant={grant} onChanged={setGrant} />
        </>
      ) : null}
      {b.type === "custom" && b.properties.note ? <p className="note">{b.properties.note}</p> : null}
      {b.type === "meter_credit" ? (
        <p>
          {b.properties.units} units of usage credit{b.properties.rollover ? ", unused units roll over" : ""}.
        </p>
      ) : null}
      {!grant.is_granted && !grant.is_revoked && b.type !== "github_repository" && b.type !== "discord" ? (
        <p className="muted">Being set up…</p>
      ) : null}
    </article>
  );
}

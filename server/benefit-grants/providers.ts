// The adapters behind the discord and github_repository grants: plain HTTP calls to the provider's
// API. Off unless DISCORD_BOT_TOKEN / GITHUB_TOKEN is set; DISCORD_API_BASE_URL and
// GITHUB_API_BASE_URL point elsewhere. Settings are read at each call, so no restart is needed.
// Failures throw ProviderError; the grant job records it on the grant and Temporal retries.

import { setting } from "../config.js";

export class ProviderError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;

async function call(provider: string, url: string, init: RequestInit & { okStatuses?: number[] }): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, Object.assign({}, init, { signal: AbortSignal.timeout(TIMEOUT_MS) }));
  } catch (err) {
    throw new ProviderError(`${provider}_unreachable`, `${provider} could not be reached: ${(err as Error).message}`);
  }
  if (res.ok || init.okStatuses?.includes(res.status)) return;
  const text = await res.text().catch(() => "");
  throw new ProviderError(`${provider}_error`, `${provider} answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ""}`);
}

function config(provider: "discord" | "github"): { token: string; base: string } {
  const token = setting(provider === "discord" ? "DISCORD_BOT_TOKEN" : "GITHUB_TOKEN");
  if (!token) {
    throw new ProviderError(
      `${provider}_not_configured`,
      `${provider === "discord" ? "DISCORD_BOT_TOKEN" : "GITHUB_TOKEN"} is not configured.`,
    );
  }
  const base = setting(provider === "discord" ? "DISCORD_API_BASE_URL" : "GITHUB_API_BASE_URL");
  return { token, base: base.replace(/\/+$/, "") };
}

const seg = encodeURIComponent;

export const discord = {
  /** Gives the member the role (the member must have joined the server). */
  async addRole(guildId: string, userId: string, roleId: string): Promise<void> {
    const { token, base } = config("discord");
    await call("discord", `${base}/guilds/${seg(guildId)}/members/${seg(userId)}/roles/${seg(roleId)}`, {
      method: "PUT",
      headers: { authorization: `Bot ${token}`, "x-audit-log-reason": "Benefit granted" },
    });
  },
  /** Takes the role back; a member or role already gone is fine. */
  async removeRole(guildId: string, userId: string, roleId: string): Promise<void> {
    const { token, base } = config("discord");
    await call("discord", `${base}/guilds/${seg(guildId)}/members/${seg(userId)}/roles/${seg(roleId)}`, {
      method: "DELETE",
      headers: { authorization: `Bot ${token}`, "x-audit-log-reason": "Benefit revoked" },
      okStatuses: [404],
    });
  },
  async kick(guildId: string, userId: string): Promise<void> {
    const { token, base } = config("discord");
    await call("discord", `${base}/guilds/${seg(guildId)}/members/${seg(userId)}`, {
      method: "DELETE",
      headers: { authorization: `Bot ${token}`, "x-audit-log-reason": "Benefit revoked" },
      okStatuses: [404],
    });
  },
};

function githubHeaders(token: string) {
  return {
    authorization: `Bearer ${token}`,
    accept: "application/vnd.github+json",
    "user-agent": "borealis",
    "content-type": "application/json",
  };
}

export const github = {
  /** Invites (or updates) the user as a collaborator with `permission`. */
  async addCollaborator(owner: string, repo: string, username: string, permission: string): Promise<void> {
    const { token, base } = config("github");
    await call("github", `${base}/repos/${seg(owner)}/${seg(repo)}/collaborators/${seg(username)}`, {
      method: "PUT",
      headers: githubHeaders(token),
      body: JSON.stringify({ permission }),
    });
  },
  /** Removes the collaborator; one already gone is fine. */
  async removeCollaborator(owner: string, repo: string, username: string): Promise<void> {
    const { token, base } = config("github");
    await call("github", `${base}/repos/${seg(owner)}/${seg(repo)}/collaborators/${seg(username)}`, {
      method: "DELETE",
      headers: githubHeaders(token),
      okStatuses: [404],
    });
  },
};

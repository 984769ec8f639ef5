// Checks benefit properties against Discord and GitHub. Off unless configured (DISCORD_BOT_TOKEN:
// the bot is in the server and the role exists; GITHUB_TOKEN: the token sees the repository);
// otherwise properties are only checked for their shape. Tests install their own with
// `setBenefitVerifier`. With no Discord OAuth flow of our own, a `guild_token` is the server id.

import { setting } from "../config.js";

export interface ProviderIssue {
  /** Path inside `properties`, e.g. ["role_id"]. */
  loc: string[];
  msg: string;
  type: string;
}

export interface BenefitVerifier {
  /** Resolves the guild token to the server id and checks the role; an issue when refused. */
  discord?: (props: { guildToken: string; roleId: string }) => Promise<{ guildId: string } | ProviderIssue>;
  /** Checks the repository can be managed; an issue when refused. */
  github?: (props: { owner: string; name: string; permission: string }) => Promise<ProviderIssue | null>;
}

const SNOWFLAKE = /^\d{17,20}$/;

/** What the shape check alone can tell: a guild token must be a Discord server id. */
export function unverifiedGuild(guildToken: string): { guildId: string } | ProviderIssue {
  if (!SNOWFLAKE.test(guildToken)) {
    return { loc: ["guild_token"], msg: "The guild token must be the Discord server id (17 to 20 digits).", type: "value_error" };
  }
  return { guildId: guildToken };
}

function discordFromEnv(botToken: string): NonNullable<BenefitVerifier["discord"]> {
  return async ({ guildToken, roleId }) => {
    const guild = unverifiedGuild(guildToken);
    if ("loc" in guild) return guild;
    const res = await fetch(`https://discord.com/api/v10/guilds/${guild.guildId}/roles`, { headers: { authorization: `Bot ${botToken}` } });
    if (res.status === 403 || res.status === 404) {
      return { loc: ["guild_token"], msg: "The Borealis bot is not a member of this Discord server.", type: "guild_not_connected" };
    }
    if (!res.ok) throw new Error(`Discord answered ${res.status} listing roles`);
    const roles = (await res.json()) as { id: string }[];
    if (!roles.some((r) => r.id === roleId))
      return { loc: ["role_id"], msg: "This role does not exist on this server.", type: "invalid_role" };
    return guild;
  };
}

function githubFromEnv(token: string): NonNullable<BenefitVerifier["github"]> {
  return async ({ owner, name }) => {
    const res = await fetch(`https://api.github.com/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`, {
      headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json", "user-agent": "borealis" },
    });
    if (res.status === 404 || res.status === 403) {
      return {
        loc: ["repository_name"],
        msg: "Could not find this repository with the configured GitHub token.",
        type: "no_repository_access",
      };
    }
    if (!res.ok) throw new Error(`GitHub answered ${res.status} reading the repository`);
    const repo = (await res.json()) as { permissions?: { admin?: boolean } };
    if (!repo.permissions?.admin) {
      return {
        loc: ["repository_name"],
        msg: "The configured GitHub token cannot manage collaborators of this repository.",
        type: "no_repository_access",
      };
    }
    return null;
  };
}

let verifier: BenefitVerifier | null = null;

export function getBenefitVerifier(): BenefitVerifier {
  if (verifier) return verifier;
  const discordToken = setting("DISCORD_BOT_TOKEN");
  const githubToken = setting("GITHUB_TOKEN");
  verifier = Object.assign(
    {},
    discordToken ? { discord: discordFromEnv(discordToken) } : {},
    githubToken ? { github: githubFromEnv(githubToken) } : {},
  );
  return verifier;
}

/** Replaces the verifier (null: back to the environment's). */
export function setBenefitVerifier(v: BenefitVerifier | null): void {
  verifier = v;
}

// One strategy per benefit type: what granting, revoking, cycling (a subscription renewal) and
// updating (the benefit's properties changed) mean for it. Each returns the grant's new
// properties; a grant that needs the customer's linked account first answers `waiting`.
// Every call runs inside the job's transaction with the grant row locked.
import type { Knex } from "knex";
import type { BenefitRow } from "../benefits/models.js";
import type { CustomerRow } from "../customers/repository.js";
import {
  createLicenseKeyForGrant,
  revokeLicenseKey,
  updateLicenseKeyFromBenefit,
  type LicenseKeyBenefitProperties,
} from "../license-keys/service.js";
import { discord, github } from "./providers.js";
import { insertSystemEvent, type GrantRow } from "./repository.js";

type Props = Record<string, unknown>;

export interface StrategyContext {
  trx: Knex.Transaction;
  now: Date;
  /** When the job's system events happen: the cycle's period boundary, or its customer's test clock's now. */
  eventAt?: Date;
  grant: GrantRow;
  benefit: BenefitRow;
  customer: CustomerRow;
}

export type GrantOutcome = { properties: Props; waiting?: false } | { properties: Props; waiting: true };

export interface Strategy {
  grant(ctx: StrategyContext): Promise<GrantOutcome>;
  revoke(ctx: StrategyContext): Promise<Props>;
  cycle(ctx: StrategyContext): Promise<Props>;
  update(ctx: StrategyContext, previous: Props): Promise<Props>;
  /** A granted grant that must be granted again (the customer linked another account). */
  needsRegrant?(grant: GrantRow): boolean;
}

const keep = async (ctx: StrategyContext): Promise<Props> => ctx.grant.properties;

const custom: Strategy = {
  grant: async () => ({ properties: {} }),
  revoke: keep,
  cycle: keep,
  update: keep,
};

function activeFiles(benefit: BenefitRow): string[] {
  const p: Props = benefit.properties;
  const files = (p.files as string[] | undefined) ?? [];
  const archived = (p.archived as Record<string, boolean> | undefined) ?? {};
  return files.filter((f) => !archived[f]);
}

const downloadables: Strategy = {
  grant: async ({ benefit }) => ({ properties: { files: activeFiles(benefit) } }),
  revoke: keep,
  cycle: keep,
  update: async ({ benefit }) => ({ files: activeFiles(benefit) }),
};

async function credit(ctx: StrategyContext, meterId: string, units: number, rollover: boolean): Promise<Props> {
  await insertSystemEvent(ctx, "meter.credited", { meter_id: meterId, units, rollover });
  return { last_credited_meter_id: meterId, last_credited_units: units, last_credited_at: ctx.now.toISOString() };
}

const meterCredit: Strategy = {
  grant: async (ctx) => {
    const p = ctx.benefit.properties as { meter_id: string; units: number; rollover: boolean };
    return { properties: await credit(ctx, p.meter_id, p.units, p.rollover) };
  },
  // The units of the last credit are taken back.
  revoke: async (ctx) => {
    const last = ctx.grant.properties as { last_credited_meter_id?: string; last_credited_units?: number };
    if (last.last_credited_meter_id && last.last_credited_units) {
      await insertSystemEvent(ctx, "meter.credited", {
        meter_id: last.last_credited_meter_id,
        units: -last.last_credited_units,
        rollover: false,
      });
    }
    return ctx.grant.properties;
  },
  // Each cycle credits the units again; without rollover the balance is reset first.
  cycle: async (ctx) => {
    const p = ctx.benefit.properties as { meter_id: string; units: number; rollover: boolean };
    if (!p.rollover) await insertSystemEvent(ctx, "meter.reset", { meter_id: p.meter_id });
    return credit(ctx, p.meter_id, p.units, p.rollover);
  },
  // The current cycle follows the new units (the difference is credited), or moves to the new meter.
  update: async (ctx, previous) => {
    const p = ctx.benefit.properties as { meter_id: string; units: number; rollover: boolean };
    const last = ctx.grant.properties as { last_credited_meter_id?: string; last_credited_units?: number };
    const lastMeter = last.last_credited_meter_id ?? (previous.meter_id as string | undefined);
    const lastUnits = last.last_credited_units ?? 0;
    if (lastMeter === p.meter_id) {
      if (lastUnits === p.units) return ctx.grant.properties;
      await insertSystemEvent(ctx, "meter.credited", { meter_id: p.meter_id, units: p.units - lastUnits, rollover: p.rollover });
      return { last_credited_meter_id: p.meter_id, last_credited_units: p.units, last_credited_at: ctx.now.toISOString() };
    }
    if (lastMeter && lastUnits) await insertSystemEvent(ctx, "meter.credited", { meter_id: lastMeter, units: -lastUnits, rollover: false });
    return credit(ctx, p.meter_id, p.units, p.rollover);
  },
};

/** The account-linking types: the grant waits for properties.account_id (portal grant PATCH). */
function linkedAccount(
  providerProps: (properties: Props) => Props,
  add: (properties: Props, account: string) => Promise<void>,
  remove: (properties: Props, account: string) => Promise<void>,
): Strategy {
  return {
    async grant({ grant, benefit }) {
      const account = (grant.properties.account_id as string | null | undefined) ?? null;
      const granted = (grant.properties.granted_account_id as string | undefined) ?? null;
      const base = Object.assign({}, providerProps(benefit.properties), { account_id: account });
      if (!account) return { properties: base, waiting: true };
      // Another account than the one that has access: that one loses it first.
      if (granted && granted !== account) await remove(benefit.properties, granted);
      await add(benefit.properties, account);
      return { properties: Object.assign(base, { granted_account_id: account }) };
    },
    async revoke({ grant, benefit }) {
      const granted = grant.properties.granted_account_id as string | undefined;
      if (granted) await remove(benefit.properties, granted);
      const { granted_account_id: _gone, ...rest } = grant.properties;
      return rest;
    },
    cycle: keep,
    async update({ grant, benefit }, previous) {
      const granted = grant.properties.granted_account_id as string | undefined;
      if (!granted) return Object.assign({}, grant.properties, providerProps(benefit.properties));
      await remove(previous, granted);
      await add(benefit.properties, granted);
      return Object.assign({}, grant.properties, providerProps(benefit.properties));
    },
    needsRegrant: (grant) => Boolean(grant.properties.account_id) && grant.properties.account_id !== grant.properties.granted_account_id,
  };
}

const discordStrategy = linkedAccount(
  (p) => ({ guild_id: p.guild_id, role_id: p.role_id }),
  (p, account) => discord.addRole(String(p.guild_id), account, String(p.role_id)),
  (p, account) =>
    p.kick_member ? discord.kick(String(p.guild_id), account) : discord.removeRole(String(p.guild_id), account, String(p.role_id)),
);

const githubStrategy = linkedAccount(
  (p) => ({ repository_owner: p.repository_owner, repository_name: p.repository_name, permission: p.permission }),
  (p, account) => github.addCollaborator(String(p.repository_owner), String(p.repository_name), account, String(p.permission)),
  (p, account) => github.removeCollaborator(String(p.repository_owner), String(p.repository_name), account),
);

// A key per grant (prefix, expiry from ttl and timeframe, activation and usage limits); given
// again, a revoked grant gets its own key back.
const licenseKeys: Strategy = {
  async grant({ trx, now, grant, benefit }) {
    const key = await createLicenseKeyForGrant(trx, {
      organizationId: benefit.organization_id,
      customerId: grant.customer_id,
      benefitId: benefit.id,
      properties: benefit.properties as LicenseKeyBenefitProperties,
      now,
      existingLicenseKeyId: (grant.properties.license_key_id as string | undefined) ?? null,
    });
    return { properties: key };
  },
  async revoke({ trx, grant }) {
    if (typeof grant.properties.license_key_id === "string") await revokeLicenseKey(trx, grant.properties.license_key_id);
    return grant.properties;
  },
  cycle: keep,
  async update({ trx, grant, benefit }) {
    if (typeof grant.properties.license_key_id === "string") {
      await updateLicenseKeyFromBenefit(trx, grant.properties.license_key_id, benefit.properties as LicenseKeyBenefitProperties);
    }
    return grant.properties;
  },
};

const strategies: Readonly<Record<string, Strategy>> = {
  custom,
  license_keys: licenseKeys,
  downloadables,
  meter_credit: meterCredit,
  discord: discordStrategy,
  github_repository: githubStrategy,
};

export function strategyFor(type: string): Strategy {
  const s = strategies[type];
  if (!s) throw new Error(`No benefit grant strategy for type ${type}`);
  return s;
}

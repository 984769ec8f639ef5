// The demo data `make run` starts with: seeding twice keeps one organization and its products,
// and every run's token works with the official client.
import { describe, expect, it } from "vitest";
import { seedDemo, DEMO_SLUG } from "../../server/seed.js";
import { useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("seedDemo", () => {
  it("is idempotent and hands out working tokens", async () => {
    const first = await seedDemo(api.knex);
    const second = await seedDemo(api.knex);
    expect(second.organization.id).toBe(first.organization.id);
    expect(second.token).not.toBe(first.token);
    expect(await api.knex("organizations").where({ slug: DEMO_SLUG }).count({ n: "*" })).toEqual([{ n: 1 }]);
    for (const token of [first.token, second.token]) {
      const page = await api.client(token).products.list({ limit: 100 });
      expect(page.result.items.map((p) => p.name).sort()).toEqual([
        "API (usage based)",
        "Lifetime license",
        "Pay what you want",
        "Pro (monthly)",
        "Pro (yearly)",
      ]);
    }
    const types = (await api.client(first.token).products.list({ limit: 100 })).result.items.flatMap((p) =>
      p.prices.map((x) => x.amountType),
    );
    expect(new Set(types)).toEqual(new Set(["fixed", "custom", "metered_unit"]));
  });
});

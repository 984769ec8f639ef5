// Seat-based prices through the 0.49.0 client: created and read with their tiers and seat limits
// (volume and graduated), kept on update, the tier rules' 422s, and the organization's switch.
import { describe, expect, it } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { orgWithToken, rejects, useTestApi } from "../harness/index.js";
import { seatsAmount } from "../../server/products/seat-tiers.js";

const api = useTestApi();

async function shop(enabled = true): Promise<Polar049> {
  const { org, token } = await orgWithToken(api.knex);
  const polar = api.client049(token);
  await polar.organizations.update({ id: org.id, organizationUpdate: { featureSettings: { seatBasedPricingEnabled: enabled } } });
  return polar;
}

const TIERS = [
  { minSeats: 6, maxSeats: null, pricePerSeat: 800 },
  { minSeats: 1, maxSeats: 5, pricePerSeat: 1000 },
];

describe("seat-based prices", () => {
  it("creates, reads and keeps a seat-based price with its tiers sorted and its limits", async () => {
    const polar = await shop();
    const product = await polar.products.create({
      name: "Team",
      recurringInterval: "month",
      prices: [{ amountType: "seat_based", priceCurrency: "eur", seatTiers: { seatTierType: "graduated", tiers: TIERS } }],
    });
    const [price] = product.prices;
    expect(price).toMatchObject({
      amountType: "seat_based",
      priceCurrency: "eur",
      isArchived: false,
      seatTiers: {
        seatTierType: "graduated",
        tiers: [
          { minSeats: 1, maxSeats: 5, pricePerSeat: 1000 },
          { minSeats: 6, maxSeats: null, pricePerSeat: 800 },
        ],
        minimumSeats: 1,
        maximumSeats: null,
      },
    });
    expect(await polar.products.get({ id: product.id })).toEqual(product);
    // Kept as an existing price on update; replaced by a volume one with a maximum.
    const kept = await polar.products.update({ id: product.id, productUpdate: { name: "Team+", prices: [{ id: price.id }] } });
    expect(kept.prices).toEqual([price]);
    const volume = await polar.products.update({
      id: product.id,
      productUpdate: {
        prices: [
          { amountType: "seat_based", priceCurrency: "eur", seatTiers: { tiers: [{ minSeats: 2, maxSeats: 10, pricePerSeat: 500 }] } },
        ],
      },
    });
    expect(volume.prices).toHaveLength(1);
    expect(volume.prices[0]).toMatchObject({
      amountType: "seat_based",
      seatTiers: { seatTierType: "volume", minimumSeats: 2, maximumSeats: 10 },
    });
  });

  it("refuses tiers with a gap, an overlap, an unbounded tier before the last, or a second static price", async () => {
    const polar = await shop();
    const create = (tiers: typeof TIERS) =>
      polar.products.create({ name: "Bad", prices: [{ amountType: "seat_based", priceCurrency: "usd", seatTiers: { tiers } }] });
    const gap = await rejects(
      create([
        { minSeats: 1, maxSeats: 5, pricePerSeat: 1000 },
        { minSeats: 7, maxSeats: null, pricePerSeat: 800 },
      ]),
      HTTPValidationError,
    );
    expect(gap.detail?.[0]).toMatchObject({ loc: ["body", "prices", 0, "seat_tiers", "tiers"] });
    expect(gap.detail?.[0]?.msg).toContain("Gap or overlap");
    const unbounded = await rejects(
      create([
        { minSeats: 1, maxSeats: null, pricePerSeat: 1000 },
        { minSeats: 2, maxSeats: 4, pricePerSeat: 800 },
      ]),
      HTTPValidationError,
    );
    expect(unbounded.detail?.[0]?.msg).toContain("Only the last tier");
    const zero = await rejects(create([{ minSeats: 0, maxSeats: 3, pricePerSeat: 100 }]), HTTPValidationError);
    expect(zero.detail?.[0]?.loc).toEqual(["body", "prices", 0, "seat_tiers", "tiers", 0, "min_seats"]);
    const two = await rejects(
      polar.products.create({
        name: "Two",
        prices: [
          { amountType: "seat_based", priceCurrency: "usd", seatTiers: { tiers: TIERS } },
          { amountType: "fixed", priceCurrency: "usd", priceAmount: 1000 },
        ],
      }),
      HTTPValidationError,
    );
    expect(two.detail?.[0]?.loc).toEqual(["body", "prices"]);
  });

  it("is refused where seat-based pricing is off", async () => {
    const polar = await shop(false);
    const off = await rejects(
      polar.products.create({ name: "Team", prices: [{ amountType: "seat_based", priceCurrency: "usd", seatTiers: { tiers: TIERS } }] }),
      HTTPValidationError,
    );
    expect(off.detail?.[0]).toMatchObject({ loc: ["body", "prices", 0], msg: "Seat-based pricing is not enabled for this organization." });
  });

  it("prices seats by volume and graduated tiers", () => {
    const tiers = [
      { min_seats: 1, max_seats: 5, price_per_seat: 1000 },
      { min_seats: 6, max_seats: 10, price_per_seat: 800 },
      { min_seats: 11, max_seats: null, price_per_seat: 500 },
    ];
    expect(seatsAmount({ seat_tier_type: "volume", tiers }, 3)).toBe(3000);
    expect(seatsAmount({ seat_tier_type: "volume", tiers }, 7)).toBe(5600);
    expect(seatsAmount({ seat_tier_type: "volume", tiers }, 12)).toBe(6000);
    expect(seatsAmount({ seat_tier_type: "graduated", tiers }, 7)).toBe(5 * 1000 + 2 * 800);
    expect(seatsAmount({ seat_tier_type: "graduated", tiers }, 12)).toBe(5 * 1000 + 5 * 800 + 2 * 500);
    // Below the first tier's minimum, its rate applies.
    expect(seatsAmount({ seat_tier_type: "graduated", tiers: [{ min_seats: 3, max_seats: null, price_per_seat: 100 }] }, 2)).toBe(200);
  });
});

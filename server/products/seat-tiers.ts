// A seat-based price's tiers, as Polar's: sorted by min_seats, contiguous (each tier starts one past
// the previous one's max_seats), only the last unbounded. `volume` prices every seat at the rate of
// the tier the count falls in; `graduated` prices the seats of each tier at that tier's rate.
import type { components } from "../../generated/types.js";
import { invalid } from "../kit/errors.js";

type Loc = (string | number)[];
export interface SeatTier {
  min_seats: number;
  max_seats: number | null;
  price_per_seat: number;
}
export interface SeatTiers {
  seat_tier_type: components["schemas"]["SeatTierType"];
  tiers: SeatTier[];
}

/** The tiers as given, sorted and checked; a 422 at `loc` names what is wrong. */
export function checkSeatTiers(input: components["schemas"]["ProductPriceSeatTiersInput"], loc: Loc): SeatTiers {
  const tiers = [...input.tiers]
    .map((t) => ({ min_seats: t.min_seats, max_seats: t.max_seats ?? null, price_per_seat: t.price_per_seat }))
    .sort((a, b) => a.min_seats - b.min_seats);
  const tiersLoc = [...loc, "tiers"];
  if (tiers.length === 0) throw invalid(tiersLoc, "List should have at least 1 item after validation, not 0", "too_short");
  for (const [i, t] of tiers.entries()) {
    if (t.max_seats !== null && t.max_seats < t.min_seats) {
      throw invalid([...tiersLoc, i, "max_seats"], "max_seats must be greater than or equal to min_seats.");
    }
    const next = tiers[i + 1];
    if (!next) break;
    if (t.max_seats === null) throw invalid(tiersLoc, "Only the last tier can have unlimited max_seats (None)");
    if (next.min_seats !== t.max_seats + 1) {
      throw invalid(tiersLoc, `Gap or overlap between tiers: tier ending at ${t.max_seats} and tier starting at ${next.min_seats}`);
    }
  }
  return { seat_tier_type: input.seat_tier_type ?? "volume", tiers };
}

/** How many seats can be bought: from the first tier's min_seats to the last's max_seats (null: no limit). */
export function seatBounds(tiers: SeatTiers): { minimum: number; maximum: number | null } {
  return { minimum: tiers.tiers[0]?.min_seats ?? 1, maximum: tiers.tiers[tiers.tiers.length - 1]?.max_seats ?? null };
}

/** What `seats` seats cost, in minor units. Seats below the first tier are priced at its rate. */
export function seatsAmount(tiers: SeatTiers, seats: number): number {
  if (seats <= 0) return 0;
  if (tiers.seat_tier_type === "volume") {
    const tier = tiers.tiers.find((t) => t.max_seats === null || seats <= t.max_seats) ?? tiers.tiers[tiers.tiers.length - 1];
    return tier.price_per_seat * seats;
  }
  let total = 0;
  let from = 0;
  for (const t of tiers.tiers) {
    const upTo = t.max_seats === null ? seats : Math.min(seats, t.max_seats);
    if (upTo > from) total += (upTo - from) * t.price_per_seat;
    from = Math.max(from, upTo);
    if (from >= seats) break;
  }
  return total;
}

/** `seats` checked against the tiers' bounds (a 422 at `loc`): the seats to buy. */
export function checkSeatCount(tiers: SeatTiers, seats: number, loc: Loc): number {
  const { minimum, maximum } = seatBounds(tiers);
  if (!Number.isInteger(seats)) throw invalid(loc, "Input should be a valid integer", "int_type", seats);
  if (seats < minimum) throw invalid(loc, `Minimum ${minimum} seats required.`, "greater_than_equal", seats);
  if (maximum !== null && seats > maximum) throw invalid(loc, `Maximum ${maximum} seats allowed.`, "less_than_equal", seats);
  return seats;
}

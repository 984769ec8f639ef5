// The TypeScript evaluation of meter filters and aggregated values (used for the totals of batches
// written with COPY) against the SQL one, on random events and filter trees: wherever it answers
// (it declines where only the database can say), it answers as the database does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matches, NotEvaluable, numericValue, type EventValues } from "../../server/meters/evaluate.js";
import { filterSql, numericValueSql, type Aggregation, type Filter, type FilterClause } from "../../server/meters/filter.js";
import { useTestApi } from "../harness/index.js";

const api = useTestApi();

const scalar = fc.oneof(
  fc.constantFrom("5", "true", "ab", "", "x%y", "a_b", "é", "A", "a"),
  fc.integer({ min: -3, max: 10 }),
  fc.constantFrom(1.5, 0.1, -2.25, 3, 1e21, 2 ** 53),
  fc.boolean(),
);
const eventArb: fc.Arbitrary<EventValues> = fc.record({
  timestamp: fc.integer({ min: Date.parse("2025-01-01T00:00:00Z"), max: Date.parse("2025-12-31T00:00:00Z") }).map((t) => new Date(t)),
  name: fc.constantFrom("api_call", "call", "x_y", "Call"),
  source: fc.constantFrom("user", "system"),
  metadata: fc.dictionary(fc.constantFrom("a", "b", "c"), scalar, { maxKeys: 3 }),
});
const clauseArb: fc.Arbitrary<FilterClause> = fc.record({
  property: fc.constantFrom("a", "b", "c", "name", "source", "timestamp"),
  operator: fc.constantFrom("eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"),
  value: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("5", "true", "ab", "a", "A", "call", "Call", "user", "x%", "_") },
    fc.integer({ min: -3, max: 10 }),
    fc.constantFrom(1735700000, 1750000000),
    fc.boolean(),
  ),
});
const filterArb: fc.Arbitrary<Filter> = fc.letrec((tie) => ({
  filter: fc.record({
    conjunction: fc.constantFrom("and" as const, "or" as const),
    clauses: fc.array(fc.oneof({ depthSize: "small", withCrossShrink: true }, clauseArb, tie("filter") as fc.Arbitrary<Filter>), {
      maxLength: 3,
    }),
  }),
})).filter;
const aggregationArb: fc.Arbitrary<Aggregation> = fc.oneof(
  fc.constant<Aggregation>({ func: "count" }),
  fc.record({
    func: fc.constantFrom("sum" as const, "max" as const, "min" as const, "avg" as const),
    property: fc.constantFrom("a", "b", "timestamp", "name"),
  }),
);

const STRINGS = ["5", "true", "ab", "a", "A", "", "call", "Call", "x%", "_", "é"];
const CLAUSE_VALUES: FilterClause["value"][] = [...STRINGS, -1, 0, 5, 10, 1735700000, true, false];

/** Every event of small sets of names, sources, times and one metadata value of every kind. */
function everyEvent(): EventValues[] {
  const out: EventValues[] = [];
  const values: unknown[] = [undefined, ...STRINGS, -1, 0, 5, 1.5, 10, true, false];
  for (const name of ["call", "Call", "api_call", "x_y"]) {
    for (const [i, v] of values.entries()) {
      out.push({
        timestamp: new Date(1735700000_000 + i * 999),
        name,
        source: i % 2 ? "user" : "system",
        metadata: v === undefined ? {} : { a: v },
      });
    }
  }
  return out;
}

describe("meter filters evaluated in TypeScript", () => {
  it("agree with the SQL for every single clause over every kind of value", async () => {
    const events = everyEvent();
    const json = JSON.stringify(events.map((e, i) => ({ ...e, i, timestamp: e.timestamp.toISOString() })));
    let answered = 0;
    for (const property of ["a", "name", "source", "timestamp"]) {
      for (const operator of ["eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"] as const) {
        for (const value of CLAUSE_VALUES) {
          const filter: Filter = { conjunction: "and", clauses: [{ property, operator, value }] };
          const where = filterSql(filter);
          const { rows } = await api.knex.raw(
            `select ${where.sql} as hit from jsonb_to_recordset(?::jsonb) as events(i int, timestamp timestamptz, name text, source text, metadata jsonb) order by i`,
            [...where.bindings, json],
          );
          events.forEach((e, i) => {
            try {
              expect(matches(filter, e), JSON.stringify({ e, filter })).toBe(rows[i].hit);
              answered++;
            } catch (err) {
              if (!(err instanceof NotEvaluable)) throw err;
            }
          });
        }
      }
    }
    expect(answered).toBeGreaterThan(events.length * 4 * 8 * CLAUSE_VALUES.length * 0.6);
  }, 120_000);

  it("agree with the SQL wherever they answer", async () => {
    let answered = 0;
    let declined = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 1, maxLength: 12 }),
        filterArb,
        aggregationArb,
        async (events, filter, aggregation) => {
          const where = filterSql(filter);
          const value = numericValueSql(aggregation);
          const { rows } = await api.knex.raw(
            `select i, ${where.sql} as hit, ${value.sql} as v
           from jsonb_to_recordset(?::jsonb) as events(i int, timestamp timestamptz, name text, source text, metadata jsonb) order by i`,
            [
              ...where.bindings,
              ...value.bindings,
              JSON.stringify(events.map((e, i) => ({ ...e, i, timestamp: e.timestamp.toISOString() }))),
            ],
          );
          events.forEach((e, i) => {
            let hit: boolean;
            try {
              hit = matches(filter, e);
            } catch (err) {
              if (!(err instanceof NotEvaluable)) throw err;
              declined++;
              return;
            }
            answered++;
            expect(hit, JSON.stringify({ e, filter })).toBe(rows[i].hit);
            expect(numericValue(aggregation, e), JSON.stringify({ e, aggregation })).toBe(rows[i].v === null ? null : Number(rows[i].v));
          });
        },
      ),
      { numRuns: 500 },
    );
    // Most cases are answered here, not handed to the database.
    expect(answered).toBeGreaterThan(declined);
  }, 120_000);
});

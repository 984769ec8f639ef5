// The process under load in `make bench`: the real API on one port and, as the baseline, a bare
// Express route returning a product-sized JSON body on another. Prints its two URLs as JSON.
import express from "express";
import { createKnex } from "../server/kit/db.js";
import { startApi } from "../server/main.js";
import { NO_RATE_LIMITS } from "../server/kit/rate-limits.js";

const knex = createKnex(process.env.DATABASE_URL!, { pool: { min: 2, max: 10 } });
const api = await startApi({ knex, port: 0, rateLimits: NO_RATE_LIMITS });
const sample = JSON.parse(process.env.BENCH_SAMPLE_BODY ?? "{}");
const bare = express();
bare.get("/bare", (_req, res) => void res.json(sample));
const server = bare.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(JSON.stringify({ api: api.url, bare: `http://127.0.0.1:${port}/bare` }));
});
process.on("SIGTERM", async () => {
  server.close();
  await api.close();
  await knex.destroy();
  process.exit(0);
});

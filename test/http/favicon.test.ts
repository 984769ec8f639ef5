// GET /favicon.ico answers the buyer's pages' default icon (server/favicon.ts), never a 404.
import { describe, expect, it } from "vitest";
import { useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("/favicon.ico", () => {
  it("is the default icon, an .ico, cached for a day", async () => {
    const res = await fetch(`${api.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    const bytes = new Uint8Array(await res.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image.
    expect([...bytes.slice(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    const head = await fetch(`${api.url}/favicon.ico`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });
});

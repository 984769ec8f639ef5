// Bodies for the endpoint formats. `raw` sends the event as stored; `discord` and `slack` send
// what those services accept on their incoming-webhook URLs (Discord: `content` and `embeds`;
// Slack: `text` with `blocks`), summarizing the event and naming the object it is about.
import type { WebhookFormat } from "./models.js";

interface EventPayload {
  type: string;
  timestamp?: string;
  data?: Record<string, unknown> | null;
}

function describe(event: EventPayload): { title: string; fields: [string, string][] } {
  const data = event.data && typeof event.data === "object" ? event.data : {};
  const fields: [string, string][] = [];
  for (const key of ["id", "name", "email", "status", "amount", "currency"]) {
    const v = data[key];
    if (v !== undefined && v !== null && typeof v !== "object") fields.push([key, String(v)]);
  }
  return { title: `Polar event: ${event.type}`, fields };
}

export function formatBody(format: WebhookFormat, payload: string): string {
  if (format === "raw") return payload;
  const event = JSON.parse(payload) as EventPayload;
  const { title, fields } = describe(event);
  if (format === "discord") {
    return JSON.stringify({
      content: title,
      embeds: [
        Object.assign({ title: event.type }, event.timestamp ? { timestamp: event.timestamp } : {}, {
          fields: fields.map(([name, value]) => ({ name, value: value.slice(0, 1024), inline: true })),
        }),
      ],
    });
  }
  const text = fields.length ? `${title}\n${fields.map(([k, v]) => `*${k}*: ${v}`).join("\n")}` : title;
  return JSON.stringify({
    text: title,
    blocks: [{ type: "section", text: { type: "mrkdwn", text: text.slice(0, 3000) } }],
  });
}

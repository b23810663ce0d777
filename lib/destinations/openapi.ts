import { z } from "zod";
import { exampleBody } from "./examples";
import { ALL_SCHEMA_TYPES, eventBodySchema } from "./schemas";
import { TEST_EVENT_TYPE } from "./vocabulary";

const HEADERS = {
  "webhook-id": {
    description: "The event's id (msg_…): the same at every retry, so a receiver can deduplicate.",
    schema: { type: "string", pattern: "^msg_[0-9a-f]{32}$" },
  },
  "webhook-timestamp": {
    description: "When this attempt was signed, in seconds since the epoch. Refuse it when it is more than 5 minutes away from your clock.",
    schema: { type: "string" },
  },
  "webhook-signature": {
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the destination\'s secret (base64 after `whsec_`); during a rotation two such signatures, separated by a space.',
    schema: { type: "string" },
  },
} as const;

function jsonSchema(type: (typeof ALL_SCHEMA_TYPES)[number]) {
  const { $schema: _draft, ...schema } = z.toJSONSchema(eventBodySchema(type)) as Record<string, unknown>;
  void _draft;
  return schema;
}

/**
 * The contract of the events the console sends, as an OpenAPI 3.1 `webhooks` section: one entry
 * per type with its JSON Schema and an example made by the code that makes real events.
 * Written to public/events/openapi.json by `npm run events:openapi` (a test keeps it current).
 */
export function eventsOpenApi() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Console de pagamentos: eventos",
      version: "1",
      description:
        "Events the console sends to a producer's own systems (event destinations). Only facts the gateway confirmed become events. " +
        "Deliveries follow Standard Webhooks (https://www.standardwebhooks.com): verify them with the `standardwebhooks` library and the destination's secret. " +
        "Retries: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, always with the same webhook-id; answer 2xx within 15 s. " +
        "A 429 is retried no earlier than its Retry-After; a 410 disables the destination; redirects are not followed.",
    },
    webhooks: Object.fromEntries(
      ALL_SCHEMA_TYPES.map((type) => [
        type,
        {
          post: {
            summary: type === TEST_EVENT_TYPE ? "A test event, sent from the destination's page" : type,
            parameters: Object.entries(HEADERS).map(([name, header]) => ({ name, in: "header", required: true, ...header })),
            requestBody: { required: true, content: { "application/json": { schema: jsonSchema(type), example: exampleBody(type) } } },
            responses: {
              "2XX": { description: "Received. Any other answer (or none within 15 s) is retried on the schedule." },
              "410": { description: "Gone: the console disables this destination." },
              "429": { description: "Too many requests: the next attempt comes no earlier than Retry-After." },
            },
          },
        },
      ]),
    ),
  };
}

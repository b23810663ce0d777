import { z } from "zod";
import { ENDPOINTS, gatewayErrorBodySchema, paymentWebhookSchema } from "../contract/endpoints";
import { faultRequestSchema } from "../faults";
import {
  clockAdvanceRequestSchema,
  notifyRequestSchema,
  statusRequestSchema,
  settingsRequestSchema,
  transitionRequestSchema,
} from "./control";

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return json;
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/GatewayError" } } },
});

const security = [{ publicKey: [], secretKey: [] }];

function queryParameters(schema: JsonSchema) {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, prop]) => ({ name, in: "query", required: false, schema: prop }));
}

const anyObject = { type: "object", additionalProperties: true };

function controlOperation(summary: string, request: JsonSchema | null, response: JsonSchema = anyObject, params: string[] = []) {
  return {
    summary,
    tags: ["sandbox control"],
    security,
    parameters: params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...(request ? { requestBody: { required: true, content: { "application/json": { schema: request } } } } : {}),
    responses: {
      "200": { description: "OK", content: { "application/json": { schema: response } } },
      "400": errorResponse("Invalid request"),
      "401": errorResponse("Missing or invalid keys"),
      "404": errorResponse("Not found (or owned by another producer)"),
      "409": errorResponse("Transition not allowed from the current status"),
    },
  };
}

/** OpenAPI 3.1 document of the gateway interface and the sandbox control API, from the zod schemas. */
export function openApiDocument(publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
    const def = endpoint;
    const op: Record<string, unknown> = {
      operationId: name,
      summary: def.summary,
      tags: ["gateway"],
      security,
      responses: {
        "200": { description: "OK", content: { "application/json": { schema: toSchema(def.response, "output") } } },
        "400": errorResponse("Invalid request; the message names the field"),
        "401": errorResponse("Missing or invalid keys"),
        "404": errorResponse("Not found"),
        "413": errorResponse("Body larger than 1 MB"),
        "422": errorResponse("Invalid argument (e.g. a refund request already exists), or a transfer above the available balance"),
      },
    };
    if (def.request) op.requestBody = { required: true, content: { "application/json": { schema: toSchema(def.request, "input") } } };
    if (def.query) op.parameters = queryParameters(toSchema(def.query, "input"));
    paths[def.path] = { ...(paths[def.path] ?? {}), [def.method.toLowerCase()]: op };
  }
  const S = (schema: z.ZodType) => toSchema(schema, "input");
  paths["/sandbox/v1/transactions/{id}/events"] = {
    post: controlOperation("Move a transaction (pay, fail, cancel, refund, chargeback)", S(transitionRequestSchema), anyObject, ["id"]),
  };
  paths["/sandbox/v1/transactions/{id}/notify"] = {
    post: controlOperation("Re-send a webhook for the current state (to url when given)", S(notifyRequestSchema), anyObject, ["id"]),
  };
  paths["/sandbox/v1/transactions/{id}/status"] = {
    post: controlOperation(
      "Test tool: report any status from now on, outside the transition table (no webhook)",
      S(statusRequestSchema),
      anyObject,
      ["id"],
    ),
  };
  paths["/sandbox/v1/refunds/{id}/approve"] = { post: controlOperation("Approve a refund request", null, anyObject, ["id"]) };
  paths["/sandbox/v1/refunds/{id}/reject"] = { post: controlOperation("Reject a refund request", null, anyObject, ["id"]) };
  paths["/sandbox/v1/withdraws/{id}/complete"] = { post: controlOperation("Complete a withdraw", null, anyObject, ["id"]) };
  paths["/sandbox/v1/withdraws/{id}/fail"] = { post: controlOperation("Fail a withdraw", null, anyObject, ["id"]) };
  paths["/sandbox/v1/clock"] = { get: controlOperation("Read the producer's sandbox clock", null) };
  paths["/sandbox/v1/clock/advance"] = {
    post: controlOperation("Advance the sandbox clock and charge due subscriptions", S(clockAdvanceRequestSchema)),
  };
  paths["/sandbox/v1/deliveries"] = { get: controlOperation("Webhook deliveries and their attempts", null) };
  paths["/sandbox/v1/faults"] = {
    get: controlOperation("List queued faults", null),
    post: controlOperation("Queue faults for the next gateway calls", S(faultRequestSchema)),
    delete: controlOperation("Clear queued faults", null),
  };
  paths["/sandbox/v1/settings"] = {
    get: controlOperation("Read settings", null),
    put: controlOperation("Update settings (default webhook URL, release days)", S(settingsRequestSchema)),
  };
  paths["/sandbox/v1/balance"] = { get: controlOperation("The producer's balance at its sandbox clock", null) };
  return {
    openapi: "3.1.0",
    info: {
      title: "Payment gateway interface (sandbox)",
      version: "1.0.0",
      description:
        "Gateway interface /api/v1/gateway and the sandbox control API /sandbox/v1. Webhook payload: components.schemas.PaymentWebhook.",
    },
    servers: [{ url: publicUrl }],
    paths,
    components: {
      securitySchemes: {
        publicKey: { type: "apiKey", in: "header", name: "x-public-key" },
        secretKey: { type: "apiKey", in: "header", name: "x-secret-key" },
      },
      schemas: {
        GatewayError: toSchema(gatewayErrorBodySchema, "output"),
        PaymentWebhook: toSchema(paymentWebhookSchema, "output"),
      },
    },
  };
}

import type { Context } from "hono";
import { badRequest } from "./errors";

/**
 * Test tool (sandbox choice, not gateway behaviour): a request may say when it happens, so a
 * demo or a test can build a history whose gateway timestamps lie in the past. Honoured by the
 * charge endpoints, the hosted checkout's sale and the control API's transitions; everything the
 * request dates (createdAt, payedAt, refundedAt, the Pix end-to-end id, due-date checks, card
 * expiry) follows it. Never later than the real clock, at most MAX_BACKDATE_DAYS back.
 */
export const REQUEST_TIME_HEADER = "x-sandbox-at";
export const MAX_BACKDATE_DAYS = 400;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant a request acts at: its `x-sandbox-at` header, else the real clock. */
export function requestTime(c: Context): Date {
  const now = new Date();
  const raw = c.req.header(REQUEST_TIME_HEADER)?.trim();
  if (!raw) return now;
  const at = ISO_INSTANT.test(raw) ? new Date(raw) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw badRequest(`${REQUEST_TIME_HEADER}: deve ser um instante ISO 8601 com fuso (2025-03-14T15:09:26Z)`);
  }
  if (at.getTime() > now.getTime()) throw badRequest(`${REQUEST_TIME_HEADER}: não pode estar no futuro`);
  if (now.getTime() - at.getTime() > MAX_BACKDATE_DAYS * 86_400_000) {
    throw badRequest(`${REQUEST_TIME_HEADER}: no máximo ${MAX_BACKDATE_DAYS} dias no passado`);
  }
  return at;
}

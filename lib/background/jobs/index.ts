import "server-only";
import { destinationDeliveriesJob, destinationOutboxJob } from "@/lib/destinations/work";
import { payoutsJob } from "@/lib/payout-batches/work";
import type { Job } from "@/lib/runtime/jobs";
import { applierJob } from "@/lib/notifications/applier";
import { subscriptionSummariesJob } from "@/lib/subscriptions/work";
import { gatewayChecksJob } from "./gateway-checks";

/**
 * The console's background jobs, in the order a pass runs them: stored notifications onto the
 * ledger, the gateway checks the applier queued, then what leaves for the producer's systems
 * (events to destinations, approved batches' rows to the gateway), and the subscriptions'
 * summaries the confirmed charges changed.
 */
export const backgroundJobs: readonly Job[] = [
  applierJob,
  gatewayChecksJob,
  destinationOutboxJob,
  destinationDeliveriesJob,
  payoutsJob,
  subscriptionSummariesJob,
];

-- Incoming gateway calls are notifications (outgoing ones are events): the table says so. Only names change.
ALTER TABLE "webhook_events" RENAME TO "gateway_notifications";--> statement-breakpoint
ALTER TABLE "gateway_notifications" RENAME CONSTRAINT "webhook_events_pkey" TO "gateway_notifications_pkey";--> statement-breakpoint
ALTER TABLE "gateway_notifications" RENAME CONSTRAINT "webhook_events_account_id_gateway_accounts_id_fk" TO "gateway_notifications_account_id_gateway_accounts_id_fk";--> statement-breakpoint
ALTER SEQUENCE "webhook_events_feed_seq_seq" RENAME TO "gateway_notifications_feed_seq_seq";--> statement-breakpoint
ALTER INDEX "webhook_events_account_dedupe_key" RENAME TO "gateway_notifications_account_dedupe_key";--> statement-breakpoint
ALTER INDEX "webhook_events_account_first_idx" RENAME TO "gateway_notifications_account_first_idx";--> statement-breakpoint
ALTER INDEX "webhook_events_feed_seq_idx" RENAME TO "gateway_notifications_feed_seq_idx";--> statement-breakpoint
ALTER INDEX "webhook_events_ledger_idx" RENAME TO "gateway_notifications_ledger_idx";--> statement-breakpoint
ALTER INDEX "webhook_events_apply_pending_idx" RENAME TO "gateway_notifications_apply_pending_idx";

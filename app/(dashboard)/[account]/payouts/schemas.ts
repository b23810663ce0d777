import { z } from "zod";

/*
 * The batch payout forms' schemas: the form validates with them in the browser and the action
 * parses the same again on the server. Messages are i18n keys.
 *
 * A file or pasted rows travel as a Blob, never as a string: the action chain's input guard
 * refuses strings over 10,000 characters, and a paste of a few hundred rows is longer than that.
 */

const batchName = z.string().trim().min(1, { error: "errors.required" }).max(120, { error: "payouts.upload.nameTooLong" });
const isBlob = (value: unknown): value is Blob => typeof Blob !== "undefined" && value instanceof Blob;

/**
 * What the person fills: a name (not when a draft's file is uploaded again), and a file or pasted
 * rows. `maxBytes` is the parser's limit (lib/payout-batches/parse.ts).
 */
export function uploadFormSchema(maxBytes: number, { named = true }: { named?: boolean } = {}) {
  return z
    .object({
      name: named ? batchName : z.string().optional(),
      mode: z.enum(["file", "paste"]),
      file: z.custom<File | null>((value) => value === null || value === undefined || isBlob(value)).optional(),
      pasted: z.string().max(maxBytes, { error: "payouts.upload.pasteTooLong" }),
    })
    .superRefine((values, ctx) => {
      if (values.mode === "file") {
        if (!values.file) ctx.addIssue({ code: "custom", path: ["file"], message: "payouts.upload.fileRequired" });
        else if (values.file.size === 0) ctx.addIssue({ code: "custom", path: ["file"], message: "payouts.problems.empty" });
        else if (values.file.size > maxBytes) ctx.addIssue({ code: "custom", path: ["file"], message: "payouts.upload.fileTooLarge" });
      } else if (!values.pasted.trim()) {
        ctx.addIssue({ code: "custom", path: ["pasted"], message: "payouts.upload.pasteRequired" });
      }
    });
}
export type UploadFormValues = z.input<ReturnType<typeof uploadFormSchema>>;

/** What the action receives: the file as chosen, or the pasted text as a text Blob. */
export function uploadActionSchema(maxBytes: number) {
  return z.object({
    name: batchName,
    mode: z.enum(["file", "paste"]),
    fileName: z.string().trim().max(255).optional(),
    file: z
      .custom<Blob>(isBlob, { error: "payouts.upload.fileRequired" })
      .refine((blob) => blob.size > 0, { error: "payouts.problems.empty" })
      .refine((blob) => blob.size <= maxBytes, { error: "payouts.upload.fileTooLarge" }),
  });
}

/** The file uploaded again over a draft: the same, without a name. */
export function reuploadActionSchema(maxBytes: number) {
  return uploadActionSchema(maxBytes).omit({ name: true }).extend({ batchId: z.uuid() });
}

const cell = (max: number) => z.string().trim().max(max, { error: "payouts.fix.tooLong" });

/** A row fixed in place: its cells as text, validated again on the server like the file's. */
export const fixRowSchema = z.object({
  pixKey: cell(140),
  pixKeyType: cell(40),
  amount: cell(40),
  name: cell(200),
  document: cell(40),
  description: cell(200),
  reference: cell(100),
});
export type FixRowValues = z.input<typeof fixRowSchema>;

export const fixRowActionSchema = z.object({ batchId: z.uuid(), rowId: z.uuid(), cells: fixRowSchema });

export const batchIdSchema = z.object({ batchId: z.uuid() });

export const rowRemovedSchema = z.object({ batchId: z.uuid(), rowId: z.uuid(), removed: z.boolean() });

export const approveSchema = z.object({
  batchId: z.uuid(),
  password: z.string().min(1, { error: "transfers.errors.passwordRequired" }).max(200),
  code: z.string().trim().max(32).optional(),
});

export const rejectSchema = z.object({
  batchId: z.uuid(),
  reason: z.string().trim().min(1, { error: "payouts.reject.reasonRequired" }).max(500, { error: "payouts.reject.reasonTooLong" }),
});
export type RejectValues = z.input<typeof rejectSchema>;

export const selfApprovalSchema = z.object({ allow: z.boolean() });

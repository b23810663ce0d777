"use client";

import { useCallback, useMemo, useRef } from "react";
import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/** Where a form's zod schema comes from: `() => import("@/lib/x/schemas").then((m) => m.xSchema)`. */
export type SchemaLoader<S> = () => Promise<S>;

/**
 * A react-hook-form resolver that validates with a zod schema loaded when the form is first used,
 * not with the page: `events` (spread on the <form>) start loading the schema and zod's resolver
 * on the first focus, pointer press or key inside the form, and every validation awaits them, so
 * a form validates the same whether the code came early or late. The server action re-validates
 * with the same schema.
 */
type DeferredResolver<Input extends FieldValues, Output> = {
  resolver: Resolver<Input, unknown, Output>;
  prepare: () => Promise<Resolver<Input, unknown, Output>>;
  events: { onFocus: () => void; onPointerDown: () => void; onKeyDown: () => void };
};

/** `raw`: the submit handler gets the values as typed (the server action parses them itself). */
export function useDeferredResolver<Input extends FieldValues>(
  load: SchemaLoader<z.ZodType<unknown, Input>>,
  options: { raw: true },
): DeferredResolver<Input, Input>;
/** Otherwise it gets the schema's output (`Output`, when the schema transforms what was typed). */
export function useDeferredResolver<Input extends FieldValues, Output = Input>(
  load: SchemaLoader<z.ZodType<Output, Input>>,
  options?: { raw?: false },
): DeferredResolver<Input, Output>;
export function useDeferredResolver<Input extends FieldValues, Output>(
  load: SchemaLoader<z.ZodType<Output, Input>>,
  { raw = false }: { raw?: boolean } = {},
): DeferredResolver<Input, Output | Input> {
  // The first loader is the form's schema for its whole life (callers may pass a new arrow each render).
  const loader = useRef(load);
  const compiled = useRef<Promise<Resolver<Input, unknown, Output | Input>> | null>(null);
  const prepare = useCallback(() => {
    compiled.current ??= Promise.all([loader.current(), import("@hookform/resolvers/zod")]).then(
      ([schema, { zodResolver }]): Resolver<Input, unknown, Output | Input> =>
        raw ? zodResolver(schema, undefined, { raw: true }) : zodResolver(schema),
      (error: unknown) => {
        compiled.current = null;
        throw error;
      },
    );
    return compiled.current;
  }, [raw]);
  const resolver = useCallback<Resolver<Input, unknown, Output | Input>>(
    async (values, context, options) => (await prepare())(values, context, options),
    [prepare],
  );
  const events = useMemo(() => {
    const warm = () => void prepare().catch(() => {});
    return { onFocus: warm, onPointerDown: warm, onKeyDown: warm };
  }, [prepare]);
  return { resolver, prepare, events };
}

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
export function useDeferredResolver<T extends FieldValues>(load: SchemaLoader<z.ZodType<unknown, T>>, { raw = false }: { raw?: boolean } = {}) {
  // The first loader is the form's schema for its whole life (callers may pass a new arrow each render).
  const loader = useRef(load);
  const compiled = useRef<Promise<Resolver<T>> | null>(null);
  const prepare = useCallback(() => {
    compiled.current ??= Promise.all([loader.current(), import("@hookform/resolvers/zod")]).then(
      ([schema, { zodResolver }]) => (raw ? zodResolver(schema as never, undefined, { raw: true }) : zodResolver(schema as never)) as unknown as Resolver<T>,
      (error: unknown) => {
        compiled.current = null;
        throw error;
      },
    );
    return compiled.current;
  }, [raw]);
  const resolver = useCallback<Resolver<T>>(async (values, context, options) => (await prepare())(values, context, options), [prepare]);
  const events = useMemo(() => {
    const warm = () => void prepare().catch(() => {});
    return { onFocus: warm, onPointerDown: warm, onKeyDown: warm };
  }, [prepare]);
  return { resolver, prepare, events };
}

"use client";

import dynamic from "next/dynamic";
import { useToastRequested } from "./toast";

const Toaster = dynamic(() => import("./sonner"), { ssr: false });

/** Renders the toaster from the first toast on, so pages that never toast never load it. */
export function ToastHost() {
  return useToastRequested() ? <Toaster /> : null;
}

"use client";

import { useSyncExternalStore } from "react";
import type { toast as sonnerToast } from "sonner";

// Toasts load with the first one shown, not with every page: calls wait until the toaster has
// mounted (sonner drops toasts published before its Toaster subscribes), then go through in order.

type SonnerToast = typeof sonnerToast;
let requested = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => (markMounted = resolve));
let loaded: Promise<SonnerToast> | null = null;

function load(): Promise<SonnerToast> {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  return (loaded ??= Promise.all([import("sonner"), mounted]).then(([module]) => module.toast));
}

/** Called by the toaster once it listens. */
export function toasterMounted(): void {
  markMounted();
}

/** Whether a toast has been asked for yet (the host renders the toaster from then on). */
export function useToastRequested(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => requested,
    () => false,
  );
}

type Args = Parameters<SonnerToast>;
const show =
  (kind: "success" | "error" | "warning" | null) =>
  (...args: Args) => {
    void load().then((toast) => (kind ? toast[kind](...args) : toast(...args)));
  };

export const toast = Object.assign(show(null), { success: show("success"), error: show("error"), warning: show("warning") });

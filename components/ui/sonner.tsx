"use client";

import { useEffect } from "react";
import { useTheme } from "next-themes";
import { Toaster as Sonner, type ToasterProps } from "sonner";
import { toasterMounted } from "./toast";

/** Loaded with the first toast (components/ui/toast-host.tsx); call `toast` from components/ui/toast.ts. */
export default function Toaster(props: ToasterProps) {
  const { theme = "system" } = useTheme();
  // React runs a child's effects before its parent's: sonner's Toaster has subscribed by now.
  useEffect(() => toasterMounted(), []);
  return (
    <Sonner
      theme={theme as ToasterProps["theme"]}
      className="toaster group"
      position="bottom-right"
      closeButton
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          "--success-bg": "var(--popover)",
          "--success-text": "var(--success)",
          "--success-border": "var(--border)",
          "--error-bg": "var(--popover)",
          "--error-text": "var(--destructive)",
          "--error-border": "var(--border)",
          "--warning-bg": "var(--popover)",
          "--warning-text": "var(--warning)",
          "--warning-border": "var(--border)",
          "--border-radius": "var(--radius)",
        } as React.CSSProperties
      }
      toastOptions={{ classNames: { toast: "font-sans shadow-lg", description: "text-muted-foreground!" } }}
      {...props}
    />
  );
}

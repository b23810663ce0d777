"use client";

import type { ReactElement } from "react";
import { Deferred } from "./deferred";
import type { DialogPopupProps } from "./dialog";

const loadDialog = () => import("./dialog").then((m) => m.DialogPopup);

/**
 * A dialog whose code (radix dialog, focus trap, scroll lock) loads when its trigger is first
 * hovered, focused or clicked; `children` are its body, below the title and description.
 */
export function DeferredDialog({
  trigger,
  open,
  onOpenChange,
  ...props
}: DialogPopupProps & { trigger: ReactElement; open?: boolean; onOpenChange?: (open: boolean) => void }) {
  return <Deferred kind="dialog" load={loadDialog} trigger={trigger} open={open} onOpenChange={onOpenChange} props={props} />;
}

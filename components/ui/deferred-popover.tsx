"use client";

import type { ReactElement } from "react";
import { Deferred } from "./deferred";
import type { PopoverPopupProps } from "./popover";

const loadPopover = () => import("./popover").then((m) => m.PopoverPopup);

/** A popover whose code (radix popover, popper) loads when its trigger is first hovered, focused or clicked. */
export function DeferredPopover({
  trigger,
  open,
  onOpenChange,
  ...props
}: PopoverPopupProps & { trigger: ReactElement; open?: boolean; onOpenChange?: (open: boolean) => void }) {
  return <Deferred kind="popover" load={loadPopover} trigger={trigger} open={open} onOpenChange={onOpenChange} props={props} />;
}

"use client";

import { deferredPopup } from "./deferred";
import type { PopoverPopupProps } from "./popover";

/** A popover whose code (radix popover, popper) loads when its trigger is first hovered, focused or clicked. */
export const DeferredPopover = deferredPopup<PopoverPopupProps>("popover", () => import("./popover").then((m) => m.PopoverPopup));

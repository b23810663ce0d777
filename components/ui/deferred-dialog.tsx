"use client";

import { deferredPopup } from "./deferred";
import type { DialogPopupProps } from "./dialog";

/**
 * A dialog whose code (radix dialog, focus trap, scroll lock) loads when its trigger is first
 * hovered, focused or clicked; `children` are its body, below the title and description.
 */
export const DeferredDialog = deferredPopup<DialogPopupProps>("dialog", () => import("./dialog").then((m) => m.DialogPopup));

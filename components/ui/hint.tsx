"use client";

import type { ReactElement, ReactNode } from "react";
import { Deferred } from "./deferred";

const loadTooltip = () => import("./tooltip").then((m) => m.TooltipPopup);

/** A tooltip on `children` whose code (radix tooltip, popper) loads when it is first hovered or focused. */
export function Hint({ content, children }: { content: ReactNode; children: ReactElement }) {
  return <Deferred kind="tooltip" load={loadTooltip} trigger={children} props={{ content }} />;
}

"use client";

import * as React from "react";

/** What a deferred popup receives: the trigger to wrap in its own radix trigger, and its open state. */
export type PopupProps = {
  trigger: React.ReactElement;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * Loads `load` once, on demand; the value is kept for the life of the component. A failed load
 * (a dropped connection) may be tried again.
 */
export function useDeferred<T>(load: () => Promise<T>): [T | null, () => Promise<T>] {
  const [loaded, setLoaded] = React.useState<{ value: T } | null>(null);
  const pending = React.useRef<Promise<T> | null>(null);
  const preload = React.useCallback(() => {
    pending.current ??= load().then(
      (value) => {
        setLoaded({ value });
        return value;
      },
      (error: unknown) => {
        pending.current = null;
        throw error;
      },
    );
    return pending.current;
  }, [load]);
  return [loaded ? loaded.value : null, preload];
}

type TriggerProps = {
  onPointerEnter?: React.PointerEventHandler;
  onPointerLeave?: React.PointerEventHandler;
  onPointerDown?: React.PointerEventHandler;
  onFocus?: React.FocusEventHandler;
  onBlur?: React.FocusEventHandler;
  onKeyDown?: React.KeyboardEventHandler;
  onClick?: React.MouseEventHandler;
  disabled?: boolean;
};

/**
 * The kind of radix popup, which says how its trigger opens it (as radix's own trigger would):
 * menus on a press (pointer down, Enter, Space, arrows); selects on a mouse press, a tap or those
 * keys; dialogs and popovers on a click; tooltips when hovered or focused.
 */
export type PopupKind = "menu" | "select" | "dialog" | "popover" | "tooltip";

const PRESS_KEYS = ["Enter", " ", "ArrowDown", "ArrowUp"];
const HASPOPUP: Partial<Record<PopupKind, string>> = { menu: "menu", dialog: "dialog", popover: "dialog" };

/**
 * A radix popup (menu, select, popover, dialog, tooltip) whose code loads when it is first wanted:
 * until then only its trigger is rendered, with the same look and ARIA. Hovering or focusing the
 * trigger starts the download; opening it opens the popup as soon as it is there. From then on
 * `Popup` renders the trigger itself, inside its own radix trigger.
 */
export function Deferred<P extends object>({
  load,
  trigger,
  kind,
  open: controlledOpen,
  onOpenChange,
  props,
}: {
  /** A stable function (module level): `() => import("./x").then((m) => m.X)`. */
  load: () => Promise<React.ComponentType<P & PopupProps>>;
  trigger: React.ReactElement;
  kind: PopupKind;
  /** For a popup the page opens itself (a confirmation after a submit); uncontrolled otherwise. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  props: P;
}) {
  const [Popup, preload] = useDeferred(load);
  const [ownOpen, setOwnOpen] = React.useState(false);
  const open = controlledOpen ?? ownOpen;
  // The popup takes the trigger over only when first opened, never merely because its code
  // arrived (a hover warms it): a trigger replaced between a press and its release loses the click.
  const [opened, setOpened] = React.useState(false);
  // A press on a tooltip's trigger keeps the tooltip closed (as radix does) and the trigger in place.
  const [pressed, setPressed] = React.useState(false);
  const setOpen = React.useCallback(
    (next: boolean) => {
      if (next) setOpened(true);
      setOwnOpen(next);
      onOpenChange?.(next);
    },
    [onOpenChange],
  );
  // A tooltip opens only if the pointer (or focus) is still on its trigger once its code is there.
  const wanted = React.useRef(false);

  React.useEffect(() => {
    if (open && !Popup) preload().catch(() => {});
  }, [open, Popup, preload]);

  if (Popup && (opened || open) && !pressed) return <Popup {...props} trigger={trigger} open={open} onOpenChange={setOpen} />;

  const own = trigger.props as TriggerProps;
  const warm = () => void preload().catch(() => {});
  const openWhenLoaded = () =>
    void preload().then(
      () => (kind !== "tooltip" || wanted.current) && setOpen(true),
      () => {},
    );
  // Hovering or focusing the trigger warms the popup's code (a tooltip opens once it is there).
  const wantedNow = () => {
    wanted.current = true;
    if (kind === "tooltip") openWhenLoaded();
    else warm();
  };
  const handlers: TriggerProps = {
    onPointerEnter: (event) => (own.onPointerEnter?.(event), wantedNow()),
    onFocus: (event) => (own.onFocus?.(event), wantedNow()),
    onPointerLeave: (event) => {
      own.onPointerLeave?.(event);
      wanted.current = false;
      if (kind === "tooltip") {
        setPressed(false);
        setOwnOpen(false);
      }
    },
    onBlur: (event) => (own.onBlur?.(event), (wanted.current = false)),
  };
  if (kind === "tooltip") {
    handlers.onPointerDown = (event) => {
      own.onPointerDown?.(event);
      wanted.current = false;
      setPressed(true);
    };
  }
  if (kind === "menu" || kind === "select") {
    handlers.onPointerDown = (event) => {
      own.onPointerDown?.(event);
      if (own.disabled || event.button !== 0 || event.ctrlKey) return;
      if (kind === "select" && event.pointerType !== "mouse") return;
      // As radix does: a mouse press leaves no focus ring on the trigger.
      event.preventDefault();
      openWhenLoaded();
    };
    handlers.onKeyDown = (event) => {
      own.onKeyDown?.(event);
      if (own.disabled || !PRESS_KEYS.includes(event.key)) return;
      event.preventDefault();
      openWhenLoaded();
    };
  }
  if (kind !== "menu" && kind !== "tooltip") {
    handlers.onClick = (event) => {
      own.onClick?.(event);
      const tap = kind !== "select" || (event.nativeEvent as PointerEvent).pointerType !== "mouse";
      if (!event.defaultPrevented && tap) openWhenLoaded();
    };
  }
  const aria = kind === "tooltip" ? {} : { "aria-expanded": false, "aria-haspopup": HASPOPUP[kind], "data-state": "closed" };
  return React.cloneElement(trigger, { ...handlers, ...aria } as TriggerProps);
}

/**
 * A component for one popup module: it takes the popup's own props plus its trigger (and, when
 * the page opens it itself, its open state), and loads the module when first wanted.
 */
export function deferredPopup<P extends object>(kind: PopupKind, load: () => Promise<React.ComponentType<P & PopupProps>>) {
  return function DeferredPopup(props: P & { trigger: React.ReactElement; open?: boolean; onOpenChange?: (open: boolean) => void }) {
    // The popup's props pass through whole: Deferred sets trigger, open and onOpenChange after them.
    return (
      <Deferred<P> kind={kind} load={load} trigger={props.trigger} open={props.open} onOpenChange={props.onOpenChange} props={props} />
    );
  };
}

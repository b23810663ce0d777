import { CreditCard } from "lucide-react";
import { cn } from "@/lib/utils";

const BRAND_LABEL: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  elo: "Elo",
  hipercard: "Hipercard",
  diners: "Diners Club",
};

/** A card as the console may show it: brand, BIN and last 4 at most. */
export function MaskedCard({
  brand,
  bin,
  last4,
  owner,
  expiresAt,
  className,
}: {
  brand?: string | null;
  bin?: string | null;
  last4?: string | null;
  owner?: string | null;
  expiresAt?: string | null;
  className?: string;
}) {
  const middle = bin ? `${bin.slice(0, 4)} ${bin.slice(4, 6)}•• •••• ` : "•••• •••• •••• ";
  return (
    <div
      data-testid="masked-card"
      className={cn(
        "relative flex aspect-[1.586] w-full max-w-xs flex-col justify-between self-start overflow-hidden rounded-xl bg-gradient-to-br from-slate-800 to-slate-950 p-4 text-white shadow-md",
        className,
      )}
    >
      <div className="flex items-center justify-between text-xs font-medium tracking-wide text-white/70 uppercase">
        <span>{brand ? (BRAND_LABEL[brand] ?? brand) : ""}</span>
        <CreditCard className="size-5 text-white/60" aria-hidden />
      </div>
      <div className="font-mono text-lg tracking-widest tabular-nums" data-testid="masked-card-number">
        {middle}
        {last4 ?? "••••"}
      </div>
      <div className="flex items-end justify-between gap-2 text-xs text-white/80">
        <span className="truncate uppercase">{owner ?? ""}</span>
        <span className="tabular-nums">{expiresAt ?? ""}</span>
      </div>
    </div>
  );
}

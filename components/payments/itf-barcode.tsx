import { itfBars } from "@/lib/br/itf";
import { cn } from "@/lib/utils";

/** The boleto's ITF barcode drawn as SVG from its 44 digits (FEBRABAN: narrow 1, wide 3, quiet zones of 10). */
export function ItfBarcode({
  digits,
  height = 64,
  className,
  title,
}: {
  digits: string;
  height?: number;
  className?: string;
  title?: string;
}) {
  let symbol;
  try {
    symbol = itfBars(digits);
  } catch {
    return null;
  }
  const quiet = 10;
  const width = symbol.width + quiet * 2;
  return (
    <svg
      role="img"
      aria-label={title ?? digits}
      data-testid="itf-barcode"
      data-digits={digits}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      className={cn("h-16 w-full bg-white", className)}
    >
      {symbol.bars.map((bar) => (
        <rect key={bar.x} x={bar.x + quiet} y={0} width={bar.width} height={height} fill="#000" />
      ))}
    </svg>
  );
}

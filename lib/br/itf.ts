/** Interleaved 2 of 5: for each digit, which of its 5 elements are wide. */
const PATTERNS = ["00110", "10001", "01001", "11000", "00101", "10100", "01100", "00011", "10010", "01010"];

export type ItfBar = { x: number; width: number };
export type ItfSymbol = { bars: ItfBar[]; width: number };
export type ItfOptions = { narrow?: number; wide?: number };

/**
 * Bars of an ITF symbol (FEBRABAN boleto barcode), positions in modules from 0 without quiet zones.
 * Start guard: narrow bar, narrow space, narrow bar, narrow space. Stop: wide bar, narrow space, narrow bar.
 */
export function itfBars(digits: string, options: ItfOptions = {}): ItfSymbol {
  const narrow = options.narrow ?? 1;
  const wide = options.wide ?? 3;
  if (!/^\d*$/.test(digits) || digits.length % 2 !== 0 || digits.length === 0) {
    throw new RangeError("ITF encodes a non-empty, even number of digits");
  }
  const bars: ItfBar[] = [];
  let x = 0;
  const bar = (w: number) => {
    bars.push({ x, width: w });
    x += w;
  };
  const space = (w: number) => {
    x += w;
  };

  bar(narrow);
  space(narrow);
  bar(narrow);
  space(narrow);
  for (let i = 0; i < digits.length; i += 2) {
    const barPattern = PATTERNS[Number(digits[i])];
    const spacePattern = PATTERNS[Number(digits[i + 1])];
    for (let k = 0; k < 5; k++) {
      bar(barPattern[k] === "1" ? wide : narrow);
      space(spacePattern[k] === "1" ? wide : narrow);
    }
  }
  bar(wide);
  space(narrow);
  bar(narrow);
  return { bars, width: x };
}

/** Values of the interface that forms need in the browser, without the gateway's schemas. */
export const PERIODICITY_TYPES = ["DAYS", "WEEKS", "MONTHS", "YEARS"] as const;
export type PeriodicityType = (typeof PERIODICITY_TYPES)[number];

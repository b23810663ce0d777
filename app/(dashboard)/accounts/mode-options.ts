import type { Translate } from "@/lib/i18n/translate";

/** Test or live money: the two modes an account can be in, named as the console shows them. */
export const accountModeOptions = (t: Translate) => [
  { value: "test", label: t("accounts.modeTest") },
  { value: "live", label: t("accounts.modeLive") },
];

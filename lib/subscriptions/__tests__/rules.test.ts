import { describe, expect, it } from "vitest";
import { dictionaries } from "@/lib/i18n/messages";
import { createTranslator } from "@/lib/i18n/translate";
import { readPeriodicity, startOfSaoPauloDay } from "@/lib/subscriptions/periods";
import { deriveState, lostDay, type ChargeFacts, type SubscriptionFacts } from "@/lib/subscriptions/rules";
import { periodicityWords, stateWords, type Words } from "@/lib/subscriptions/words";

const pt = createTranslator("pt-BR", dictionaries["pt-BR"]);
const en = createTranslator("en", dictionaries.en);
const say = (words: Words, t = pt) => t(words.key, words.values);

const at = (iso: string) => new Date(iso);
const charge = (
  dueAt: string | null,
  paidAt: string | null = null,
  status = paidAt ? "COMPLETED" : "PENDING",
  chargeNumber: number | null = null,
): ChargeFacts => ({
  dueAt: dueAt ? at(dueAt) : null,
  paidAt: paidAt ? at(paidAt) : null,
  status,
  chargeNumber,
});
const monthly = (charges: readonly ChargeFacts[], extra: Partial<SubscriptionFacts> = {}): SubscriptionFacts => ({
  gatewayStatus: "ACTIVE",
  gatewayStatusAt: at("2026-01-10T15:00:00Z"),
  periodicity: { type: "MONTHS", every: 1 },
  charges,
  ...extra,
});

describe("periodicity in words", () => {
  it("says the common ones the way people do, in pt-BR and English", () => {
    const words = (type: string, every: number) => say(periodicityWords(readPeriodicity(type, every)));
    expect(words("MONTHS", 1)).toBe("mensal");
    expect(words("MONTHS", 3)).toBe("a cada 3 meses");
    expect(words("WEEKS", 1)).toBe("semanal");
    expect(words("WEEKS", 2)).toBe("a cada 2 semanas");
    expect(words("YEARS", 1)).toBe("anual");
    expect(words("YEARS", 2)).toBe("a cada 2 anos");
    expect(words("DAYS", 1)).toBe("diária");
    expect(words("DAYS", 10)).toBe("a cada 10 dias");
    expect(say(periodicityWords(readPeriodicity("WEEKS", 2)), en)).toBe("every 2 weeks");
    expect(say(periodicityWords(readPeriodicity("MONTHS", 1)), en)).toBe("monthly");
  });

  it("reads what a gateway sent defensively, and says when it cannot", () => {
    expect(readPeriodicity("months", "2")).toEqual({ type: "MONTHS", every: 2 });
    expect(readPeriodicity("FORTNIGHTS", 1)).toBeNull();
    expect(readPeriodicity("MONTHS", 0)).toBeNull();
    expect(readPeriodicity("MONTHS", 1.5)).toBeNull();
    expect(readPeriodicity(undefined, 1)).toBeNull();
    expect(say(periodicityWords(null))).toBe("periodicidade desconhecida");
  });
});

describe("derived states", () => {
  // Charge 1 paid; renewal 2 due on 10 Feb 2026 at 12:00 in São Paulo (15:00 UTC), unpaid.
  const unpaidRenewal = monthly([charge("2026-01-10T15:00:00Z", "2026-01-10T15:01:00Z"), charge("2026-02-10T15:00:00Z")]);

  it("ativa: the last charge that fell due is paid (a renewal not yet due changes nothing)", () => {
    expect(deriveState(unpaidRenewal, at("2026-02-10T14:59:59Z"))).toEqual({ state: "active", lastPaidAt: at("2026-01-10T15:01:00Z") });
    expect(say(stateWords(deriveState(unpaidRenewal, at("2026-02-01T00:00:00Z"))))).toBe("ativa");
  });

  it("aguardando pagamento up to the end of the third São Paulo day after the due date", () => {
    expect(deriveState(unpaidRenewal, at("2026-02-10T15:00:00Z"))).toEqual({
      state: "awaiting_payment",
      dueDay: "2026-02-10",
      daysSinceDue: 0,
    });
    // 13 Feb 23:59:59 in São Paulo is 14 Feb 02:59:59 UTC: still within the grace period.
    expect(deriveState(unpaidRenewal, at("2026-02-14T02:59:59Z"))).toMatchObject({ state: "awaiting_payment", daysSinceDue: 3 });
    expect(say(stateWords(deriveState(unpaidRenewal, at("2026-02-14T02:59:59Z"))))).toBe("aguardando pagamento");
  });

  it("em atraso há N dias from São Paulo's midnight after the grace period", () => {
    const state = deriveState(unpaidRenewal, at("2026-02-14T03:00:00Z"));
    expect(state).toEqual({ state: "overdue", dueDay: "2026-02-10", days: 4, missedPeriods: 1 });
    expect(say(stateWords(state))).toBe("em atraso há 4 dias");
    expect(say(stateWords(state), en)).toBe("overdue for 4 days");
    // A grace period of 0 days: overdue from the day after the due date, one day late.
    expect(say(stateWords(deriveState(unpaidRenewal, at("2026-02-11T03:00:00Z"), { graceDays: 0, lostAfterPeriods: 3 })))).toBe(
      "em atraso há 1 dia",
    );
  });

  it("perdida once N periods are missed: 10 Feb, 10 Mar and 10 Apr, each past its grace period", () => {
    expect(deriveState(unpaidRenewal, at("2026-04-14T02:59:59Z"))).toEqual({
      state: "overdue",
      dueDay: "2026-02-10",
      days: 62,
      missedPeriods: 2,
    });
    expect(deriveState(unpaidRenewal, at("2026-04-14T03:00:00Z"))).toEqual({
      state: "lost",
      dueDay: "2026-02-10",
      missedPeriods: 3,
      sinceDay: "2026-04-14",
    });
    // N per account: 2 periods.
    expect(deriveState(unpaidRenewal, at("2026-03-14T03:00:00Z"), { graceDays: 3, lostAfterPeriods: 2 })).toMatchObject({
      state: "lost",
      sinceDay: "2026-03-14",
    });
    expect(deriveState(unpaidRenewal, at("2026-03-14T02:59:59Z"), { graceDays: 3, lostAfterPeriods: 2 })).toMatchObject({
      state: "overdue",
    });
  });

  it("a later payment of the renewal makes it ativa again; a later unpaid renewal counts from the oldest unpaid", () => {
    const paidLate = monthly([
      charge("2026-01-10T15:00:00Z", "2026-01-10T15:01:00Z"),
      charge("2026-02-10T15:00:00Z", "2026-02-20T12:00:00Z"),
    ]);
    expect(deriveState(paidLate, at("2026-02-19T12:00:00Z"))).toMatchObject({ state: "overdue", days: 9 });
    expect(deriveState(paidLate, at("2026-02-20T12:00:00Z")).state).toBe("active");
    const twoUnpaid = monthly([...unpaidRenewal.charges, charge("2026-03-10T15:00:00Z")]);
    expect(deriveState(twoUnpaid, at("2026-03-20T12:00:00Z"))).toMatchObject({
      state: "overdue",
      dueDay: "2026-02-10",
      days: 38,
      missedPeriods: 2,
    });
  });

  it("a declined card's failed renewal is unpaid like any other, and periods keep being missed without new charges", () => {
    const declined = monthly([charge("2026-01-10T15:00:00Z", "2026-01-10T15:01:00Z"), charge("2026-02-10T15:00:00Z", null, "FAILED")]);
    expect(deriveState(declined, at("2026-02-12T12:00:00Z")).state).toBe("awaiting_payment");
    expect(deriveState(declined, at("2026-04-14T03:00:00Z")).state).toBe("lost");
  });

  it("cancelada when the gateway says so, from the time it said it", () => {
    const canceled = monthly(unpaidRenewal.charges, { gatewayStatus: "cancelled", gatewayStatusAt: at("2026-02-12T12:00:00Z") });
    expect(deriveState(canceled, at("2026-02-12T11:59:59Z")).state).toBe("awaiting_payment");
    expect(deriveState(canceled, at("2026-02-12T12:00:00Z"))).toEqual({ state: "canceled", since: at("2026-02-12T12:00:00Z") });
    // Statuses the console does not know are not read as canceled.
    expect(deriveState(monthly(unpaidRenewal.charges, { gatewayStatus: "FAILED" }), at("2026-02-11T12:00:00Z")).state).toBe(
      "awaiting_payment",
    );
  });

  it("desconhecido while the gateway has confirmed no charge that fell due; without a periodicity it is never lost", () => {
    expect(deriveState(monthly([]), at("2026-02-11T12:00:00Z"))).toEqual({ state: "unknown" });
    expect(deriveState(monthly([charge(null)]), at("2026-02-11T12:00:00Z"))).toEqual({ state: "unknown" });
    expect(say(stateWords({ state: "unknown" }))).toBe("desconhecido");
    const noPeriod = monthly(unpaidRenewal.charges, { periodicity: null });
    expect(deriveState(noPeriod, at("2027-01-01T12:00:00Z"))).toMatchObject({ state: "overdue", missedPeriods: 1 });
  });

  it("São Paulo days: a charge made at 23:30 in São Paulo (02:30 UTC next day) fell due on the São Paulo day", () => {
    const lateNight = monthly([charge("2026-03-01T02:30:00Z")]);
    expect(deriveState(lateNight, at("2026-03-01T02:31:00Z"))).toMatchObject({ dueDay: "2026-02-28", daysSinceDue: 0 });
    expect(deriveState(lateNight, at("2026-03-04T03:00:00Z"))).toMatchObject({ state: "overdue", days: 4 });
    expect(startOfSaoPauloDay({ year: 2026, month: 3, day: 1 }).toISOString()).toBe("2026-03-01T03:00:00.000Z");
    // São Paulo had summer time until 2019: midnight on 1 Jan 2019 was 02:00 UTC.
    expect(startOfSaoPauloDay({ year: 2019, month: 1, day: 1 }).toISOString()).toBe("2019-01-01T02:00:00.000Z");
  });

  it("the lost day of weekly, every-10-days and month-end subscriptions", () => {
    const rules = { graceDays: 3, lostAfterPeriods: 3 };
    expect(lostDay({ year: 2026, month: 1, day: 31 }, { type: "MONTHS", every: 1 }, rules)).toEqual({ year: 2026, month: 4, day: 4 });
    expect(lostDay({ year: 2026, month: 1, day: 1 }, { type: "WEEKS", every: 1 }, rules)).toEqual({ year: 2026, month: 1, day: 19 });
    expect(lostDay({ year: 2026, month: 1, day: 1 }, { type: "DAYS", every: 10 }, rules)).toEqual({ year: 2026, month: 1, day: 25 });
  });
});

describe("the account's rules as typed", () => {
  it("takes whole days from 0 to 60 and periods from 1 to 24, and names the field otherwise", async () => {
    const { stateRulesFormSchema } = await import("@/lib/subscriptions/rules-schema");
    expect(stateRulesFormSchema.parse({ graceDays: " 0 ", lostAfterPeriods: "24" })).toEqual({ graceDays: 0, lostAfterPeriods: 24 });
    for (const [graceDays, lostAfterPeriods, field] of [
      ["61", "3", "graceDays"],
      ["-1", "3", "graceDays"],
      ["2.5", "3", "graceDays"],
      ["3", "0", "lostAfterPeriods"],
      ["3", "25", "lostAfterPeriods"],
      ["3", "", "lostAfterPeriods"],
    ]) {
      const result = stateRulesFormSchema.safeParse({ graceDays, lostAfterPeriods });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        [field, `subscriptions.errors.${field}`],
      ]);
    }
  });
});

describe("charges in order", () => {
  it("orders by due time, then charge number; those not confirmed last; ties without a number keep their order", async () => {
    const { chargesInOrder } = await import("@/lib/subscriptions/rules");
    const due = (iso: string | null, n: number | null, id: string) => ({
      id,
      chargeNumber: n,
      dueAt: iso ? new Date(iso) : null,
      paidAt: null,
      status: null,
    });
    const charges = [
      due(null, null, "u1"),
      due("2026-10-01T15:00:00Z", null, "b1"),
      due(null, 3, "u3"),
      due("2026-10-01T15:00:00Z", null, "b2"),
      due("2026-09-01T15:00:00Z", 1, "a"),
      due("2026-10-01T15:00:00Z", 2, "b0"),
      due(null, null, "u2"),
    ];
    expect(chargesInOrder(charges).map((c) => c.id)).toEqual(["a", "b0", "b1", "b2", "u3", "u1", "u2"]);
  });
});

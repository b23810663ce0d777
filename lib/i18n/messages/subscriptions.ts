import { defineMessages } from "../define";

/** Assinaturas: the subscriptions the console created or learned from notifications, their states and figures. */
export const subscriptions = defineMessages(
  {
    periodicity: {
      days: "{count, plural, =1 {diária} other {a cada # dias}}",
      weeks: "{count, plural, =1 {semanal} other {a cada # semanas}}",
      months: "{count, plural, =1 {mensal} other {a cada # meses}}",
      years: "{count, plural, =1 {anual} other {a cada # anos}}",
      unknown: "periodicidade desconhecida",
    },
    state: {
      active: "ativa",
      awaiting_payment: "aguardando pagamento",
      overdue: "{count, plural, one {em atraso há # dia} other {em atraso há # dias}}",
      lost: "perdida",
      canceled: "cancelada",
      unknown: "desconhecido",
    },
  },
  {
    periodicity: {
      days: "{count, plural, =1 {daily} other {every # days}}",
      weeks: "{count, plural, =1 {weekly} other {every # weeks}}",
      months: "{count, plural, =1 {monthly} other {every # months}}",
      years: "{count, plural, =1 {yearly} other {every # years}}",
      unknown: "unknown periodicity",
    },
    state: {
      active: "active",
      awaiting_payment: "awaiting payment",
      overdue: "{count, plural, one {overdue for # day} other {overdue for # days}}",
      lost: "lost",
      canceled: "canceled",
      unknown: "unknown",
    },
  },
);

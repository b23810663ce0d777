/**
 * The benchmarks' synthetic ledgers: millions of rows in one statement each, so that the queries
 * measured run over production-sized tables. They live with the ledger's owner so that a change
 * of its columns meets them here; nothing in the product runs them.
 */
import { sql, type SQL } from "drizzle-orm";

/** Ledger rows: created over the last 3 years, Pix 60 % / card 30 % / boleto 10 %, 75 % paid, fee 2 % + R$ 0,39. */
export const BALANCE_BENCH_ROWS = `
  insert into ledger_transactions (id, account_id, kind, identifier, origin, submission, gateway_transaction_id, status, status_source,
    status_at, payment_method, amount_cents, fee_cents, currency, created_at, updated_at, paid_at, available_at, reversed_at)
  select 'bal-' || g, case when g % 10 = 0 then $2 else $1 end, (array['pix_charge','card_charge','boleto_charge'])[m], 'order-' || g,
    'console', 'SUBMITTED', 'tx_' || g,
    case when not paid then 'PENDING' when r < 20 then 'REFUNDED' when r < 25 then 'CHARGED_BACK' else 'COMPLETED' end,
    'lookup', created_at, (array['PIX','CREDIT_CARD','BOLETO'])[m], amount_cents, amount_cents / 50 + 39, 'BRL', created_at, created_at,
    case when paid then created_at + interval '5 minutes' end,
    case when paid then created_at + interval '5 minutes' + (array[0, 30, 1])[m] * interval '1 day' end,
    case when paid and r < 25 then created_at + interval '5 minutes' + (r % 10) * interval '1 day' end
  from (
    select g, created_at, amount_cents, (h / 3) % 1000 < 750 as paid, (h / 7) % 1000 as r,
      case when h % 10 < 6 then 1 when h % 10 < 9 then 2 else 3 end as m
    from (
      select g, ((g::bigint * 2654435761) % 4294967291)::bigint as h,
        now() - ((g::bigint * 7919) % (3 * 365 * 86400)) * interval '1 second' as created_at,
        (1990 + (g::bigint * 37) % 48000)::bigint as amount_cents
      from generate_series($3::bigint, $4::bigint) as g
    ) base
  ) drawn`;

/**
 * One statement makes every row: accounts 9 to 1 (the measured one and a neighbour), created over
 * the last 365 days, Pix 55 % / card 30 % / boleto 12 % / crypto (USD) 3 %, 8 % learned from the
 * gateway (external), statuses by method (Pix 78 % paid, card 82 % approved, boleto 60 % paid, the
 * rest pending, expired, cancelled or declined), 2 % of the paid refunded and 0.6 % charged back,
 * 5 % notified paid but not confirmed (pending_status, no paid_at), UTM values on 60 % of the rows.
 */
export const SALES_BENCH_ROWS = `
  insert into ledger_transactions (id, account_id, kind, identifier, origin, submission, gateway_transaction_id, status,
    status_source, status_at, pending_status, pending_status_at, payment_method, amount_cents, fee_cents, currency, client_name,
    client_email, client_document, request, created_at, updated_at, paid_at, utm_source, utm_medium, utm_campaign, product_name,
    offer_code, origin_label)
  select 'bench-' || g, case when g % 10 = 0 then $2 else $1 end,
    case when external then 'external' else (array['pix_charge','card_charge','boleto_charge','crypto_charge'])[m] end,
    'order-' || g, case when external then 'webhook' else 'console' end, case when external then null else 'SUBMITTED' end,
    'tx_' || g, status, case when external then 'lookup' else 'creation' end, created_at,
    case when unconfirmed then 'COMPLETED' end, case when unconfirmed then created_at + interval '2 minutes' end,
    (array['PIX','CREDIT_CARD','BOLETO','CRYPTO'])[m], amount_cents, amount_cents / 20, case when m = 4 then 'USD' else 'BRL' end,
    (array['Ana','Bruno','Carla','Diego','Elisa','Fábio','Gabriela','Heitor','Isabela','João'])[1 + h % 10] || ' ' ||
      (array['Silva','Souza','Oliveira','Santos','Pereira','Lima','Carvalho','Ribeiro','Almeida','Gomes','Rocha'])[1 + (h / 10) % 11],
    'cliente' || g || '@example.com', lpad(((g::bigint * 104729) % 99999999999)::text, 11, '0'),
    jsonb_build_object('identifier', 'order-' || g, 'amount', amount_cents / 100.0,
      'client', jsonb_build_object('name', 'Cliente ' || g, 'email', 'cliente' || g || '@example.com', 'phone', '(11) 9' || lpad((g % 100000000)::text, 8, '0')),
      'products', jsonb_build_array(jsonb_build_object('id', 'p' || (h % 25), 'name', 'Produto ' || (h % 25), 'price', amount_cents / 100.0, 'quantity', 1)))
      || case when m = 3 then jsonb_build_object('dueDate', to_char((created_at at time zone 'America/Sao_Paulo')::date + 3, 'YYYY-MM-DD')) else '{}' end,
    created_at, created_at,
    case when paid then created_at + case m when 1 then (30 + h % 1800) * interval '1 second' when 3 then (1 + h % 3) * interval '1 day'
      else (h % 5) * interval '1 second' end end,
    case when h % 10 < 6 then (array['google','facebook','instagram','tiktok','youtube','email'])[1 + (h / 7) % 6] end,
    case when h % 10 < 6 then (array['cpc','social','organic','email','video'])[1 + (h / 11) % 5] end,
    case when h % 10 < 5 then 'campanha-' || ((h / 13) % 40) end,
    case when h % 20 < 19 then 'Produto ' || (h % 25) end,
    case when h % 10 < 4 then 'OFF-' || ((h / 17) % 60) end,
    case when h % 50 = 0 then (array['bio','live','grupo-vip'])[1 + (h / 19) % 3] end
  from (
    select g, h, m, external, unconfirmed, created_at, amount_cents,
      paid and not unconfirmed as paid,
      case when unconfirmed then 'PENDING'
        when paid and r < 20 then 'REFUNDED' when paid and r < 26 then 'CHARGED_BACK' when paid then 'COMPLETED'
        when m = 2 then 'FAILED' when r < 300 then 'EXPIRED' when r < 400 then 'CANCELED' else 'PENDING' end as status
    from (
      select g, h, m, created_at, amount_cents, external, unconfirmed, r,
        case m when 1 then p < 780 when 2 then p < 820 when 3 then p < 600 else p < 700 end as paid
      from (
        select g, h, created_at, h % 100 < 8 as external, (h / 100) % 20 = 0 as unconfirmed,
          (h / 3) % 1000 as p, (h / 7) % 1000 as r,
          case when h % 1000 < 550 then 1 when h % 1000 < 850 then 2 when h % 1000 < 970 then 3 else 4 end as m,
          (1990 + (h % 48000))::bigint as amount_cents
        from (
          select g, ((g::bigint * 2654435761) % 4294967291)::bigint as h,
            now() - ((g::bigint * 7919) % (365 * 86400)) * interval '1 second' as created_at
          from generate_series($3::bigint, $4::bigint) as g
        ) base
      ) drawn
    ) decided
  ) rows`;

/** The ledger bench's rows: `rowCount` charges, one in ten in the neighbour account, every status and method, 2.5 s apart. */
export function ledgerBenchRows(accountId: string, otherAccountId: string, rowCount: number): SQL {
  return sql`
  insert into ledger_transactions (id, account_id, kind, identifier, origin, submission, gateway_transaction_id, status, status_source,
    payment_method, amount_cents, fee_cents, client_name, client_email, client_document, created_by_email, created_at, updated_at, paid_at)
  select
    'bench-' || g,
    case when g % 10 = 0 then ${otherAccountId} else ${accountId} end,
    (array['pix_charge','card_charge','boleto_charge','crypto_charge'])[1 + (g / 7) % 4],
    'order-' || g,
    'console',
    'SUBMITTED',
    'tx_' || md5(g::text),
    (array['OK','COMPLETED','PENDING','FAILED','CANCELED','REFUNDED','CHARGED_BACK'])[1 + g % 7],
    'webhook',
    (array['PIX','CREDIT_CARD','BOLETO','CRYPTO'])[1 + (g / 7) % 4],
    500 + (g::bigint * 7919) % 500000,
    (500 + (g::bigint * 7919) % 500000) / 100,
    (array['Ana','Bruno','Carla','Diego','Elisa','Fábio','Gabriela','Heitor','Isabela','João'])[1 + g % 10] || ' ' ||
      (array['Silva','Souza','Oliveira','Santos','Pereira','Lima','Carvalho','Ribeiro','Almeida','Gomes','Rocha'])[1 + (g / 10) % 11],
    'cliente' || g || '@example.com',
    lpad(((g::bigint * 104729) % 99999999999)::text, 11, '0'),
    'operador@example.com',
    now() - g * interval '2.5 seconds',
    now() - g * interval '2.5 seconds',
    case when g % 7 = 1 then now() - g * interval '2.5 seconds' + interval '5 minutes' end
  from generate_series(1, ${rowCount}) as g`;
}

/** The single writes whose rollup upkeep bench:sales measures, in the shapes the ledger runs them. */
export const ROLLUP_UPKEEP = {
  confirmOne: `update ledger_transactions set status = 'COMPLETED', status_source = 'lookup', status_at = now(), paid_at = now(),
            last_lookup_status = 'COMPLETED', last_lookup_at = now(), updated_at = now() where id = $1`,
  applierNoFact: `update ledger_transactions set last_webhook_status = 'COMPLETED', last_webhook_at = now(), pending_status = 'COMPLETED',
            pending_status_at = now(), updated_at = now() where id = any($1)`,
  applierUtm: `update ledger_transactions set utm_source = 'google', last_webhook_at = now(), updated_at = now() where id = any($1)`,
  gatewayCreated: `insert into ledger_transactions (account_id, kind, identifier, origin, submission, status, status_source, payment_method,
              amount_cents, utm_source, utm_medium, product_name)
            values ($1, 'pix_charge', $2, 'console', 'SUBMITTED', 'OK', 'creation', 'PIX', 9700, 'google', 'cpc', 'Produto 1')`,
};

/**
 * The subscriptions bench's charges in the ledger: one row per `subscription_charges` row whose
 * gateway transaction id starts `stx-` (the bench seeds those links first), as the gateway would
 * have confirmed them: learned from a notification (external), dated at the due instant (the link's
 * first_heard_at, which the bench sets to the subscription's start plus charge_number − 1 periods),
 * with the subscription's method and amount.
 * Outcomes drawn by hash: 8 % of the subscriptions not canceled stop paying their last 4 charges
 * (card FAILED, Pix EXPIRED: they read "perdida"); a charge due in the last 3 days is still PENDING
 * 30 % of the time; 4 % of renewals fail; the rest are paid, 5 % of them 4 to 8 days late
 * (recovered after the grace), the others within minutes. Fee 2 % + R$ 0,39.
 */
export const SUBSCRIPTION_BENCH_CHARGE_ROWS = `
  insert into ledger_transactions (id, account_id, kind, identifier, origin, gateway_transaction_id, status, status_source,
    status_at, payment_method, amount_cents, fee_cents, currency, created_at, updated_at, paid_at, available_at)
  select 'sub-' || gateway_transaction_id, account_id, 'external', identifier, 'webhook', gateway_transaction_id,
    case when paid then 'COMPLETED' when awaiting then 'PENDING' when payment_method = 'PIX' then 'EXPIRED' else 'FAILED' end,
    'webhook', coalesce(paid_at, due_at), payment_method, amount_cents, amount_cents / 50 + 39, currency, due_at, due_at, paid_at,
    case when paid then paid_at + case when payment_method = 'PIX' then interval '0 days' else interval '30 days' end end
  from (
    select *, case when paid then due_at + case when ch < 90 then (4 + ch % 5) * interval '1 day' else (1 + ch % 50) * interval '1 minute' end end as paid_at
    from (
      select *, not losing and not awaiting and not (charge_number > 1 and ch >= 960) as paid
      from (
        select c.account_id, c.gateway_transaction_id, coalesce(c.identifier, c.gateway_transaction_id) as identifier, c.charge_number,
          s.payment_method, s.amount_cents, s.currency, c.first_heard_at as due_at,
          abs(hashtext(c.gateway_transaction_id)) % 1000 as ch,
          s.gateway_status is distinct from 'CANCELED' and abs(hashtext(s.id)) % 100 < 8 and c.charge_number > 1
            and c.charge_number > max(c.charge_number) over (partition by c.subscription_id) - 4 as losing,
          c.first_heard_at > now() - interval '3 days' and abs(hashtext(c.gateway_transaction_id)) % 1000 < 300 as awaiting
        from subscription_charges c join subscriptions s on s.id = c.subscription_id
        where c.gateway_transaction_id like 'stx-%'
      ) drawn
    ) decided
  ) rows`;

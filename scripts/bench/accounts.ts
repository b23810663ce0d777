/**
 * The two gateway accounts the ledger benches seed: the measured one and a neighbour whose rows
 * every query must leave out. Imported after the bench has pointed the process at its database.
 */
export async function benchAccounts(): Promise<{ account: { id: string }; other: { id: string } }> {
  const { createAccount } = await import("@/lib/accounts/queries");
  const make = (name: string, key: string) =>
    createAccount(
      { name, baseUrl: "https://gw.example", publicKey: `pk_${key}`, secretKey: `sk_${key}_000000`, webhookToken: null, mode: "test" },
      null,
    );
  return { account: await make("Bench", "bench"), other: await make("Other", "other") };
}

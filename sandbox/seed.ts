import type { SandboxDb } from "./db/client";
import { producers } from "./db/schema";

export const PRODUCER_CHECKOUT = "PRODUCER_CHECKOUT";

/** Seeded producers (fixed ids and keys; the sandbox is not a place for real secrets). */
export const SEED_PRODUCERS: Array<typeof producers.$inferInsert> = [
  {
    id: "prod_demo",
    name: "Loja Demo Sandbox",
    email: "demo@sandbox.test",
    phone: "11987654321",
    document: "52998224725",
    address: {
      zipCode: "01310100",
      country: "BR",
      state: "BR-SP",
      city: "São Paulo",
      neighborhood: "Bela Vista",
      street: "Avenida Paulista",
      number: "1000",
      complement: "Conjunto 101",
    },
    legalRepresentative: null,
    publicKey: "pk_sandbox_demo",
    secretKey: "sk_sandbox_demo",
    webhookToken: "wht_sandbox_demo",
    permissions: [PRODUCER_CHECKOUT],
    checkoutApiEnabled: true,
  },
  {
    id: "prod_company",
    name: "Empresa Sandbox Ltda",
    email: "financeiro@empresa-sandbox.test",
    phone: "2133334444",
    document: "11222333000181",
    address: {
      zipCode: "20040002",
      country: "BR",
      state: "BR-RJ",
      city: "Rio de Janeiro",
      neighborhood: "Centro",
      street: "Avenida Rio Branco",
      number: "156",
      complement: "Sala 2201",
    },
    legalRepresentative: {
      name: "Maria da Silva",
      phone: "21998765432",
      document: "12345678909",
      address: {
        zipCode: "22071000",
        country: "BR",
        state: "BR-RJ",
        city: "Rio de Janeiro",
        neighborhood: "Copacabana",
        street: "Avenida Atlântica",
        number: "1702",
      },
    },
    publicKey: "pk_sandbox_company",
    secretKey: "sk_sandbox_company",
    webhookToken: "wht_sandbox_company",
    permissions: [],
    checkoutApiEnabled: true,
  },
  {
    id: "prod_nokyc",
    name: "Produtor Sem KYC",
    email: "nokyc@sandbox.test",
    phone: "31991234567",
    document: null,
    address: null,
    legalRepresentative: null,
    publicKey: "pk_sandbox_nokyc",
    secretKey: "sk_sandbox_nokyc",
    webhookToken: "wht_sandbox_nokyc",
    permissions: [],
    checkoutApiEnabled: false,
  },
  {
    // A producer of its own for tests that compare a whole balance with the console's: nothing else sells on it.
    id: "prod_statement",
    name: "Loja Extrato Sandbox",
    email: "extrato@sandbox.test",
    phone: "11912345678",
    document: "39053344705",
    address: {
      zipCode: "01310100",
      country: "BR",
      state: "BR-SP",
      city: "São Paulo",
      neighborhood: "Bela Vista",
      street: "Avenida Paulista",
      number: "2000",
    },
    legalRepresentative: null,
    publicKey: "pk_sandbox_statement",
    secretKey: "sk_sandbox_statement",
    webhookToken: "wht_sandbox_statement",
    permissions: [PRODUCER_CHECKOUT],
    checkoutApiEnabled: true,
  },
];

export async function seedProducers(db: SandboxDb): Promise<void> {
  await db.insert(producers).values(SEED_PRODUCERS).onConflictDoNothing({ target: producers.id });
}

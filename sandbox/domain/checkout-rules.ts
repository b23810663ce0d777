import { invalidArgument } from "../lib/errors";

/** Highest price the sandbox accepts for one checkout offer (R$ 1,000,000.00). */
export const MAX_CHECKOUT_PRICE = 1_000_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type CheckoutLike = {
  product: { offer: { price: number } };
  settings?: { paymentMethods?: string[] };
  customer?: { email?: string };
};

/** Business rules of hosted checkout creation, on top of the request schema. */
export function checkCheckoutRules(body: CheckoutLike): void {
  const price = body.product.offer.price;
  if (!Number.isFinite(price) || price < 0.01) throw invalidArgument("product.offer.price: deve ser maior que zero");
  if (Math.abs(Math.round(price * 100) - price * 100) > 1e-6)
    throw invalidArgument("product.offer.price: use no máximo duas casas decimais");
  if (price > MAX_CHECKOUT_PRICE) throw invalidArgument(`product.offer.price: o preço máximo é ${MAX_CHECKOUT_PRICE}`);
  const methods = body.settings?.paymentMethods;
  if (methods !== undefined && methods.length === 0)
    throw invalidArgument("settings.paymentMethods: informe ao menos um meio de pagamento");
  const email = body.customer?.email;
  if (email !== undefined && email !== "" && !EMAIL.test(email)) throw invalidArgument("customer.email: deve ser um e-mail válido");
}

// Example shapes taken field by field from the gateway interface document.
import type {
  BoletoChargeRequest,
  CardChargeRequest,
  CardSubscriptionRequest,
  CheckoutRequest,
  CryptoChargeRequest,
  CryptoSubscriptionRequest,
  PixChargeRequest,
  PixDepositRequest,
  PixSubscriptionRequest,
  RefundRequest,
  TransferRequest,
} from "../schemas";

export const CARD_NUMBER = "4111111111111111";
export const CVV = "737";
export const SECRET_KEY = "sk_test_9f8e7d6c5b4a39281706";
export const PUBLIC_KEY = "pk_test_1a2b3c4d5e6f7g8h";

export const client = {
  name: "Maria da Silva",
  email: "maria@example.com",
  phone: "(11) 99999-9999",
  document: "529.982.247-25",
};

export const address = {
  country: "BR",
  zipCode: "01310-100",
  state: "SP",
  city: "São Paulo",
  street: "Avenida Paulista",
  neighborhood: "Bela Vista",
  number: "1000",
  complement: "Conjunto 12",
};

export const pixChargeRequest = (identifier = "order-pix-1"): PixChargeRequest => ({
  identifier,
  amount: 150.5,
  client,
  products: [{ id: "p1", name: "Curso", quantity: 1, price: 150.5, physical: false }],
  shippingFee: 0,
  extraFee: 0,
  discount: 0,
  splits: [{ producerId: "producer-2", amount: 10 }],
  metadata: { orderId: 42, tags: ["a"] },
  dueDate: "2026-12-31",
  callbackUrl: "https://console.example.com/api/webhooks/acc_1",
});

export const cardChargeRequest = (identifier = "order-card-1"): CardChargeRequest => ({
  identifier,
  amount: 99.9,
  installments: 3,
  clientIp: "203.0.113.10",
  client: { ...client, address },
  card: {
    number: CARD_NUMBER,
    owner: "MARIA DA SILVA",
    expiresAt: "2030-12",
    cvv: CVV,
    statementDescriptor: "LOJA",
  },
  callbackUrl: "https://console.example.com/api/webhooks/acc_1",
  products: [{ id: "p1", name: "Camiseta", quantity: 1, price: 99.9 }],
  metadata: { source: "test" },
});

export const boletoChargeRequest = (identifier = "order-boleto-1"): BoletoChargeRequest => ({
  identifier,
  amount: 250,
  client,
  dueDate: "2026-12-20",
  callbackUrl: "https://console.example.com/api/webhooks/acc_1",
  products: [{ id: "p2", name: "Livro", price: 250 }],
});

export const cryptoChargeRequest = (identifier = "order-crypto-1"): CryptoChargeRequest => ({
  identifier,
  amount: 100,
  currency: "BRL",
  cryptoCurrency: "USDT",
  network: "TRON",
  client,
  callbackUrl: "https://console.example.com/api/webhooks/acc_1",
  products: [{ id: "p3", name: "Licença", quantity: 2, price: 50 }],
  metadata: {},
});

export const pixDepositRequest = (identifier = "deposit-1"): PixDepositRequest => ({
  identifier,
  amount: 500,
  callbackUrl: "https://console.example.com/api/webhooks/acc_1",
});

const recurrence = { periodicityType: "MONTHS" as const, periodicity: 1, firstChargeIn: 0 };
const subscriptionProduct = { id: "plan-1", name: "Plano mensal", price: 49.9 };

export const pixSubscriptionRequest = (identifier = "sub-pix-1"): PixSubscriptionRequest => ({
  identifier,
  amount: 49.9,
  client,
  product: subscriptionProduct,
  subscription: recurrence,
  callbackUrl: "https://console.example.com/api/webhooks/acc_1",
});

export const cardSubscriptionRequest = (identifier = "sub-card-1"): CardSubscriptionRequest => ({
  identifier,
  amount: 49.9,
  client,
  clientIp: "203.0.113.10",
  card: { number: CARD_NUMBER, owner: "MARIA DA SILVA", expiresAt: "2030-12", cvv: CVV },
  product: subscriptionProduct,
  subscription: { periodicityType: "YEARS", periodicity: 1 },
});

export const cryptoSubscriptionRequest = (identifier = "sub-crypto-1"): CryptoSubscriptionRequest => ({
  identifier,
  amount: 49.9,
  cryptoCurrency: "USDT",
  network: "TRON",
  client,
  product: subscriptionProduct,
  subscription: { periodicityType: "WEEKS", periodicity: 2 },
});

export const transferRequest = (identifier = "transfer-1"): TransferRequest => ({
  identifier,
  amount: 75,
  discountFeeOfReceiver: false,
  callbackUrl: "https://console.example.com/api/webhooks/acc_1",
  pix: { type: "email", key: "recebedor@example.com" },
  owner: {
    ip: "198.51.100.7",
    name: "Joao da Silva",
    document: { type: "cpf", number: "12345678909" },
  },
});

export const checkoutRequest = (): CheckoutRequest => ({
  product: {
    externalId: "ext-1",
    name: "Curso de Pix",
    photos: ["https://cdn.example.com/p.png"],
    offer: { name: "Oferta de lançamento", price: 197, offerType: "ONCE", currency: "BRL", lang: "pt-BR" },
  },
  settings: {
    paymentMethods: ["PIX", "CREDIT_CARD", "BOLETO"],
    acceptedDocs: ["CPF", "CNPJ"],
    thankYouPage: "https://loja.example.com/obrigado",
    askForAddress: true,
    colors: { primary: "#0f172a", accent: "#22c55e" },
  },
  customer: {
    name: "Maria da Silva",
    email: "maria@example.com",
    phone: "11999999999",
    document: "52998224725",
    address: { city: "São Paulo", anything: 1 },
  },
});

export const refundRequest = (transactionId = "tx_1"): RefundRequest => ({
  transactionId,
  reason: "Customer request",
  description: "Duplicated order",
});

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

export const chargeBase = {
  transactionId: "tx_123",
  status: "OK",
  fee: 1.99,
  order: { id: "ord_1", url: "https://gateway.example.com/order/ord_1" },
};

export const pixChargeResponse = {
  ...chargeBase,
  order: { ...chargeBase.order, receiptUrl: "https://gateway.example.com/receipt/ord_1" },
  pix: {
    code: "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
    image: "https://gateway.example.com/qr/tx_123.png",
    base64: "",
  },
};

export const cardChargeResponse = { ...chargeBase };

export const boletoChargeResponse = {
  ...chargeBase,
  status: "PENDING",
  boleto: {
    barcode: "34196790600001000002220000005566385101214000",
    digitableLine: "34192.22009 00005.566385 51012.140003 6 79060000100000",
    pdfUrl: "https://gateway.example.com/boleto/tx_123.pdf",
  },
};

export const cryptoChargeResponse = {
  ...chargeBase,
  status: "PENDING",
  crypto: {
    address: "TXYZabc123",
    amount: 18.5,
    currency: "USDT",
    network: "TRON",
    expiresAt: "2026-11-21T23:59:00.000Z",
  },
};

export const pixDepositResponse = {
  transactionId: "tx_dep",
  status: "OK",
  order: { id: "ord_dep", url: "https://gateway.example.com/order/ord_dep" },
  pix: { code: "000201...", image: "https://gateway.example.com/qr.png", expiresAt: "2026-11-22T00:00:00.000Z", base64: "" },
};

export const transferResponse = {
  webhookToken: "whk_tok_abcdef123456",
  withdraw: {
    id: "wd_1",
    amount: 75,
    feeAmount: 1,
    currency: "BRL",
    status: "PENDING",
    createdAt: "2026-11-21T22:00:00.000Z",
    updatedAt: "2026-11-21T22:00:00.000Z",
  },
  payoutAccount: {
    id: "pa_1",
    status: "ACTIVE",
    pix: "recebedor@example.com",
    pixType: "email",
    createdAt: "2026-11-21T22:00:00.000Z",
    updatedAt: "2026-11-21T22:00:00.000Z",
    deletedAt: null,
  },
  receiptUrl: "https://gateway.example.com/receipt/wd_1",
};

export const checkoutResponse = { success: true, checkoutUrl: "https://checkout.example.com/c/abc" };

export const refundRecord = {
  id: "rf_1",
  transactionId: "tx_123",
  producerId: "prod_1",
  status: "PENDING",
  amount: 150.5,
  reason: "Customer request",
  description: "Duplicated order",
};

export const transactionRecord = {
  id: "tx_123",
  clientIdentifier: "order-pix-1",
  currency: "BRL",
  amount: 150.5,
  chargeAmount: 150.5,
  exchangeRate: 1,
  producerExtraAmount: 0,
  status: "FAILED",
  statusDescription: null,
  purchaseType: "ONCE",
  paymentMethod: "PIX",
  details: null,
  errorDescription: "Expired",
  webhookUrl: null,
  availableAt: null,
  createdAt: "2026-11-21T22:00:00.000Z",
  refundedAt: null,
  payedAt: null,
  boletoInformation: null,
  pixInformation: { qrCode: "000201...", image: "https://gateway.example.com/qr.png", base64: "" },
  pixMetadata: {
    payerBankName: "Banco A",
    payerDocument: "***.982.247-**",
    payerName: "Maria",
    receiverBankName: "Banco B",
    receiverDocument: "11.222.333/0001-81",
    receiverName: "Loja",
    receiverPixKey: "loja@example.com",
  },
};

export const producerRecord = {
  name: "Loja Exemplo",
  email: "contato@loja.example.com",
  phone: "(11) 99999-9999",
  document: "11.222.333/0001-81",
  address: {
    zipCode: "01310-100",
    country: "BR",
    state: "BR-SP",
    city: "São Paulo",
    neighborhood: "Bela Vista",
    street: "Avenida Paulista",
    number: "1000",
    complement: "",
  },
  legalRepresentative: {
    name: "Maria da Silva",
    phone: "(11) 98888-7777",
    document: "529.982.247-25",
    address: { zipCode: "01310-100", city: "São Paulo" },
  },
};

export const paymentWebhook = {
  event: "TRANSACTION_PAID",
  token: "tok_webhook_123",
  offerCode: null,
  checkoutUrl: "",
  client: {
    id: "cli_1",
    name: "Maria da Silva",
    email: "maria@example.com",
    phone: "11999999999",
    cpf: "52998224725",
    cnpj: null,
    address: {
      country: "BR",
      zipCode: "01310100",
      state: "SP",
      city: "São Paulo",
      neighborhood: "Bela Vista",
      street: "Avenida Paulista",
      number: "1000",
      complement: null,
    },
  },
  transaction: {
    id: "tx_123",
    identifier: "order-card-1",
    status: "COMPLETED",
    paymentMethod: "CREDIT_CARD",
    originalCurrency: "BRL",
    originalAmount: 99.9,
    amount: 99.9,
    commissionAmount: 90,
    currency: "BRL",
    exchangeRate: 1,
    installments: 3,
    createdAt: "2026-11-21T22:00:00.000Z",
    payedAt: "2026-11-21T22:01:00.000Z",
    pixInformation: null,
    boletoInformation: null,
  },
  subscription: null,
  orderItems: [{ id: "oi_1", price: 99.9, product: { id: "p1", name: "Camiseta", externalId: "ext-1" } }],
  trackProps: { isUpsell: false, ip: "203.0.113.10", user_agent: "Mozilla/5.0", utm_source: "newsletter" },
};

import { createHash } from "node:crypto";

/**
 * Fixed sandbox rates (BRL per unit). The interface lists no currencies, networks or rates:
 * these are the sandbox's choice and are documented in sandbox/README.md.
 */
export const CRYPTO_RATES_BRL: Record<string, number> = {
  USDT: 5.5,
  USDC: 5.5,
  BTC: 550_000,
  ETH: 20_000,
};

/** Decimals the crypto amount is rounded to. */
const CRYPTO_DECIMALS: Record<string, number> = { USDT: 6, USDC: 6, BTC: 8, ETH: 8 };

/** Fiat reference currencies accepted in `currency`, with their BRL value. */
export const FIAT_RATES_BRL: Record<string, number> = { BRL: 1, USD: 5.5 };

export const CRYPTO_NETWORKS: Record<string, readonly string[]> = {
  USDT: ["ETHEREUM", "POLYGON", "BSC", "TRON", "SOLANA"],
  USDC: ["ETHEREUM", "POLYGON", "BSC", "SOLANA"],
  BTC: ["BITCOIN"],
  ETH: ["ETHEREUM"],
};

const NETWORK_ALIASES: Record<string, string> = {
  ETH: "ETHEREUM",
  ERC20: "ETHEREUM",
  MATIC: "POLYGON",
  BEP20: "BSC",
  BNB: "BSC",
  TRC20: "TRON",
  TRX: "TRON",
  SOL: "SOLANA",
  BTC: "BITCOIN",
};

export const CRYPTO_QUOTE_TTL_MS = 30 * 60_000;

export type CryptoQuote = { cryptoCurrency: string; network: string; fiatCurrency: string; rate: number };

/** Resolves currency/crypto/network; returns a message naming the bad field on failure. */
export function resolveCrypto(input: {
  currency?: string;
  cryptoCurrency: string;
  network: string;
}): { ok: true; quote: CryptoQuote } | { ok: false; message: string } {
  const fiat = (input.currency ?? "BRL").trim().toUpperCase();
  if (!(fiat in FIAT_RATES_BRL)) {
    return {
      ok: false,
      message: `currency: moeda "${input.currency}" não aceita; o sandbox aceita ${Object.keys(FIAT_RATES_BRL).join(", ")}`,
    };
  }
  const crypto = input.cryptoCurrency.trim().toUpperCase();
  const networks = CRYPTO_NETWORKS[crypto];
  if (!networks) {
    return {
      ok: false,
      message: `cryptoCurrency: criptomoeda "${input.cryptoCurrency}" não aceita; o sandbox aceita ${Object.keys(CRYPTO_NETWORKS).join(", ")}`,
    };
  }
  const rawNetwork = input.network.trim().toUpperCase();
  const network = NETWORK_ALIASES[rawNetwork] ?? rawNetwork;
  if (!networks.includes(network)) {
    return {
      ok: false,
      message: `network: ${crypto} não está disponível na rede "${input.network}"; use uma destas: ${networks.join(", ")}`,
    };
  }
  return { ok: true, quote: { cryptoCurrency: crypto, network, fiatCurrency: fiat, rate: CRYPTO_RATES_BRL[crypto] } };
}

export function cryptoAmountFor(quote: CryptoQuote, fiatAmount: number): number {
  const brl = fiatAmount * FIAT_RATES_BRL[quote.fiatCurrency];
  const decimals = CRYPTO_DECIMALS[quote.cryptoCurrency] ?? 8;
  const factor = 10 ** decimals;
  return Math.ceil((brl / quote.rate) * factor) / factor;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

function charsFrom(seed: string, alphabet: string, length: number): string {
  let out = "";
  let counter = 0;
  while (out.length < length) {
    const digest = createHash("sha256").update(`${seed}:${counter++}`).digest();
    for (const byte of digest) {
      if (out.length === length) break;
      out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

/** A deposit address shaped like the network's (not a real, spendable address). */
export function depositAddressFor(network: string, seed: string): string {
  switch (network) {
    case "BITCOIN":
      return `bc1q${charsFrom(seed, BECH32, 38)}`;
    case "TRON":
      return `T${charsFrom(seed, BASE58, 33)}`;
    case "SOLANA":
      return charsFrom(seed, BASE58, 44);
    default:
      return `0x${charsFrom(seed, "0123456789abcdef", 40)}`;
  }
}

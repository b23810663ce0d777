/**
 * Base URLs of gateways of this family that public material names, offered when an account is
 * added. Each entry says where its address comes from; nothing here is guessed.
 */
export type GatewayPreset = { name: string; baseUrl: string; source: string };

export const GATEWAY_PRESETS: GatewayPreset[] = [
  {
    name: "LxPay",
    baseUrl: "https://api.lxpay.com.br",
    // A public integration (github.com/Anamariabraga100/tiktokshop, LXPAY_AUTHENTICATION.md) calls
    // `${base}/api/v1/gateway/pix/receive` with x-public-key / x-secret-key on this base URL.
    source: "github.com/Anamariabraga100/tiktokshop — LXPAY_AUTHENTICATION.md",
  },
];

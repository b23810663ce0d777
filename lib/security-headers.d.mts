export function contentSecurityPolicy(nonce: string, isProduction: boolean): string;
export function securityHeaders(isProduction: boolean): Array<{ key: string; value: string }>;

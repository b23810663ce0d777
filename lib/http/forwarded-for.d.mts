export function forwardedFor(incoming: string | string[] | undefined, socketAddress: string | undefined, trustedHops: number): string;

/** Where the sandbox writes what it does (quiet in tests). */
export type SandboxLogger = { info(msg: string): void; error(msg: string): void };

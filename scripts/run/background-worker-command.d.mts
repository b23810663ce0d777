export function backgroundWorkerArgs(root: string): string[];

/**
 * The process's own state (caches, queues, the jobs' loops), in one registry on globalThis.
 * Next.js loads a module more than once in one process (a bundle per route, the webhook fast
 * path's bundle of its own, dev reloads), so module-level variables are not shared: each module
 * asks here for its part, by a name of its own, once at load, and exports functions over it.
 * No other module reads that part.
 */
const registryKey = Symbol.for("merchant-console.runtime");

type Registry = Map<string, unknown>;

function registry(): Registry {
  const g = globalThis as typeof globalThis & { [registryKey]?: Registry };
  return (g[registryKey] ??= new Map());
}

/**
 * A part of the process's state: the same object for every copy of the calling module. `init`
 * runs once per process, on the first read.
 */
export function processState<T>(name: string, init: () => T): () => T {
  return () => {
    const parts = registry();
    if (!parts.has(name)) parts.set(name, init());
    return parts.get(name) as T;
  };
}

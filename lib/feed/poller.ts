import { QueryClient, QueryObserver, type QueryKey } from "@tanstack/react-query";

// The feed is the only query in the console: its own client, loaded with the polling fallback,
// instead of a provider around every page.
let queryClient: QueryClient | null = null;

/**
 * Runs `poll` every second until the returned function is called. Every hook polling the same
 * key shares one query, so a page with several live widgets still sends one request at a time.
 */
export function pollEverySecond(queryKey: QueryKey, poll: () => Promise<number>): () => void {
  if (!queryClient) {
    queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
    queryClient.mount();
  }
  const observer = new QueryObserver(queryClient, { queryKey, queryFn: poll, refetchInterval: 1_000, staleTime: 0, gcTime: 0 });
  return observer.subscribe(() => {});
}

import { Badge } from "@/components/ui/badge";

/** The gateway's status string exactly as reported; no colour is derived from its name (the meaning of statuses is not given). */
export function StatusBadge({ status, empty }: { status: string | null; empty: string }) {
  if (!status) return <span className="text-xs text-muted-foreground italic">{empty}</span>;
  return (
    <Badge variant="outline" className="font-mono" data-testid="status-badge">
      {status}
    </Badge>
  );
}

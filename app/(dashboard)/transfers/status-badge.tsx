import { Badge } from "@/components/ui/badge";

/** Colours only for the statuses the interface shows; any other string is shown as is, neutral. */
export function GatewayStatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return <Badge variant="outline">—</Badge>;
  const variant =
    status === "COMPLETED" || status === "ACTIVE"
      ? "success"
      : status === "PENDING"
        ? "warning"
        : status === "FAILED"
          ? "destructive"
          : "secondary";
  return (
    <Badge variant={variant} className="font-mono">
      {status}
    </Badge>
  );
}

import { LoadingPage } from "@/components/shell/loading-page";

export default function Loading() {
  return <LoadingPage shape="detail" />;
}

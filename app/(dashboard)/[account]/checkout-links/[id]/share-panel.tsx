"use client";

import { QRCodeSVG } from "qrcode.react";
import { ExternalLink, Mail, MessageCircle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Input } from "@/components/ui/input";
import { useT } from "@/lib/i18n/client";

export function SharePanel({ url, productName }: { url: string; productName: string }) {
  const t = useT();
  const text = t("checkoutLinks.shareText", { product: productName, url });
  const whatsapp = `https://wa.me/?text=${encodeURIComponent(text)}`;
  const email = `mailto:?subject=${encodeURIComponent(productName)}&body=${encodeURIComponent(text)}`;
  return (
    <div className="grid gap-6 md:grid-cols-[1fr_auto]">
      <div className="min-w-0 space-y-4">
        <div className="space-y-2">
          <label htmlFor="checkout-url" className="text-sm font-medium">
            {t("checkoutLinks.checkoutUrl")}
          </label>
          <div className="flex gap-2">
            <Input id="checkout-url" value={url} readOnly className="font-mono text-xs" data-testid="checkout-url" />
            <CopyButton value={url} label={t("checkoutLinks.copy")} variant="outline" />
          </div>
        </div>
        <div className="space-y-2">
          <p className="text-sm font-medium">{t("checkoutLinks.share")}</p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" asChild>
              <a href={url} target="_blank" rel="noreferrer noopener">
                <ExternalLink /> {t("checkoutLinks.open")}
              </a>
            </Button>
            <Button variant="outline" asChild>
              <a href={whatsapp} target="_blank" rel="noreferrer noopener">
                <MessageCircle /> {t("checkoutLinks.shareWhatsApp")}
              </a>
            </Button>
            <Button variant="outline" asChild>
              <a href={email}>
                <Mail /> {t("checkoutLinks.shareEmail")}
              </a>
            </Button>
          </div>
        </div>
      </div>
      <div className="justify-self-center rounded-lg border bg-white p-3">
        <QRCodeSVG value={url} size={168} role="img" aria-label={t("checkoutLinks.qrCode")} />
      </div>
    </div>
  );
}

"use client";

import { useRef } from "react";
import { QRCodeCanvas, QRCodeSVG } from "qrcode.react";
import { Download, Mail, MessageCircle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/**
 * A QR code for a payment code (Pix BR Code, crypto address): SVG on screen, carrying the encoded
 * value in `data-code`, plus an off-screen canvas used for the PNG download.
 */
export function QrCode({
  value,
  size = 232,
  fileName,
  downloadLabel,
  className,
}: {
  value: string;
  size?: number;
  fileName?: string;
  downloadLabel?: string;
  className?: string;
}) {
  const canvasHolder = useRef<HTMLDivElement>(null);

  function download() {
    const canvas = canvasHolder.current?.querySelector("canvas");
    if (!canvas) return;
    const link = document.createElement("a");
    link.href = canvas.toDataURL("image/png");
    link.download = fileName ?? "qrcode.png";
    link.click();
  }

  return (
    <div className={cn("flex flex-col items-center gap-3", className)}>
      <div className="rounded-xl border bg-white p-3 shadow-xs">
        <QRCodeSVG
          value={value}
          size={size}
          level="M"
          marginSize={1}
          data-testid="qr-svg"
          data-code={value}
          role="img"
          aria-label="QR Code"
        />
      </div>
      <div ref={canvasHolder} className="hidden" aria-hidden>
        <QRCodeCanvas value={value} size={720} level="M" marginSize={4} />
      </div>
      {fileName && downloadLabel && (
        <Button type="button" variant="outline" size="sm" onClick={download} data-testid="qr-download">
          <Download /> {downloadLabel}
        </Button>
      )}
    </div>
  );
}

/** WhatsApp and e-mail links that carry a prepared message to the customer. */
export function ShareLinks({
  text,
  subject,
  whatsappLabel,
  emailLabel,
  email,
}: {
  text: string;
  subject: string;
  whatsappLabel: string;
  emailLabel: string;
  email?: string | null;
}) {
  const mailto = `mailto:${email ? encodeURIComponent(email) : ""}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(text)}`;
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant="outline" size="sm">
        <a href={`https://wa.me/?text=${encodeURIComponent(text)}`} target="_blank" rel="noopener noreferrer" data-testid="share-whatsapp">
          <MessageCircle /> {whatsappLabel}
        </a>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a href={mailto} data-testid="share-email">
          <Mail /> {emailLabel}
        </a>
      </Button>
    </div>
  );
}

export function esc(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export function brl(value: number): string {
  return new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(value);
}

const SAFE_COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export function page(title: string, body: string, colors: Record<string, string> = {}): string {
  const pick = (keys: string[], fallback: string) => {
    for (const k of keys) if (colors[k] && SAFE_COLOR.test(colors[k])) return colors[k];
    return fallback;
  };
  const primary = pick(["primary", "primaryColor", "button", "accent"], "#0f766e");
  const background = pick(["background", "backgroundColor"], "#f4f5f7");
  const text = pick(["text", "textColor"], "#1f2937");
  const buttonText = pick(["buttonText", "buttonTextColor"], "#ffffff");
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
:root{--primary:${primary};--bg:${background};--text:${text};--button-text:${buttonText}}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--text)}
main{max-width:560px;margin:32px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:24px;margin-bottom:16px}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:16px 0 8px}
.banner{background:#fef3c7;color:#92400e;border-radius:8px;padding:8px 12px;font-size:13px;margin-bottom:16px}
.amount{font-size:28px;font-weight:700;color:var(--primary)}
.status{display:inline-block;padding:2px 10px;border-radius:999px;background:#e5e7eb;font-weight:600;font-size:13px}
.status.paid{background:#d1fae5;color:#065f46}.status.failed{background:#fee2e2;color:#991b1b}
code,.mono{font-family:ui-monospace,Menlo,monospace;font-size:12px;word-break:break-all}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}dt{color:#6b7280}dd{margin:0}
button{background:var(--primary);color:var(--button-text);border:0;border-radius:8px;padding:12px 20px;font-size:16px;font-weight:600;cursor:pointer;width:100%}
label{display:block;margin:10px 0 4px;font-weight:600;font-size:13px}
input,select{width:100%;padding:10px;border:1px solid #d1d5db;border-radius:8px;font-size:15px}
.methods label{display:inline-flex;gap:6px;align-items:center;font-weight:500;margin-right:16px}
.methods input{width:auto}
.error{color:#b91c1c;font-size:13px;margin-top:4px}
img.qr{display:block;margin:12px auto;width:220px;height:220px}
img.photo{max-width:100%;border-radius:8px}
a{color:var(--primary)}
</style></head>
<body><main><div class="banner">Gateway sandbox: pagamentos simulados, nenhum dinheiro de verdade se move.</div>${body}</main></body></html>`;
}

export function statusBadge(status: string): string {
  const cls = status === "COMPLETED" ? "paid" : ["FAILED", "CANCELED", "REFUNDED", "CHARGED_BACK"].includes(status) ? "failed" : "";
  return `<span class="status ${cls}">${esc(status)}</span>`;
}

import { describe, expect, it } from "vitest";
import { ownerIpOf } from "../owner-ip";
import { explainedRefusal } from "../refusals";

describe("ownerIpOf", () => {
  it("sends IPv4 as is and IPv6 loopback as 127.0.0.1 (a browser on the console's machine)", () => {
    expect(ownerIpOf("203.0.113.7")).toBe("203.0.113.7");
    expect(ownerIpOf("127.0.0.1")).toBe("127.0.0.1");
    expect(ownerIpOf("::1")).toBe("127.0.0.1");
    expect(ownerIpOf("2001:db8::1")).toBeNull();
    expect(ownerIpOf(null)).toBeNull();
    expect(ownerIpOf("")).toBeNull();
  });
});

describe("explainedRefusal", () => {
  it("names the one field the console explains, in whatever language the gateway wrote", () => {
    expect(explainedRefusal("owner.ip: deve ser o IP do usuário que faz a transferência (127.0.0.1)")).toBe(
      "transfers.errors.refused.ownerIp",
    );
    expect(explainedRefusal("owner.ip: must be the IP of the user performing the transfer")).toBe("transfers.errors.refused.ownerIp");
    expect(explainedRefusal("pix.key: CPF inválido para o tipo cpf")).toBe("transfers.errors.refused.pixKey");
    expect(explainedRefusal("pix.type: valor não aceito (cpf, cnpj); pix.key: obrigatório")).toBe("transfers.errors.refused.pixKey");
    expect(explainedRefusal(undefined, [{ path: "owner.document.number" }])).toBe("transfers.errors.refused.ownerDocument");
  });

  it("leaves the gateway's text alone when it names no field, an unknown one or several", () => {
    expect(explainedRefusal("Transfers are disabled")).toBeNull();
    expect(explainedRefusal("callbackUrl: formato inválido (url)")).toBeNull();
    expect(explainedRefusal("amount: acima do máximo; owner.ip: obrigatório")).toBeNull();
    expect(explainedRefusal(undefined)).toBeNull();
  });
});

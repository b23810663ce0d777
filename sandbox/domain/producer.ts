import { formatCep } from "../../lib/br/cep";
import { formatDocument } from "../../lib/br/document";
import { formatBrPhone } from "../../lib/br/phone";
import type { Producer } from "../context";
import type { AddressJson } from "../db/schema";

function formatAddress(address: AddressJson): AddressJson {
  const out: AddressJson = {};
  for (const [key, value] of Object.entries(address) as Array<[keyof AddressJson, string | undefined]>) {
    if (value !== undefined && value !== null) out[key] = key === "zipCode" ? formatCep(value) : value;
  }
  return out;
}

/** 2.6 producer record: document/address only after KYC, legalRepresentative only for a CNPJ. */
export function producerRecord(producer: Producer) {
  const record: Record<string, unknown> = {
    name: producer.name,
    email: producer.email,
    phone: formatBrPhone(producer.phone),
  };
  if (producer.document) record.document = formatDocument(producer.document);
  if (producer.address) record.address = formatAddress(producer.address);
  if (producer.document && producer.document.length === 14 && producer.legalRepresentative) {
    const rep = producer.legalRepresentative;
    record.legalRepresentative = {
      name: rep.name,
      phone: formatBrPhone(rep.phone),
      document: formatDocument(rep.document),
      address: formatAddress(rep.address),
    };
  }
  return record;
}

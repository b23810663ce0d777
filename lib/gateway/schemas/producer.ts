import { z } from "zod";

export const producerAddressSchema = z.looseObject({
  zipCode: z.string().optional(),
  country: z.string().optional(),
  state: z.string().optional(),
  city: z.string().optional(),
  neighborhood: z.string().optional(),
  street: z.string().optional(),
  number: z.string().optional(),
  complement: z.string().optional(),
});

/** 2.6: `document` and `address` are omitted before KYC; `legalRepresentative` only for CNPJ. */
export const producerRecordSchema = z.looseObject({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  document: z.string().optional(),
  address: producerAddressSchema.optional(),
  legalRepresentative: z
    .looseObject({
      name: z.string().optional(),
      phone: z.string().optional(),
      document: z.string().optional(),
      address: producerAddressSchema.optional(),
    })
    .optional(),
});

export type ProducerAddress = z.output<typeof producerAddressSchema>;
export type ProducerRecord = z.output<typeof producerRecordSchema>;

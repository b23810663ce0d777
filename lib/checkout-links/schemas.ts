import { z } from "zod";
import { zMoney } from "@/lib/br/zod";
import { CHECKOUT_DOCUMENTS, CHECKOUT_PAYMENT_METHODS } from "./options";

const optionalText = (max: number) => z.string().trim().max(max).optional();
const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), { error: "errors.urlInvalid" });
const hexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: "checkoutLinks.errors.colorInvalid" });

export const checkoutLinkFormSchema = z
  .object({
    product: z.object({
      externalId: z.string().trim().min(1, { error: "errors.required" }).max(120),
      name: z.string().trim().min(1, { error: "errors.required" }).max(200),
      photos: z.array(z.object({ url: z.union([z.literal(""), httpUrl]) })).max(10),
    }),
    offer: z.object({
      name: z.string().trim().min(1, { error: "errors.required" }).max(200),
      price: zMoney,
      offerType: z.string().trim().min(1, { error: "errors.required" }).max(60),
      currency: z.string().trim().min(1, { error: "errors.required" }).max(10),
      lang: z.string().trim().min(1, { error: "errors.required" }).max(10),
    }),
    settings: z.object({
      paymentMethods: z.array(z.enum(CHECKOUT_PAYMENT_METHODS)).min(1, { error: "checkoutLinks.errors.methodRequired" }),
      acceptedDocs: z.array(z.enum(CHECKOUT_DOCUMENTS)).min(1, { error: "checkoutLinks.errors.documentRequired" }),
      thankYouPage: z.union([z.literal(""), httpUrl]).optional(),
      askForAddress: z.boolean(),
      useColors: z.boolean(),
      colors: z.object({ primary: hexColor, background: hexColor, text: hexColor, buttonText: hexColor }),
    }),
    prefill: z.boolean(),
    customer: z.object({
      name: optionalText(200),
      email: z.union([z.literal(""), z.email({ error: "errors.emailInvalid" })]).optional(),
      phone: optionalText(40),
      document: optionalText(30),
      address: z.object({
        zipCode: optionalText(12),
        street: optionalText(200),
        number: optionalText(20),
        complement: optionalText(100),
        neighborhood: optionalText(100),
        city: optionalText(100),
        state: optionalText(2),
        country: optionalText(2),
      }),
    }),
  })
  .transform((values) => {
    const photos = values.product.photos.map((p) => p.url.trim()).filter(Boolean);
    const address = Object.fromEntries(Object.entries(values.customer.address).filter(([, v]) => v));
    const customerEntries = Object.entries({
      name: values.customer.name,
      email: values.customer.email,
      phone: values.customer.phone,
      document: values.customer.document,
    }).filter(([, v]) => v);
    const customer = values.prefill ? { ...Object.fromEntries(customerEntries), ...(Object.keys(address).length ? { address } : {}) } : {};
    return {
      product: {
        externalId: values.product.externalId,
        name: values.product.name,
        ...(photos.length ? { photos } : {}),
        offer: values.offer,
      },
      settings: {
        paymentMethods: values.settings.paymentMethods,
        acceptedDocs: values.settings.acceptedDocs,
        ...(values.settings.thankYouPage ? { thankYouPage: values.settings.thankYouPage } : {}),
        askForAddress: values.settings.askForAddress,
        ...(values.settings.useColors ? { colors: values.settings.colors } : {}),
      },
      ...(Object.keys(customer).length ? { customer } : {}),
    };
  });

export type CheckoutLinkFormValues = z.input<typeof checkoutLinkFormSchema>;
export type CheckoutLinkInput = z.output<typeof checkoutLinkFormSchema>;

// The zod schemas of these values are in ./zod (import "@/lib/br/zod"): the browser loads zod only with a form's schema.
export * from "./digits";
export * from "./text";
export * from "./cpf";
export * from "./cnpj";
export * from "./document";
export * from "./phone";
export * from "./cep";
export * from "./uf";
export * from "./money";
export * from "./pix-key";
export * from "./brcode";
export * from "./boleto";
export * from "./itf";
export * from "./card";
export * from "./ip";
export * from "./masks";

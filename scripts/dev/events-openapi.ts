// `npm run events:openapi`: writes the events' contract to public/events/openapi.json (served at
// /events/openapi.json). lib/destinations/__tests__/contract.test.ts fails when it is out of date.
import { writeFileSync, mkdirSync } from "node:fs";
import { eventsOpenApi } from "@/lib/destinations/openapi";

mkdirSync("public/events", { recursive: true });
writeFileSync("public/events/openapi.json", `${JSON.stringify(eventsOpenApi(), null, 2)}\n`);
console.log("wrote public/events/openapi.json");

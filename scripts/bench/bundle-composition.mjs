#!/usr/bin/env node
// What each page's first-load JavaScript is made of, by package, from a build with browser source
// maps: `ANALYZE_BUNDLES=1 NEXT_DIST_DIR=.next-analyze npx next build`, then
// `node scripts/bench/bundle-composition.mjs [.next-analyze] [route-filter]`.
// Sizes are gzip; a chunk's gzip size is shared among its sources by their share of its bytes.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { TraceMap, eachMapping } from "@jridgewell/trace-mapping";

const distDir = path.resolve(process.argv[2] ?? ".next-analyze");
const filter = process.argv[3] ?? "";
const buildManifest = JSON.parse(readFileSync(path.join(distDir, "build-manifest.json"), "utf8"));

function manifests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return manifests(full);
    return entry.name === "page_client-reference-manifest.js" ? [full] : [];
  });
}

function packageOf(source) {
  const cleaned = source
    .replace(/^.*?\[project\]\//, "")
    .replace(/^turbopack:\/\/\/?/, "")
    .replace(/^\.\.\//, "");
  const match = cleaned.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (match) return match[1];
  const [top, second] = cleaned.split("/");
  return second ? `${top}/${second}` : top;
}

const chunkCache = new Map();
function chunkComposition(file) {
  if (chunkCache.has(file)) return chunkCache.get(file);
  const full = path.join(distDir, file);
  const code = readFileSync(full);
  const gzip = gzipSync(code).length;
  const byPackage = new Map();
  const mapName = code.toString("utf8").match(/\/\/# sourceMappingURL=(\S+)\s*$/)?.[1];
  const mapFile = mapName ? path.join(path.dirname(full), mapName) : "";
  if (mapFile && existsSync(mapFile)) {
    const map = new TraceMap(readFileSync(mapFile, "utf8"));
    const lines = code.toString("utf8").split("\n");
    let previous = null;
    const flush = (next) => {
      if (!previous) return;
      const end =
        next && next.generatedLine === previous.generatedLine
          ? next.generatedColumn
          : (lines[previous.generatedLine - 1]?.length ?? previous.generatedColumn);
      const key = previous.source ? packageOf(previous.source) : "(runtime)";
      byPackage.set(key, (byPackage.get(key) ?? 0) + Math.max(0, end - previous.generatedColumn));
    };
    eachMapping(map, (mapping) => {
      flush(mapping);
      previous = { ...mapping };
    });
    flush(null);
  }
  const mapped = [...byPackage.values()].reduce((a, b) => a + b, 0) || 1;
  const shares = new Map([...byPackage].map(([key, bytes]) => [key, (bytes / mapped) * gzip]));
  if (shares.size === 0) shares.set(`(unmapped ${file})`, gzip);
  const result = { gzip, shares };
  chunkCache.set(file, result);
  return result;
}

const pages = manifests(path.join(distDir, "server/app"))
  .map((file) => {
    const text = readFileSync(file, "utf8");
    const route = text.match(/__RSC_MANIFEST\["([^"]+)"\]/)[1];
    const json = text
      .slice(text.indexOf("] = ") + 4)
      .trim()
      .replace(/;$/, "");
    const entry = JSON.parse(json).entryJSFiles;
    const chunks = new Set(buildManifest.rootMainFiles);
    for (const files of Object.values(entry)) for (const chunk of files) chunks.add(chunk);
    return { route, chunks: [...chunks] };
  })
  .filter(({ route }) => route.includes(filter));

const totals = [];
for (const { route, chunks } of pages) {
  const byPackage = new Map();
  let total = 0;
  for (const chunk of chunks) {
    const { gzip, shares } = chunkComposition(chunk);
    total += gzip;
    for (const [key, bytes] of shares) byPackage.set(key, (byPackage.get(key) ?? 0) + bytes);
  }
  totals.push({ route, total, byPackage });
}
totals.sort((a, b) => b.total - a.total);
for (const { route, total } of totals) {
  console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  ${route}`);
}
const heaviest = process.env.ROUTE ? totals.find(({ route }) => route === process.env.ROUTE) : totals[0];
if (heaviest) {
  console.log(`\nheaviest page ${heaviest.route}, by package (gzip KB):`);
  for (const [key, bytes] of [...heaviest.byPackage].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${(bytes / 1024).toFixed(1).padStart(7)}  ${key}`);
  }
}

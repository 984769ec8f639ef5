// The contract's currencies, derived from ISO 4217 as the `currency-codes` package ships it: every
// code with minor units that is not a fund or a precious metal, lowercase as the API writes them.
// Writes openapi/components/schemas/currency.yaml.
//   npx tsx codegen/currencies.ts [--check]   rewrite the file, or exit 1 when it is stale
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "openapi", "components", "schemas", "currency.yaml");

/** Lowercase ISO 4217 codes of currencies a price can be in, sorted. */
export function isoCurrencies(): { codes: string[]; published: string } {
  const dir = dirname(require.resolve("currency-codes/package.json"));
  const xml = readFileSync(join(dir, "iso-4217-list-one.xml"), "utf8");
  const published = /Pblshd="([^"]+)"/.exec(xml)?.[1] ?? "unknown";
  const codes = new Set<string>();
  for (const [, entry] of xml.matchAll(/<CcyNtry>([\s\S]*?)<\/CcyNtry>/g)) {
    const code = /<Ccy>([A-Z]{3})<\/Ccy>/.exec(entry)?.[1];
    const minorUnits = /<CcyMnrUnts>(\d+)<\/CcyMnrUnts>/.exec(entry)?.[1];
    const fund = /IsFund="true"/.test(entry);
    if (code && minorUnits !== undefined && !fund) codes.add(code.toLowerCase());
  }
  return { codes: [...codes].sort(), published };
}

export function currencyYaml(): string {
  const { codes, published } = isoCurrencies();
  return [
    "# Written by codegen/currencies.ts from ISO 4217 list one (published " + published + "); do not edit by hand.",
    "Currency:",
    "  description: A currency, as its lowercase ISO 4217 code.",
    "  type: string",
    "  enum:",
    ...codes.map((c) => `    - ${c}`),
    "",
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const want = currencyYaml();
  if (process.argv.includes("--check")) {
    const have = readFileSync(target, "utf8");
    if (have !== want) {
      console.error(`${target} is not the ISO 4217 list: run npx tsx codegen/currencies.ts`);
      process.exit(1);
    }
  } else {
    writeFileSync(target, want);
  }
}

// VAT rates of the EU-27, in pcm (20000 = 20%), effective-dated from the tables' coverage start.
// Source for every member state: the European Commission's rates table (the TEDB behind it);
// where a rate changed, the national tax administration's page that announced it.
// vat(code, name, standard, reduced, e-book rate where reduced, source).
import { changes, country, type CountryRates, type Rates, type ReducedRates } from "./types.js";

const EC = "https://taxation-customs.ec.europa.eu/taxation/vat/vat-directive/vat-rates_en";
const EMTA = "https://www.emta.ee/en/business-client/taxes-and-payment/value-added-tax";
const VERO = "https://www.vero.fi/en/businesses-and-corporations/taxes-and-charges/vat/rates-of-vat/";
const FS = "https://www.financnasprava.sk/en/businesses/taxes/value-added-tax";
const CHECKED = "2025-09-01";

function vat(code: string, name: string, standard: Rates, reduced: ReducedRates, ebook?: Rates, source = EC): CountryRates {
  return country(code, name, "VAT", source, CHECKED, standard, reduced, ebook);
}

export const EU_RATES: CountryRates[] = [
  vat("AT", "Austria", 20000, [13000, 10000], 10000),
  vat("BE", "Belgium", 21000, [12000, 6000], 6000),
  vat("BG", "Bulgaria", 20000, [9000]),
  vat("HR", "Croatia", 25000, [13000, 5000]),
  vat("CY", "Cyprus", 19000, [9000, 5000]),
  vat("CZ", "Czechia", 21000, changes([15000, 10000], ["2024-01-01", [12000]])),
  vat("DK", "Denmark", 25000, []),
  vat(
    "EE",
    "Estonia",
    changes(20000, ["2024-01-01", 22000], ["2025-07-01", 24000]),
    changes([9000, 5000], ["2025-01-01", [13000, 9000]]),
    undefined,
    EMTA,
  ),
  vat("FI", "Finland", changes(24000, ["2024-09-01", 25500]), [14000, 10000], changes(10000, ["2025-01-01", 14000]), VERO),
  vat("FR", "France", 20000, [10000, 5500, 2100], 5500),
  vat("DE", "Germany", 19000, [7000], 7000),
  vat("GR", "Greece", 24000, [13000, 6000]),
  vat("HU", "Hungary", 27000, [18000, 5000]),
  vat("IE", "Ireland", 23000, [13500, 9000, 4800]),
  vat("IT", "Italy", 22000, [10000, 5000, 4000], 4000),
  vat("LV", "Latvia", 21000, [12000, 5000]),
  vat("LT", "Lithuania", 21000, [9000, 5000]),
  // 2023 only: every rate one point lower.
  vat(
    "LU",
    "Luxembourg",
    changes(17000, ["2023-01-01", 16000], ["2024-01-01", 17000]),
    changes([14000, 8000, 3000], ["2023-01-01", [13000, 7000, 3000]], ["2024-01-01", [14000, 8000, 3000]]),
    3000,
  ),
  vat("MT", "Malta", 18000, [7000, 5000]),
  vat("NL", "Netherlands", 21000, [9000], 9000),
  vat("PL", "Poland", 23000, [8000, 5000], 5000),
  vat("PT", "Portugal", 23000, [13000, 6000], 6000),
  vat("RO", "Romania", changes(19000, ["2025-08-01", 21000]), changes([9000, 5000], ["2025-08-01", [11000]])),
  vat("SK", "Slovakia", changes(20000, ["2025-01-01", 23000]), changes([10000], ["2025-01-01", [19000, 5000]]), undefined, FS),
  vat("SI", "Slovenia", 22000, [9500, 5000]),
  vat("ES", "Spain", 21000, [10000, 4000], 4000),
  vat("SE", "Sweden", 25000, [12000, 6000], 6000),
];

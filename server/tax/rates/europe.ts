// VAT rates of the European countries outside the EU that the calculator covers: the United
// Kingdom, Norway, Switzerland and Iceland, in pcm (20000 = 20%), from each tax administration.
import { changes, country, type CountryRates } from "./types.js";

const CHECKED = "2025-09-01";

export const EUROPE_RATES: CountryRates[] = [
  // E-publications are zero-rated since 2020-05-01.
  country(
    "GB",
    "United Kingdom",
    "VAT",
    "https://www.gov.uk/guidance/rates-of-vat-on-different-goods-and-services",
    CHECKED,
    20000,
    [5000],
    0,
  ),
  // Electronic books are zero-rated since 2019-07-01.
  country("NO", "Norway", "MVA", "https://www.skatteetaten.no/en/rates/value-added-tax/", CHECKED, 25000, [15000, 12000], 0),
  // Electronic books take the reduced rate (since 2018).
  country(
    "CH",
    "Switzerland",
    "VAT",
    "https://www.estv.admin.ch/estv/en/home/value-added-tax/vat-rates-switzerland.html",
    CHECKED,
    changes(7700, ["2024-01-01", 8100]),
    changes([3700, 2500], ["2024-01-01", [3800, 2600]]),
    changes(2500, ["2024-01-01", 2600]),
  ),
  country("IS", "Iceland", "VSK", "https://www.skatturinn.is/english/companies/value-added-tax/", CHECKED, 24000, [11000]),
];

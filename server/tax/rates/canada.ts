// Canada's sales taxes, in pcm (5000 = 5%): the federal GST, the HST that replaces it in five
// provinces, and the provincial PST/QST charged beside it in British Columbia, Manitoba,
// Saskatchewan and Quebec (each on digital services and software). Alberta and the territories
// have GST only.
import { always, changes, type CountryRates, type ProvinceRates } from "./types.js";

const CHECKED = "2025-09-01";
const CRA = "https://www.canada.ca/en/revenue-agency/services/tax/businesses/topics/gst-hst-businesses/charge-collect-which-rate.html";

export const CANADA_GST: CountryRates = {
  country: "CA",
  name: "Canada",
  tax: "GST",
  source: CRA,
  checked: CHECKED,
  standard: always(5000),
  reduced: always([]),
};

function province(
  code: string,
  name: string,
  kind: ProvinceRates["kind"],
  rate: ProvinceRates["rate"],
  postal: string,
  source = CRA,
): ProvinceRates {
  return { province: code, name, kind, source, checked: CHECKED, rate, postal };
}

export const CANADA_PROVINCES: ProvinceRates[] = [
  province("AB", "Alberta", "PST", always(0), "T"),
  province("BC", "British Columbia", "PST", always(7000), "V", "https://www2.gov.bc.ca/gov/content/taxes/sales-taxes/pst"),
  province("MB", "Manitoba", "PST", always(7000), "R", "https://www.gov.mb.ca/finance/taxation/taxes/retail.html"),
  province("NB", "New Brunswick", "HST", always(15000), "E"),
  province("NL", "Newfoundland and Labrador", "HST", always(15000), "A"),
  province("NS", "Nova Scotia", "HST", changes(15000, ["2025-04-01", 14000]), "B"),
  province("NT", "Northwest Territories", "PST", always(0), "X"),
  province("NU", "Nunavut", "PST", always(0), "X"),
  province("ON", "Ontario", "HST", always(13000), "KLMNP"),
  province("PE", "Prince Edward Island", "HST", always(15000), "C"),
  province("QC", "Quebec", "QST", always(9975), "GHJ", "https://www.revenuquebec.ca/en/businesses/consumption-taxes/gsthst-and-qst/"),
  province(
    "SK",
    "Saskatchewan",
    "PST",
    always(6000),
    "S",
    "https://www.saskatchewan.ca/business/taxes-licensing-and-reporting/provincial-taxes-policies-and-bulletins/provincial-sales-tax",
  ),
  province("YT", "Yukon", "PST", always(0), "Y"),
];

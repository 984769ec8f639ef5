// GST, VAT and consumption tax of Australia, New Zealand, Japan, Singapore, South Korea and
// India, in pcm (10000 = 10%). A foreign seller of digital services registers in each of them.
import { changes, country, type CountryRates } from "./types.js";

const CHECKED = "2025-09-01";

export const APAC_RATES: CountryRates[] = [
  country(
    "AU",
    "Australia",
    "GST",
    "https://www.ato.gov.au/businesses-and-organisations/gst-excise-and-indirect-taxes/gst",
    CHECKED,
    10000,
    [],
  ),
  country("NZ", "New Zealand", "GST", "https://www.ird.govt.nz/gst/charging-gst", CHECKED, 15000, []),
  // The 8% reduced rate is for food and newspapers; digital services take 10%.
  country("JP", "Japan", "JCT", "https://www.nta.go.jp/english/taxes/consumption_tax/", CHECKED, 10000, [8000]),
  country(
    "SG",
    "Singapore",
    "GST",
    "https://www.iras.gov.sg/taxes/goods-services-tax-(gst)/basics-of-gst/current-gst-rates",
    CHECKED,
    changes(7000, ["2023-01-01", 8000], ["2024-01-01", 9000]),
    [],
  ),
  country("KR", "South Korea", "VAT", "https://www.nts.go.kr/english/main.do", CHECKED, 10000, []),
  // Online information and database access services (OIDAR) take 18% IGST. The 12% and 28% slabs
  // were folded into 5% and 18% on 2025-09-22 (and a 40% rate for a few goods, not a reduced one).
  country(
    "IN",
    "India",
    "GST",
    "https://cbic-gst.gov.in/gst-goods-services-rates.html",
    CHECKED,
    18000,
    changes([5000, 12000, 28000], ["2025-09-22", [5000]]),
  ),
];

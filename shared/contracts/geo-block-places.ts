/**
 * The places a creator may hide their content from (docs/decisions/geo-blocking.md): every ISO 3166-1 alpha-2
 * country, and Kosovo's XK, which Cloudflare's CF-IPCountry uses although ISO has not assigned it; and the US
 * states with DC as "US-" and their two letters (CF-Region-Code). Apart from geo-blocks.ts, whose schemas the
 * browser must not load. The page names countries in the reader's language with Intl.DisplayNames.
 */
export const COUNTRY_CODES =
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR
BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ
FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE
JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR
MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU
RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG
UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW`.split(/\s+/);

/** The 50 states and the District of Columbia, by their USPS letters; names are proper nouns, shown as written. */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
};

/** Every place code a creator may choose: "DE", "US-TX". */
export const GEO_BLOCK_PLACES: ReadonlySet<string> = new Set([
  ...COUNTRY_CODES,
  ...Object.keys(US_STATES).map((state) => `US-${state}`),
]);

/** The most places one creator keeps (every country and state fits). */
export const GEO_BLOCKS_MAX = 320;

/**
 * The place codes a request from `country` (and `region`, a US state's letters) falls under: the country, and
 * "US-TX" in Texas. Only known codes, so what is returned may be written into SQL as it is.
 */
export function placesOf(country: string, region: string | null): string[] {
  const places = [country, ...(region ? [`${country}-${region}`] : [])];
  return places.filter((place) => GEO_BLOCK_PLACES.has(place));
}

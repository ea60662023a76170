/**
 * Static seed data for Bourse: areas (countries/territories with calling codes),
 * instrument categories, tradable instruments, news and announcements.
 *
 * Pure data + types. No imports, no I/O. Monetary / decimal values are strings.
 */

export interface AreaSeed {
  id: number;
  /** ISO 3166-1 alpha-2 */
  code: string;
  /** English short name */
  name: string;
  /** International calling code, digits only (no "+"); NANP territories use e.g. "1876". */
  globalCode: string;
}

/**
 * ids 1..N. 1 = United States, 2 = Hong Kong (app default), 3 = Macau, 4 = Taiwan,
 * 5 = United Kingdom, then alphabetical by English name.
 * Services are not provided in North Korea, Israel, China (mainland), Vanuatu and Cuba,
 * so those are intentionally absent.
 */
export const AREAS: AreaSeed[] = [
  { id: 1, code: "US", name: "United States", globalCode: "1" },
  { id: 2, code: "HK", name: "Hong Kong", globalCode: "852" },
  { id: 3, code: "MO", name: "Macau", globalCode: "853" },
  { id: 4, code: "TW", name: "Taiwan", globalCode: "886" },
  { id: 5, code: "GB", name: "United Kingdom", globalCode: "44" },
  { id: 6, code: "AF", name: "Afghanistan", globalCode: "93" },
  { id: 7, code: "AX", name: "Åland Islands", globalCode: "358" },
  { id: 8, code: "AL", name: "Albania", globalCode: "355" },
  { id: 9, code: "DZ", name: "Algeria", globalCode: "213" },
  { id: 10, code: "AS", name: "American Samoa", globalCode: "1684" },
  { id: 11, code: "AD", name: "Andorra", globalCode: "376" },
  { id: 12, code: "AO", name: "Angola", globalCode: "244" },
  { id: 13, code: "AI", name: "Anguilla", globalCode: "1264" },
  { id: 14, code: "AG", name: "Antigua and Barbuda", globalCode: "1268" },
  { id: 15, code: "AR", name: "Argentina", globalCode: "54" },
  { id: 16, code: "AM", name: "Armenia", globalCode: "374" },
  { id: 17, code: "AW", name: "Aruba", globalCode: "297" },
  { id: 18, code: "AU", name: "Australia", globalCode: "61" },
  { id: 19, code: "AT", name: "Austria", globalCode: "43" },
  { id: 20, code: "AZ", name: "Azerbaijan", globalCode: "994" },
  { id: 21, code: "BS", name: "Bahamas", globalCode: "1242" },
  { id: 22, code: "BH", name: "Bahrain", globalCode: "973" },
  { id: 23, code: "BD", name: "Bangladesh", globalCode: "880" },
  { id: 24, code: "BB", name: "Barbados", globalCode: "1246" },
  { id: 25, code: "BY", name: "Belarus", globalCode: "375" },
  { id: 26, code: "BE", name: "Belgium", globalCode: "32" },
  { id: 27, code: "BZ", name: "Belize", globalCode: "501" },
  { id: 28, code: "BJ", name: "Benin", globalCode: "229" },
  { id: 29, code: "BM", name: "Bermuda", globalCode: "1441" },
  { id: 30, code: "BT", name: "Bhutan", globalCode: "975" },
  { id: 31, code: "BO", name: "Bolivia", globalCode: "591" },
  { id: 32, code: "BQ", name: "Bonaire, Sint Eustatius and Saba", globalCode: "599" },
  { id: 33, code: "BA", name: "Bosnia and Herzegovina", globalCode: "387" },
  { id: 34, code: "BW", name: "Botswana", globalCode: "267" },
  { id: 35, code: "BR", name: "Brazil", globalCode: "55" },
  { id: 36, code: "IO", name: "British Indian Ocean Territory", globalCode: "246" },
  { id: 37, code: "VG", name: "British Virgin Islands", globalCode: "1284" },
  { id: 38, code: "BN", name: "Brunei", globalCode: "673" },
  { id: 39, code: "BG", name: "Bulgaria", globalCode: "359" },
  { id: 40, code: "BF", name: "Burkina Faso", globalCode: "226" },
  { id: 41, code: "BI", name: "Burundi", globalCode: "257" },
  { id: 42, code: "CV", name: "Cabo Verde", globalCode: "238" },
  { id: 43, code: "KH", name: "Cambodia", globalCode: "855" },
  { id: 44, code: "CM", name: "Cameroon", globalCode: "237" },
  { id: 45, code: "CA", name: "Canada", globalCode: "1" },
  { id: 46, code: "KY", name: "Cayman Islands", globalCode: "1345" },
  { id: 47, code: "CF", name: "Central African Republic", globalCode: "236" },
  { id: 48, code: "TD", name: "Chad", globalCode: "235" },
  { id: 49, code: "CL", name: "Chile", globalCode: "56" },
  { id: 50, code: "CX", name: "Christmas Island", globalCode: "61" },
  { id: 51, code: "CC", name: "Cocos (Keeling) Islands", globalCode: "61" },
  { id: 52, code: "CO", name: "Colombia", globalCode: "57" },
  { id: 53, code: "KM", name: "Comoros", globalCode: "269" },
  { id: 54, code: "CG", name: "Congo", globalCode: "242" },
  { id: 55, code: "CK", name: "Cook Islands", globalCode: "682" },
  { id: 56, code: "CR", name: "Costa Rica", globalCode: "506" },
  { id: 57, code: "CI", name: "Côte d'Ivoire", globalCode: "225" },
  { id: 58, code: "HR", name: "Croatia", globalCode: "385" },
  { id: 59, code: "CW", name: "Curaçao", globalCode: "599" },
  { id: 60, code: "CY", name: "Cyprus", globalCode: "357" },
  { id: 61, code: "CZ", name: "Czechia", globalCode: "420" },
  { id: 62, code: "CD", name: "Democratic Republic of the Congo", globalCode: "243" },
  { id: 63, code: "DK", name: "Denmark", globalCode: "45" },
  { id: 64, code: "DJ", name: "Djibouti", globalCode: "253" },
  { id: 65, code: "DM", name: "Dominica", globalCode: "1767" },
  { id: 66, code: "DO", name: "Dominican Republic", globalCode: "1809" },
  { id: 67, code: "EC", name: "Ecuador", globalCode: "593" },
  { id: 68, code: "EG", name: "Egypt", globalCode: "20" },
  { id: 69, code: "SV", name: "El Salvador", globalCode: "503" },
  { id: 70, code: "GQ", name: "Equatorial Guinea", globalCode: "240" },
  { id: 71, code: "ER", name: "Eritrea", globalCode: "291" },
  { id: 72, code: "EE", name: "Estonia", globalCode: "372" },
  { id: 73, code: "SZ", name: "Eswatini", globalCode: "268" },
  { id: 74, code: "ET", name: "Ethiopia", globalCode: "251" },
  { id: 75, code: "FK", name: "Falkland Islands", globalCode: "500" },
  { id: 76, code: "FO", name: "Faroe Islands", globalCode: "298" },
  { id: 77, code: "FJ", name: "Fiji", globalCode: "679" },
  { id: 78, code: "FI", name: "Finland", globalCode: "358" },
  { id: 79, code: "FR", name: "France", globalCode: "33" },
  { id: 80, code: "GF", name: "French Guiana", globalCode: "594" },
  { id: 81, code: "PF", name: "French Polynesia", globalCode: "689" },
  { id: 82, code: "GA", name: "Gabon", globalCode: "241" },
  { id: 83, code: "GM", name: "Gambia", globalCode: "220" },
  { id: 84, code: "GE", name: "Georgia", globalCode: "995" },
  { id: 85, code: "DE", name: "Germany", globalCode: "49" },
  { id: 86, code: "GH", name: "Ghana", globalCode: "233" },
  { id: 87, code: "GI", name: "Gibraltar", globalCode: "350" },
  { id: 88, code: "GR", name: "Greece", globalCode: "30" },
  { id: 89, code: "GL", name: "Greenland", globalCode: "299" },
  { id: 90, code: "GD", name: "Grenada", globalCode: "1473" },
  { id: 91, code: "GP", name: "Guadeloupe", globalCode: "590" },
  { id: 92, code: "GU", name: "Guam", globalCode: "1671" },
  { id: 93, code: "GT", name: "Guatemala", globalCode: "502" },
  { id: 94, code: "GG", name: "Guernsey", globalCode: "44" },
  { id: 95, code: "GN", name: "Guinea", globalCode: "224" },
  { id: 96, code: "GW", name: "Guinea-Bissau", globalCode: "245" },
  { id: 97, code: "GY", name: "Guyana", globalCode: "592" },
  { id: 98, code: "HT", name: "Haiti", globalCode: "509" },
  { id: 99, code: "HN", name: "Honduras", globalCode: "504" },
  { id: 100, code: "HU", name: "Hungary", globalCode: "36" },
  { id: 101, code: "IS", name: "Iceland", globalCode: "354" },
  { id: 102, code: "IN", name: "India", globalCode: "91" },
  { id: 103, code: "ID", name: "Indonesia", globalCode: "62" },
  { id: 104, code: "IR", name: "Iran", globalCode: "98" },
  { id: 105, code: "IQ", name: "Iraq", globalCode: "964" },
  { id: 106, code: "IE", name: "Ireland", globalCode: "353" },
  { id: 107, code: "IM", name: "Isle of Man", globalCode: "44" },
  { id: 108, code: "IT", name: "Italy", globalCode: "39" },
  { id: 109, code: "JM", name: "Jamaica", globalCode: "1876" },
  { id: 110, code: "JP", name: "Japan", globalCode: "81" },
  { id: 111, code: "JE", name: "Jersey", globalCode: "44" },
  { id: 112, code: "JO", name: "Jordan", globalCode: "962" },
  { id: 113, code: "KZ", name: "Kazakhstan", globalCode: "7" },
  { id: 114, code: "KE", name: "Kenya", globalCode: "254" },
  { id: 115, code: "KI", name: "Kiribati", globalCode: "686" },
  { id: 116, code: "KW", name: "Kuwait", globalCode: "965" },
  { id: 117, code: "KG", name: "Kyrgyzstan", globalCode: "996" },
  { id: 118, code: "LA", name: "Laos", globalCode: "856" },
  { id: 119, code: "LV", name: "Latvia", globalCode: "371" },
  { id: 120, code: "LB", name: "Lebanon", globalCode: "961" },
  { id: 121, code: "LS", name: "Lesotho", globalCode: "266" },
  { id: 122, code: "LR", name: "Liberia", globalCode: "231" },
  { id: 123, code: "LY", name: "Libya", globalCode: "218" },
  { id: 124, code: "LI", name: "Liechtenstein", globalCode: "423" },
  { id: 125, code: "LT", name: "Lithuania", globalCode: "370" },
  { id: 126, code: "LU", name: "Luxembourg", globalCode: "352" },
  { id: 127, code: "MG", name: "Madagascar", globalCode: "261" },
  { id: 128, code: "MW", name: "Malawi", globalCode: "265" },
  { id: 129, code: "MY", name: "Malaysia", globalCode: "60" },
  { id: 130, code: "MV", name: "Maldives", globalCode: "960" },
  { id: 131, code: "ML", name: "Mali", globalCode: "223" },
  { id: 132, code: "MT", name: "Malta", globalCode: "356" },
  { id: 133, code: "MH", name: "Marshall Islands", globalCode: "692" },
  { id: 134, code: "MQ", name: "Martinique", globalCode: "596" },
  { id: 135, code: "MR", name: "Mauritania", globalCode: "222" },
  { id: 136, code: "MU", name: "Mauritius", globalCode: "230" },
  { id: 137, code: "YT", name: "Mayotte", globalCode: "262" },
  { id: 138, code: "MX", name: "Mexico", globalCode: "52" },
  { id: 139, code: "FM", name: "Micronesia", globalCode: "691" },
  { id: 140, code: "MD", name: "Moldova", globalCode: "373" },
  { id: 141, code: "MC", name: "Monaco", globalCode: "377" },
  { id: 142, code: "MN", name: "Mongolia", globalCode: "976" },
  { id: 143, code: "ME", name: "Montenegro", globalCode: "382" },
  { id: 144, code: "MS", name: "Montserrat", globalCode: "1664" },
  { id: 145, code: "MA", name: "Morocco", globalCode: "212" },
  { id: 146, code: "MZ", name: "Mozambique", globalCode: "258" },
  { id: 147, code: "MM", name: "Myanmar", globalCode: "95" },
  { id: 148, code: "NA", name: "Namibia", globalCode: "264" },
  { id: 149, code: "NR", name: "Nauru", globalCode: "674" },
  { id: 150, code: "NP", name: "Nepal", globalCode: "977" },
  { id: 151, code: "NL", name: "Netherlands", globalCode: "31" },
  { id: 152, code: "NC", name: "New Caledonia", globalCode: "687" },
  { id: 153, code: "NZ", name: "New Zealand", globalCode: "64" },
  { id: 154, code: "NI", name: "Nicaragua", globalCode: "505" },
  { id: 155, code: "NE", name: "Niger", globalCode: "227" },
  { id: 156, code: "NG", name: "Nigeria", globalCode: "234" },
  { id: 157, code: "NU", name: "Niue", globalCode: "683" },
  { id: 158, code: "NF", name: "Norfolk Island", globalCode: "672" },
  { id: 159, code: "MK", name: "North Macedonia", globalCode: "389" },
  { id: 160, code: "MP", name: "Northern Mariana Islands", globalCode: "1670" },
  { id: 161, code: "NO", name: "Norway", globalCode: "47" },
  { id: 162, code: "OM", name: "Oman", globalCode: "968" },
  { id: 163, code: "PK", name: "Pakistan", globalCode: "92" },
  { id: 164, code: "PW", name: "Palau", globalCode: "680" },
  { id: 165, code: "PS", name: "Palestine", globalCode: "970" },
  { id: 166, code: "PA", name: "Panama", globalCode: "507" },
  { id: 167, code: "PG", name: "Papua New Guinea", globalCode: "675" },
  { id: 168, code: "PY", name: "Paraguay", globalCode: "595" },
  { id: 169, code: "PE", name: "Peru", globalCode: "51" },
  { id: 170, code: "PH", name: "Philippines", globalCode: "63" },
  { id: 171, code: "PN", name: "Pitcairn Islands", globalCode: "64" },
  { id: 172, code: "PL", name: "Poland", globalCode: "48" },
  { id: 173, code: "PT", name: "Portugal", globalCode: "351" },
  { id: 174, code: "PR", name: "Puerto Rico", globalCode: "1787" },
  { id: 175, code: "QA", name: "Qatar", globalCode: "974" },
  { id: 176, code: "RE", name: "Réunion", globalCode: "262" },
  { id: 177, code: "RO", name: "Romania", globalCode: "40" },
  { id: 178, code: "RU", name: "Russia", globalCode: "7" },
  { id: 179, code: "RW", name: "Rwanda", globalCode: "250" },
  { id: 180, code: "BL", name: "Saint Barthélemy", globalCode: "590" },
  { id: 181, code: "SH", name: "Saint Helena, Ascension and Tristan da Cunha", globalCode: "290" },
  { id: 182, code: "KN", name: "Saint Kitts and Nevis", globalCode: "1869" },
  { id: 183, code: "LC", name: "Saint Lucia", globalCode: "1758" },
  { id: 184, code: "MF", name: "Saint Martin", globalCode: "590" },
  { id: 185, code: "PM", name: "Saint Pierre and Miquelon", globalCode: "508" },
  { id: 186, code: "VC", name: "Saint Vincent and the Grenadines", globalCode: "1784" },
  { id: 187, code: "WS", name: "Samoa", globalCode: "685" },
  { id: 188, code: "SM", name: "San Marino", globalCode: "378" },
  { id: 189, code: "ST", name: "São Tomé and Príncipe", globalCode: "239" },
  { id: 190, code: "SA", name: "Saudi Arabia", globalCode: "966" },
  { id: 191, code: "SN", name: "Senegal", globalCode: "221" },
  { id: 192, code: "RS", name: "Serbia", globalCode: "381" },
  { id: 193, code: "SC", name: "Seychelles", globalCode: "248" },
  { id: 194, code: "SL", name: "Sierra Leone", globalCode: "232" },
  { id: 195, code: "SG", name: "Singapore", globalCode: "65" },
  { id: 196, code: "SX", name: "Sint Maarten", globalCode: "1721" },
  { id: 197, code: "SK", name: "Slovakia", globalCode: "421" },
  { id: 198, code: "SI", name: "Slovenia", globalCode: "386" },
  { id: 199, code: "SB", name: "Solomon Islands", globalCode: "677" },
  { id: 200, code: "SO", name: "Somalia", globalCode: "252" },
  { id: 201, code: "ZA", name: "South Africa", globalCode: "27" },
  { id: 202, code: "KR", name: "South Korea", globalCode: "82" },
  { id: 203, code: "SS", name: "South Sudan", globalCode: "211" },
  { id: 204, code: "ES", name: "Spain", globalCode: "34" },
  { id: 205, code: "LK", name: "Sri Lanka", globalCode: "94" },
  { id: 206, code: "SD", name: "Sudan", globalCode: "249" },
  { id: 207, code: "SR", name: "Suriname", globalCode: "597" },
  { id: 208, code: "SJ", name: "Svalbard and Jan Mayen", globalCode: "47" },
  { id: 209, code: "SE", name: "Sweden", globalCode: "46" },
  { id: 210, code: "CH", name: "Switzerland", globalCode: "41" },
  { id: 211, code: "SY", name: "Syria", globalCode: "963" },
  { id: 212, code: "TJ", name: "Tajikistan", globalCode: "992" },
  { id: 213, code: "TZ", name: "Tanzania", globalCode: "255" },
  { id: 214, code: "TH", name: "Thailand", globalCode: "66" },
  { id: 215, code: "TL", name: "Timor-Leste", globalCode: "670" },
  { id: 216, code: "TG", name: "Togo", globalCode: "228" },
  { id: 217, code: "TK", name: "Tokelau", globalCode: "690" },
  { id: 218, code: "TO", name: "Tonga", globalCode: "676" },
  { id: 219, code: "TT", name: "Trinidad and Tobago", globalCode: "1868" },
  { id: 220, code: "TN", name: "Tunisia", globalCode: "216" },
  { id: 221, code: "TR", name: "Türkiye", globalCode: "90" },
  { id: 222, code: "TM", name: "Turkmenistan", globalCode: "993" },
  { id: 223, code: "TC", name: "Turks and Caicos Islands", globalCode: "1649" },
  { id: 224, code: "TV", name: "Tuvalu", globalCode: "688" },
  { id: 225, code: "UG", name: "Uganda", globalCode: "256" },
  { id: 226, code: "UA", name: "Ukraine", globalCode: "380" },
  { id: 227, code: "AE", name: "United Arab Emirates", globalCode: "971" },
  { id: 228, code: "VI", name: "United States Virgin Islands", globalCode: "1340" },
  { id: 229, code: "UY", name: "Uruguay", globalCode: "598" },
  { id: 230, code: "UZ", name: "Uzbekistan", globalCode: "998" },
  { id: 231, code: "VA", name: "Vatican City", globalCode: "39" },
  { id: 232, code: "VE", name: "Venezuela", globalCode: "58" },
  { id: 233, code: "VN", name: "Vietnam", globalCode: "84" },
  { id: 234, code: "WF", name: "Wallis and Futuna", globalCode: "681" },
  { id: 235, code: "EH", name: "Western Sahara", globalCode: "212" },
  { id: 236, code: "YE", name: "Yemen", globalCode: "967" },
  { id: 237, code: "ZM", name: "Zambia", globalCode: "260" },
  { id: 238, code: "ZW", name: "Zimbabwe", globalCode: "263" },
];

export interface CategorySeed {
  id: number;
  key: "forex" | "metals" | "crypto" | "indices" | "energy";
  name: string;
  sort: number;
}

export const CATEGORIES: CategorySeed[] = [
  { id: 1, key: "forex", name: "Forex", sort: 1 },
  { id: 2, key: "metals", name: "Metals", sort: 2 },
  { id: 3, key: "crypto", name: "Crypto", sort: 3 },
  { id: 4, key: "indices", name: "Indices", sort: 4 },
  { id: 5, key: "energy", name: "Energy", sort: 5 },
];

export type SessionKind = "fx" | "metal" | "crypto" | "index" | "energy";

export interface InstrumentSeed {
  id: number;
  /** upstream code, e.g. "EURUSD" */
  code: string;
  /** display code, e.g. "EUR/USD" */
  showCode: string;
  categoryId: number;
  /** "/logos/<lowercase code>.svg" */
  logo: string;
  /** decimals of the price */
  pricePrecision: number;
  /** Pip: lot step */
  lotStep: string;
  /** ForexMinCont: minimum lots per order */
  minLots: string;
  /** ForexContNum: units per lot */
  contractSize: string;
  /** ForexFeeRate: fraction of margin */
  feeRate: string;
  /**
   * 2 = leveraged (margin = lots*units*price/multiple); 1 = fixed margin per lot (1 USD per unit:
   * the effective leverage is the price, so only for instruments priced at most
   * MAX_EFFECTIVE_LEVERAGE; seedStatements refuses anything else, see checkEffectiveLeverage)
   */
  marginMode: 1 | 2;
  /** leverage choices */
  multiples: number[];
  sessionKind: SessionKind;
  /** reference price with exactly pricePrecision decimals */
  basePrice: string;
  annualVolatility: string;
  status: 1;
  sort: number;
  /** Delivery contracts: days between deliveries (absent = perpetual). */
  deliveryDays?: number;
}

const FX_MULTIPLES: number[] = [10, 20, 50, 100, 200];
const METAL_MULTIPLES: number[] = [10, 20, 50, 100];
const CRYPTO_MULTIPLES: number[] = [5, 10, 20, 50];
const INDEX_MULTIPLES: number[] = [10, 20, 50];
const ENERGY_MULTIPLES: number[] = [10, 20, 50];

/** The first four by sort (BTCUSDT, ETHUSDT, EURUSD, XAUUSD) are featured on the home screen. */
export const INSTRUMENTS: InstrumentSeed[] = [
  // Featured
  {
    id: 1,
    code: "BTCUSDT",
    showCode: "BTC/USDT",
    categoryId: 3,
    logo: "/logos/btcusdt.svg",
    pricePrecision: 2,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1",
    feeRate: "0.0005",
    marginMode: 2,
    multiples: [...CRYPTO_MULTIPLES],
    sessionKind: "crypto",
    basePrice: "98250.50",
    annualVolatility: "0.60",
    status: 1,
    sort: 1,
  },
  {
    id: 2,
    code: "ETHUSDT",
    showCode: "ETH/USDT",
    categoryId: 3,
    logo: "/logos/ethusdt.svg",
    pricePrecision: 2,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1",
    feeRate: "0.0005",
    marginMode: 2,
    multiples: [...CRYPTO_MULTIPLES],
    sessionKind: "crypto",
    basePrice: "3420.75",
    annualVolatility: "0.65",
    status: 1,
    sort: 2,
  },
  {
    id: 3,
    code: "EURUSD",
    showCode: "EUR/USD",
    categoryId: 1,
    logo: "/logos/eurusd.svg",
    pricePrecision: 5,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100000",
    feeRate: "0.0003",
    marginMode: 2,
    multiples: [...FX_MULTIPLES],
    sessionKind: "fx",
    basePrice: "1.16240",
    annualVolatility: "0.07",
    status: 1,
    sort: 3,
  },
  {
    id: 4,
    code: "XAUUSD",
    showCode: "XAU/USD",
    categoryId: 2,
    logo: "/logos/xauusd.svg",
    pricePrecision: 2,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100",
    feeRate: "0.0004",
    marginMode: 2,
    multiples: [...METAL_MULTIPLES],
    sessionKind: "metal",
    basePrice: "4152.40",
    annualVolatility: "0.15",
    status: 1,
    sort: 4,
  },
  // Forex
  {
    id: 5,
    code: "GBPUSD",
    showCode: "GBP/USD",
    categoryId: 1,
    logo: "/logos/gbpusd.svg",
    pricePrecision: 5,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100000",
    feeRate: "0.0003",
    marginMode: 2,
    multiples: [...FX_MULTIPLES],
    sessionKind: "fx",
    basePrice: "1.31850",
    annualVolatility: "0.08",
    status: 1,
    sort: 5,
  },
  {
    id: 6,
    code: "USDJPY",
    showCode: "USD/JPY",
    categoryId: 1,
    logo: "/logos/usdjpy.svg",
    pricePrecision: 3,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100000",
    feeRate: "0.0003",
    marginMode: 2,
    multiples: [...FX_MULTIPLES],
    sessionKind: "fx",
    basePrice: "152.480",
    annualVolatility: "0.10",
    status: 1,
    sort: 6,
  },
  {
    id: 7,
    code: "AUDUSD",
    showCode: "AUD/USD",
    categoryId: 1,
    logo: "/logos/audusd.svg",
    pricePrecision: 5,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100000",
    feeRate: "0.0003",
    marginMode: 2,
    multiples: [...FX_MULTIPLES],
    sessionKind: "fx",
    basePrice: "0.65930",
    annualVolatility: "0.10",
    status: 1,
    sort: 7,
  },
  {
    id: 8,
    code: "USDCAD",
    showCode: "USD/CAD",
    categoryId: 1,
    logo: "/logos/usdcad.svg",
    pricePrecision: 5,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100000",
    feeRate: "0.0003",
    marginMode: 2,
    multiples: [...FX_MULTIPLES],
    sessionKind: "fx",
    basePrice: "1.39120",
    annualVolatility: "0.06",
    status: 1,
    sort: 8,
  },
  {
    id: 9,
    code: "USDCHF",
    showCode: "USD/CHF",
    categoryId: 1,
    logo: "/logos/usdchf.svg",
    pricePrecision: 5,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100000",
    feeRate: "0.0003",
    marginMode: 2,
    multiples: [...FX_MULTIPLES],
    sessionKind: "fx",
    basePrice: "0.80450",
    annualVolatility: "0.08",
    status: 1,
    sort: 9,
  },
  {
    id: 10,
    code: "NZDUSD",
    showCode: "NZD/USD",
    categoryId: 1,
    logo: "/logos/nzdusd.svg",
    pricePrecision: 5,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "100000",
    feeRate: "0.0003",
    marginMode: 2,
    multiples: [...FX_MULTIPLES],
    sessionKind: "fx",
    basePrice: "0.57810",
    annualVolatility: "0.10",
    status: 1,
    sort: 10,
  },
  // Metals
  {
    id: 11,
    code: "XAGUSD",
    showCode: "XAG/USD",
    categoryId: 2,
    logo: "/logos/xagusd.svg",
    pricePrecision: 3,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "5000",
    feeRate: "0.0004",
    marginMode: 2,
    multiples: [...METAL_MULTIPLES],
    sessionKind: "metal",
    basePrice: "48.625",
    annualVolatility: "0.25",
    status: 1,
    sort: 11,
  },
  // Crypto
  {
    id: 12,
    code: "SOLUSDT",
    showCode: "SOL/USDT",
    categoryId: 3,
    logo: "/logos/solusdt.svg",
    pricePrecision: 2,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1",
    feeRate: "0.0005",
    marginMode: 2,
    multiples: [...CRYPTO_MULTIPLES],
    sessionKind: "crypto",
    basePrice: "185.40",
    annualVolatility: "0.80",
    status: 1,
    sort: 12,
  },
  {
    id: 13,
    code: "XRPUSDT",
    showCode: "XRP/USDT",
    categoryId: 3,
    logo: "/logos/xrpusdt.svg",
    pricePrecision: 4,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1000",
    feeRate: "0.0005",
    marginMode: 2,
    multiples: [...CRYPTO_MULTIPLES],
    sessionKind: "crypto",
    basePrice: "2.4185",
    annualVolatility: "0.80",
    status: 1,
    sort: 13,
  },
  {
    id: 14,
    code: "BNBUSDT",
    showCode: "BNB/USDT",
    categoryId: 3,
    logo: "/logos/bnbusdt.svg",
    pricePrecision: 2,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1",
    feeRate: "0.0005",
    marginMode: 2,
    multiples: [...CRYPTO_MULTIPLES],
    sessionKind: "crypto",
    basePrice: "905.30",
    annualVolatility: "0.55",
    status: 1,
    sort: 14,
  },
  // Indices
  {
    id: 15,
    code: "US30",
    showCode: "US30",
    categoryId: 4,
    logo: "/logos/us30.svg",
    pricePrecision: 1,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1",
    feeRate: "0.0004",
    marginMode: 2,
    multiples: [...INDEX_MULTIPLES],
    sessionKind: "index",
    basePrice: "47250.5",
    annualVolatility: "0.16",
    status: 1,
    sort: 15,
  },
  {
    id: 16,
    code: "NAS100",
    showCode: "NAS100",
    categoryId: 4,
    logo: "/logos/nas100.svg",
    pricePrecision: 1,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1",
    feeRate: "0.0004",
    marginMode: 2,
    multiples: [...INDEX_MULTIPLES],
    sessionKind: "index",
    basePrice: "25480.3",
    annualVolatility: "0.22",
    status: 1,
    sort: 16,
  },
  {
    id: 17,
    code: "SPX500",
    showCode: "SPX500",
    categoryId: 4,
    logo: "/logos/spx500.svg",
    pricePrecision: 1,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "10",
    feeRate: "0.0004",
    marginMode: 2,
    multiples: [...INDEX_MULTIPLES],
    sessionKind: "index",
    basePrice: "6820.4",
    annualVolatility: "0.18",
    status: 1,
    sort: 17,
  },
  {
    id: 18,
    code: "GER40",
    showCode: "GER40",
    categoryId: 4,
    logo: "/logos/ger40.svg",
    pricePrecision: 1,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1",
    feeRate: "0.0004",
    marginMode: 2,
    multiples: [...INDEX_MULTIPLES],
    sessionKind: "index",
    basePrice: "24150.6",
    annualVolatility: "0.18",
    status: 1,
    sort: 18,
  },
  // Energy
  {
    id: 19,
    code: "USOIL",
    showCode: "WTI",
    categoryId: 5,
    logo: "/logos/usoil.svg",
    pricePrecision: 2,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1000",
    feeRate: "0.0005",
    marginMode: 2,
    multiples: [...ENERGY_MULTIPLES],
    sessionKind: "energy",
    basePrice: "61.45",
    annualVolatility: "0.35",
    status: 1,
    sort: 19,
    deliveryDays: 7,
  },
  {
    id: 20,
    code: "UKOIL",
    showCode: "Brent",
    categoryId: 5,
    logo: "/logos/ukoil.svg",
    pricePrecision: 2,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "1000",
    feeRate: "0.0005",
    marginMode: 2,
    multiples: [...ENERGY_MULTIPLES],
    sessionKind: "energy",
    basePrice: "65.20",
    annualVolatility: "0.33",
    status: 1,
    sort: 20,
    deliveryDays: 7,
  },
  {
    id: 21,
    code: "NGAS",
    showCode: "NatGas",
    categoryId: 5,
    logo: "/logos/ngas.svg",
    pricePrecision: 3,
    lotStep: "0.01",
    minLots: "0.01",
    contractSize: "10000",
    feeRate: "0.0005",
    marginMode: 1,
    multiples: [],
    sessionKind: "energy",
    basePrice: "3.845",
    annualVolatility: "0.55",
    status: 1,
    sort: 21,
  },
];

export interface NewsSeed {
  id: number;
  title: string;
  desc: string;
  content: string;
  logo: string;
  /** ISO 8601 UTC */
  createdAt: string;
}

export const NEWS: NewsSeed[] = [
  {
    id: 1,
    title: "Understanding Leverage and Margin",
    desc: "How leverage multiplies both gains and losses, and how margin is calculated on Bourse.",
    content:
      "Leverage lets you open a position larger than the funds you commit. On Bourse, the margin for a leveraged position is the number of lots multiplied by the contract size and the price, divided by the leverage you select.\n\n" +
      "Higher leverage means less margin is locked, but price moves affect your equity just as strongly as on a fully funded position. A small adverse move can consume a large share of your margin.\n\n" +
      "Before trading, review the margin requirement shown on the order ticket and consider using lower leverage while you learn how an instrument behaves.",
    logo: "/news/1.svg",
    createdAt: "2026-11-02T08:00:00Z",
  },
  {
    id: 2,
    title: "What Is a Pip, and Why Does Precision Matter?",
    desc: "A short guide to price precision, pips and tick values across forex, metals and crypto.",
    content:
      "A pip is the conventional unit for measuring price changes in forex. For most pairs it is the fourth decimal place, while pairs quoted against the Japanese yen use the second decimal place.\n\n" +
      "Bourse displays prices with an extra digit of precision for major currency pairs, so quotes may show five decimals (or three for yen pairs). Metals, indices, energy and crypto each use their own precision, shown on the instrument page.\n\n" +
      "Knowing the precision and contract size of an instrument helps you estimate how much each price movement changes the value of your position.",
    logo: "/news/2.svg",
    createdAt: "2026-11-06T10:15:00Z",
  },
  {
    id: 3,
    title: "Stop-Loss and Take-Profit Orders Explained",
    desc: "Set exit levels in advance to manage risk consistently.",
    content:
      "A stop-loss closes a position automatically when the price reaches a level you choose, limiting further losses. A take-profit does the same when the price reaches a target in your favour.\n\n" +
      "Both levels can be set when opening a position or added later from the positions list. In fast markets, execution may occur at the next available price, which can differ from the level you set.\n\n" +
      "Planning exits before entering a trade is a widely used risk-management habit for traders of every experience level.",
    logo: "/news/3.svg",
    createdAt: "2026-11-10T07:45:00Z",
  },
  {
    id: 4,
    title: "New Instruments: Indices and Energy",
    desc: "Bourse now lists major stock indices and energy contracts alongside forex, metals and crypto.",
    content:
      "The instrument list now includes the US30, NAS100, SPX500 and GER40 indices, as well as WTI crude oil, Brent crude oil and natural gas.\n\n" +
      "Each instrument has its own trading hours, contract size and leverage options. Please check the instrument details page before placing an order.\n\n" +
      "As always, new instruments are available on the demo account first, so you can become familiar with them without risking real funds.",
    logo: "/news/4.svg",
    createdAt: "2026-11-14T09:30:00Z",
  },
  {
    id: 5,
    title: "Reading a Candlestick Chart",
    desc: "The basics of open, high, low and close, and how to choose a chart timeframe.",
    content:
      "Each candlestick summarises price movement over a chosen period: the opening price, the highest and lowest prices reached, and the closing price.\n\n" +
      "The body shows the range between open and close, while the thin lines (wicks) show the extremes. Switching between timeframes, such as one minute or one day, can reveal different patterns in the same market.\n\n" +
      "Charts describe past prices only. They do not predict future movements, and no pattern guarantees a particular outcome.",
    logo: "/news/5.svg",
    createdAt: "2026-11-18T13:00:00Z",
  },
  {
    id: 6,
    title: "Account Security Tips",
    desc: "Simple steps to keep your Bourse account safe.",
    content:
      "Use a unique, strong password for your Bourse account and never share verification codes with anyone, including people who claim to represent Bourse.\n\n" +
      "Our staff will never ask for your password. If you notice unfamiliar activity, change your password immediately and contact support from within the app.",
    logo: "/news/6.svg",
    createdAt: "2026-11-20T09:30:00Z",
  },
];

export interface AnnouncementSeed {
  id: number;
  title: string;
  content: string;
  /** ISO 8601 UTC */
  createdAt: string;
}

export const ANNOUNCEMENTS: AnnouncementSeed[] = [
  {
    id: 1,
    title: "Welcome to Bourse",
    content:
      "Welcome to Bourse. Every new account comes with a demo account funded with virtual money, so you can practise placing orders, setting stop-loss and take-profit levels, and managing positions without risking real funds.\n\n" +
      "Demo balances have no cash value and cannot be withdrawn. You can switch between your demo and live accounts at any time from the account menu.",
    createdAt: "2026-11-01T00:00:00Z",
  },
  {
    id: 2,
    title: "Service Restrictions",
    content:
      "Bourse does not provide services to residents of North Korea, Israel, China, Vanuatu and Cuba. Accounts registered from these jurisdictions cannot be opened or used.\n\n" +
      "If you have questions about availability in your region, please contact support.",
    createdAt: "2026-11-01T00:05:00Z",
  },
  {
    id: 3,
    title: "Trading Hours for FX, Metals and Crypto",
    content:
      "Forex and metals trade around the clock on weekdays. The market is closed from Friday 17:00 to Sunday 17:00 New York time; orders cannot be opened or closed during this period.\n\n" +
      "Crypto instruments are available 24 hours a day, 7 days a week. Indices and energy follow their own schedules, shown on each instrument's details page.",
    createdAt: "2026-11-03T06:00:00Z",
  },
  {
    id: 4,
    title: "Scheduled Maintenance",
    content:
      "Bourse will undergo scheduled maintenance on Sunday, 29 November 2026, from 02:00 to 04:00 UTC. During this window, logging in, trading and funding may be briefly unavailable.\n\n" +
      "Open positions, stop-loss and take-profit levels are preserved. We apologise for any inconvenience.",
    createdAt: "2026-11-22T08:00:00Z",
  },
];

/** Option durations on offer (operators edit them later): seconds, ProfitRatio, minimum stake in USD. */
export const OPTION_DURATIONS = [
  { id: 1, seconds: 30, profitRatio: "0.80", minAmount: "10", sort: 1 },
  { id: 2, seconds: 60, profitRatio: "0.85", minAmount: "10", sort: 2 },
  { id: 3, seconds: 120, profitRatio: "0.88", minAmount: "20", sort: 3 },
  { id: 4, seconds: 300, profitRatio: "0.90", minAmount: "50", sort: 4 },
];

/** Preset stakes in USD (the options response's number list). */
export const OPTION_AMOUNTS = [
  { id: 1, amount: "10", sort: 1 },
  { id: 2, amount: "50", sort: 2 },
  { id: 3, amount: "100", sort: 3 },
  { id: 4, amount: "500", sort: 4 },
  { id: 5, amount: "1000", sort: 5 },
];

/** Deposit currencies and the platform's receiving addresses (spec §3 Charge currency). Operators edit them. */
export const CHARGE_CURRENCIES = [
  { id: 1, currencyCode: "USDT", protocolCode: "TRC20", address: "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt", usdPrice: "1", sort: 1 },
  { id: 2, currencyCode: "USDT", protocolCode: "ERC20", address: "0x8f3A1c9B2e47D6a05F1b8C3d9E2f4A6b7C8d9E0f", usdPrice: "1", sort: 2 },
  { id: 3, currencyCode: "BTC", protocolCode: "BTC", address: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", usdPrice: "62000", sort: 3 },
  { id: 4, currencyCode: "ETH", protocolCode: "ERC20", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF", usdPrice: "3100", sort: 4 },
];

/** The platform's bank accounts for wire deposits (spec §3 Wire info). */
export const WIRE_ACCOUNTS = [
  {
    id: 1,
    bankName: "Harbour Commercial Bank",
    bankAddress: "88 Queen's Road Central, Hong Kong",
    bankSwift: "HCBKHKHH",
    payeeName: "Bourse Markets Ltd.",
    payeeAccount: "012-345678-901",
    bankRemark: "Put your UID in the payment reference.",
    sort: 1,
  },
  {
    id: 2,
    bankName: "Banque du Lac",
    bankAddress: "12 Quai du Mont-Blanc, 1201 Geneva",
    bankSwift: "BDLACHGG",
    payeeName: "Bourse Markets Ltd.",
    payeeAccount: "CH93 0076 2011 6238 5295 7",
    bankRemark: "EUR and USD accepted. Put your UID in the payment reference.",
    sort: 2,
  },
];

/**
 * Withdrawal currencies (spec §3 Withdraw currency). draw_type 1 coin, 2 bank. fee_type 1: a
 * fixed fee of draw_rate USD; otherwise draw_rate × amount. usd_price converts USD into the payout currency.
 */
export const WITHDRAW_CURRENCIES = [
  { id: 1, drawType: 1, code: "USDT", protocol: "TRC20", drawRate: "1", feeType: 1, usdPrice: "1", minAmount: "10", sort: 1 },
  { id: 2, drawType: 1, code: "USDT", protocol: "ERC20", drawRate: "0.01", feeType: 2, usdPrice: "1", minAmount: "20", sort: 2 },
  { id: 3, drawType: 2, code: "USD", protocol: "", drawRate: "15", feeType: 1, usdPrice: "1", minAmount: "50", sort: 3 },
  { id: 4, drawType: 2, code: "EUR", protocol: "", drawRate: "0.005", feeType: 2, usdPrice: "0.92", minAmount: "50", sort: 4 },
  { id: 5, drawType: 2, code: "HKD", protocol: "", drawRate: "0.005", feeType: 2, usdPrice: "7.8", minAmount: "50", sort: 5 },
];

/**
 * Loan terms operators offer (spec §3 Loan config). Amounts in USD; interest_rate and penalty_rate
 * are daily rates in hundredths of a percent ("5" = 0.05 % a day; "25" = the agreement's 0.25 %).
 */
export const LOAN_CONFIGS = [
  { id: 1, loanPeriod: 7, minAmount: "100", maxAmount: "2000", interestRate: "5", freePeriod: 0, penaltyRate: "25", sort: 1 },
  { id: 2, loanPeriod: 30, minAmount: "500", maxAmount: "10000", interestRate: "4", freePeriod: 3, penaltyRate: "25", sort: 2 },
  { id: 3, loanPeriod: 90, minAmount: "1000", maxAmount: "50000", interestRate: "3", freePeriod: 7, penaltyRate: "25", sort: 3 },
];

/**
 * Fund (mining) products (spec §3 Fund product). Amounts in USD; dividend_percentage is the
 * expected daily profit in percent; liquidated_damages the early-redemption penalty in percent.
 */
export const FUNDS = [
  {
    id: 1,
    title: "S19 XP Hydro — 30 days",
    image: "/funds/hydro.svg",
    currencyCode: "USDT",
    dividendPercentage: "0.8",
    startingSubAmount: "100",
    lockDividendDays: 30,
    maxSubAmount: "20000",
    liquidatedDamages: "5",
    autoRefund: 0,
    desc: "Rent hashing power in a hydro-cooled farm. Income is paid every day for 30 days; the amount returns at the end of the period.",
    sort: 1,
  },
  {
    id: 2,
    title: "Stable Yield — 7 days",
    image: "/funds/stable.svg",
    currencyCode: "USDT",
    dividendPercentage: "0.35",
    startingSubAmount: "50",
    lockDividendDays: 7,
    maxSubAmount: "5000",
    liquidatedDamages: "2",
    autoRefund: 1,
    desc: "A short lock with a modest daily income. Early redemption is approved automatically against a 2 % penalty.",
    sort: 2,
  },
  {
    id: 3,
    title: "Genesis Pool — 90 days",
    image: "/funds/genesis.svg",
    currencyCode: "USDT",
    dividendPercentage: "1.2",
    startingSubAmount: "1000",
    lockDividendDays: 90,
    maxSubAmount: "100000",
    liquidatedDamages: "10",
    autoRefund: 0,
    desc: "The longest lock and the highest expected income. Early redemption costs 10 % of the share.",
    sort: 3,
  },
];

export interface CompanySeed {
  id: number;
  name: string;
  logo: string;
  url: string;
  subject: string;
  registeredAddress: string;
  location: string;
  email: string;
  /** 1 open; 0 closed (its visitors go to its loss_url). */
  status: number;
  /** 0 is the main site; partner sites are 1. */
  type: number;
}

/** Partner companies listed by the main site's company search (/product); the main company (id 1) is seeded on its own. */
export const COMPANIES: CompanySeed[] = [
  {
    id: 2,
    name: "Harbour Capital Markets",
    logo: "",
    url: "https://harbour-capital.example",
    subject: "Harbour Capital Markets Ltd.",
    registeredAddress: "18 Queen's Road, Central, Hong Kong",
    location: "Hong Kong",
    email: "desk@harbour-capital.example",
    status: 1,
    type: 1,
  },
  {
    id: 3,
    name: "Nordlicht Trading",
    logo: "",
    url: "https://nordlicht-trading.example",
    subject: "Nordlicht Trading GmbH",
    registeredAddress: "Neuer Wall 10, 20354 Hamburg, Germany",
    location: "Germany",
    email: "service@nordlicht-trading.example",
    status: 1,
    type: 1,
  },
  {
    id: 4,
    name: "Sakura Securities Online",
    logo: "",
    url: "https://sakura-securities.example",
    subject: "Sakura Securities Online K.K.",
    registeredAddress: "2-1 Marunouchi, Chiyoda-ku, Tokyo, Japan",
    location: "Japan",
    email: "support@sakura-securities.example",
    status: 1,
    type: 1,
  },
  {
    id: 5,
    name: "Atlas Bourse Partners",
    logo: "",
    url: "https://atlas-partners.example",
    subject: "Atlas Bourse Partners S.A.",
    registeredAddress: "12 Rue du Rhône, 1204 Geneva, Switzerland",
    location: "Switzerland",
    email: "contact@atlas-partners.example",
    status: 1,
    type: 1,
  },
  {
    id: 6,
    name: "Meridian Markets (closed)",
    logo: "",
    url: "https://meridian-markets.example",
    subject: "Meridian Markets Pte. Ltd.",
    registeredAddress: "1 Raffles Place, Singapore",
    location: "Singapore",
    email: "info@meridian-markets.example",
    status: 0,
    type: 1,
  },
];

/**
 * Tax id types the payment provider accepts on a customer, per country, with the pattern a
 * code must match and an example of it. Types and examples follow Stripe's list of supported
 * customer tax ids (https://docs.stripe.com/billing/customer/tax-ids); the patterns follow each
 * authority's published format (EU VAT: the VIES formats). A code is compared without spaces
 * and in upper case, as people type them in many ways.
 */
export interface TaxIdType {
  type: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** Anchored regular expression source. */
  pattern: string;
  example: string;
}

const EU_VAT: Array<[country: string, pattern: string, example: string]> = [
  ['AT', 'ATU\\d{8}', 'ATU12345678'],
  ['BE', 'BE[01]\\d{9}', 'BE0123456789'],
  ['BG', 'BG\\d{9,10}', 'BG0123456789'],
  ['CY', 'CY\\d{8}[A-Z]', 'CY12345678Z'],
  ['CZ', 'CZ\\d{8,10}', 'CZ1234567890'],
  ['DE', 'DE\\d{9}', 'DE123456789'],
  ['DK', 'DK\\d{8}', 'DK12345678'],
  ['EE', 'EE\\d{9}', 'EE123456789'],
  ['ES', 'ES[A-Z0-9]\\d{7}[A-Z0-9]', 'ESA1234567Z'],
  ['FI', 'FI\\d{8}', 'FI12345678'],
  ['FR', 'FR[A-HJ-NP-Z0-9]{2}\\d{9}', 'FRAB123456789'],
  ['GR', 'EL\\d{9}', 'EL123456789'],
  ['HR', 'HR\\d{11}', 'HR12345678912'],
  ['HU', 'HU\\d{8}', 'HU12345678'],
  ['IE', 'IE\\d[A-Z0-9+*]\\d{5}[A-W][A-I]?', 'IE1234567AB'],
  ['IT', 'IT\\d{11}', 'IT12345678912'],
  ['LT', 'LT(\\d{9}|\\d{12})', 'LT123456789123'],
  ['LU', 'LU\\d{8}', 'LU12345678'],
  ['LV', 'LV\\d{11}', 'LV12345678912'],
  ['MT', 'MT\\d{8}', 'MT12345678'],
  ['NL', 'NL\\d{9}B\\d{2}', 'NL123456789B12'],
  ['PL', 'PL\\d{10}', 'PL1234567890'],
  ['PT', 'PT\\d{9}', 'PT123456789'],
  ['RO', 'RO\\d{2,10}', 'RO1234567891'],
  ['SE', 'SE\\d{10}01', 'SE123456789101'],
  ['SI', 'SI\\d{8}', 'SI12345678'],
  ['SK', 'SK\\d{10}', 'SK1234567891'],
];

const OTHERS: TaxIdType[] = [
  {
    type: 'gb_vat',
    country: 'GB',
    pattern: 'GB(\\d{9}|\\d{12}|GD\\d{3}|HA\\d{3})',
    example: 'GB123456789',
  },
  {
    type: 'ch_vat',
    country: 'CH',
    pattern: 'CHE-?\\d{3}\\.?\\d{3}\\.?\\d{3}(MWST|TVA|IVA)',
    example: 'CHE-123.456.789 MWST',
  },
  { type: 'no_vat', country: 'NO', pattern: '\\d{9}MVA', example: '123456789MVA' },
  { type: 'is_vat', country: 'IS', pattern: '\\d{5,6}', example: '123456' },
  { type: 'us_ein', country: 'US', pattern: '\\d{2}-?\\d{7}', example: '12-3456789' },
  { type: 'ca_bn', country: 'CA', pattern: '\\d{9}', example: '123456789' },
  { type: 'ca_gst_hst', country: 'CA', pattern: '\\d{9}RT\\d{4}', example: '123456789RT0002' },
  { type: 'ca_qst', country: 'CA', pattern: '\\d{10}TQ\\d{4}', example: '1234567890TQ1234' },
  { type: 'au_abn', country: 'AU', pattern: '\\d{11}', example: '12345678912' },
  { type: 'au_arn', country: 'AU', pattern: '\\d{12}', example: '123456789123' },
  { type: 'nz_gst', country: 'NZ', pattern: '\\d{8,9}', example: '123456789' },
  {
    type: 'in_gst',
    country: 'IN',
    pattern: '\\d{2}[A-Z]{5}\\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]',
    example: '12ABCDE3456FGZH',
  },
  { type: 'jp_cn', country: 'JP', pattern: '\\d{13}', example: '1234567891234' },
  { type: 'jp_trn', country: 'JP', pattern: 'T\\d{13}', example: 'T1234567891234' },
  { type: 'kr_brn', country: 'KR', pattern: '\\d{3}-?\\d{2}-?\\d{5}', example: '123-45-67890' },
  {
    type: 'sg_uen',
    country: 'SG',
    pattern: '(\\d{8,9}[A-Z]|[RST]\\d{2}[A-Z]{2}\\d{4}[A-Z])',
    example: '123456789F',
  },
  { type: 'sg_gst', country: 'SG', pattern: '(M\\d{8}[A-Z]|\\d{9}[A-Z])', example: 'M12345678X' },
  { type: 'hk_br', country: 'HK', pattern: '\\d{8}', example: '12345678' },
  { type: 'tw_vat', country: 'TW', pattern: '\\d{8}', example: '12345678' },
  { type: 'th_vat', country: 'TH', pattern: '\\d{13}', example: '1234567891234' },
  { type: 'ae_trn', country: 'AE', pattern: '\\d{15}', example: '123456789012345' },
  { type: 'sa_vat', country: 'SA', pattern: '3\\d{13}3', example: '312345678901233' },
  { type: 'il_vat', country: 'IL', pattern: '\\d{9}', example: '000012345' },
  { type: 'tr_tin', country: 'TR', pattern: '\\d{10}', example: '0123456789' },
  { type: 'za_vat', country: 'ZA', pattern: '4\\d{9}', example: '4123456789' },
  {
    type: 'br_cnpj',
    country: 'BR',
    pattern: '\\d{2}\\.?\\d{3}\\.?\\d{3}/?\\d{4}-?\\d{2}',
    example: '01.234.456/5432-10',
  },
  {
    type: 'br_cpf',
    country: 'BR',
    pattern: '\\d{3}\\.?\\d{3}\\.?\\d{3}-?\\d{2}',
    example: '123.456.789-87',
  },
  {
    type: 'mx_rfc',
    country: 'MX',
    pattern: '[A-Z&Ñ]{3,4}\\d{6}[A-Z0-9]{3}',
    example: 'ABC010203AB9',
  },
  {
    type: 'ar_cuit',
    country: 'AR',
    pattern: '\\d{2}-?\\d{7,8}-?\\d{1,2}',
    example: '12-3456789-01',
  },
  {
    type: 'cl_tin',
    country: 'CL',
    pattern: '\\d{1,2}\\.?\\d{3}\\.?\\d{3}-?[\\dK]',
    example: '12.345.678-K',
  },
];

export const TAX_ID_TYPES: readonly TaxIdType[] = [
  ...EU_VAT.map(([country, pattern, example]) => ({ type: 'eu_vat', country, pattern, example })),
  ...OTHERS,
];

const normalise = (code: string) => code.replace(/\s+/g, '').toUpperCase();

/** True when the code is a well-formed tax id of the type for the country. */
export function isValidTaxCode(type: string, country: string, code: string): boolean {
  const entry = TAX_ID_TYPES.find((t) => t.type === type && t.country === country.toUpperCase());
  if (!entry) return false;
  return new RegExp(`^(?:${entry.pattern})$`).test(normalise(code));
}

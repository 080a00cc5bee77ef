import { PRODUCT_NAME } from '@parla/contract';

/** The publisher of Parla (SPEC §1: a UK company), shown in the footer and on contact pages. */
export const COMPANY = {
  name: `${PRODUCT_NAME} Ltd`,
  street: '27 Clerkenwell Close',
  city: 'London',
  postcode: 'EC1R 0AT',
  country: 'United Kingdom',
  // Ofcom reserves 020 7946 0xxx for drama and examples: never a real subscriber.
  phone: '+44 20 7946 0321',
  email: 'hello@parla.co.uk',
  registration: 'Registered in England and Wales',
  social: [
    { name: 'X', href: 'https://x.com/parla' },
    { name: 'LinkedIn', href: 'https://www.linkedin.com/company/parla' },
    { name: 'YouTube', href: 'https://www.youtube.com/@parla' },
    { name: 'GitHub', href: 'https://github.com/parla' },
  ],
} as const;

export const PRODUCT_DESCRIPTION =
  'Parla turns plain text and SSML into natural speech in your browser: voices in many languages, fine control over speed, volume and pitch, and audio you can download and keep.';

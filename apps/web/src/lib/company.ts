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
  social: [
    { name: 'X' as const, href: 'https://x.com/parla' },
    { name: 'LinkedIn' as const, href: 'https://www.linkedin.com/company/parla' },
    { name: 'YouTube' as const, href: 'https://www.youtube.com/@parla' },
    { name: 'GitHub' as const, href: 'https://github.com/parla' },
  ],
} as const;

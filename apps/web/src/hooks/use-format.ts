import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** '7 September 2026' in the language's own way of writing dates. */
export function formatLongDate(value: Date | string, locale: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/**
 * Numbers, prices and dates written the way the page's language writes them (Intl, with the
 * locale of the route language): '1,000' in English, '1 000' in French, '١٬٠٠٠' in Arabic.
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const number = new Intl.NumberFormat(locale);
    return {
      locale,
      number: (value: number) => number.format(value),
      /** Dollars (SPEC §9): '$9', '$12.50'; cents only when there are some. */
      dollars: (value: number) =>
        new Intl.NumberFormat(locale, {
          style: 'currency',
          currency: 'USD',
          minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
        }).format(value),
      date: (value: Date | string) => formatLongDate(value, locale),
    };
  }, [locale]);
}

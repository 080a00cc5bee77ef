import type { ReactNode } from 'react';

/**
 * Left-to-right text isolated from the text around it (issue 18 item 2): phone numbers, prices
 * with their currency, numbers with their unit, addresses and other Latin text keep their own
 * order on Arabic pages instead of being reordered by the surrounding right-to-left text.
 */
export function Ltr({ children }: { children: ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}

/**
 * Words of SPEC that stay English on every page ("Remember me!", "Forgot password?", its
 * messages): isolated left to right, so an Arabic page ends them with their own punctuation
 * rather than moving it to the front, and marked English for screen readers (WCAG 3.1.2).
 */
export function English({ children }: { children: ReactNode }) {
  return (
    <bdi dir="ltr" lang="en">
      {children}
    </bdi>
  );
}

/**
 * The same for places that take plain text only (the options of a native select, attributes):
 * the text between a left-to-right isolate and its pop directional isolate (U+2066, U+2069).
 */
export function ltrText(text: string): string {
  return `\u2066${text}\u2069`;
}

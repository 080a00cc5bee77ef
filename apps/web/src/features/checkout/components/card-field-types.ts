import type { RefObject } from 'react';
import type { CardFieldState } from '../lib/checkout-rules';

/** Turns the entered card into the provider's token id; throws with the provider's message. */
export type Tokenizer = (nameOnCard: string) => Promise<string>;

export interface CardFieldProps {
  onChange: (state: CardFieldState) => void;
  tokenizer: RefObject<Tokenizer | null>;
}

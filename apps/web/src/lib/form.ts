import { type FieldValues, type FormState, get } from 'react-hook-form';

/**
 * The error a form field shows: SPEC §5 "Errors show after a submit attempt or once a field is
 * dirty or touched". The forms validate on every change and blur (mode 'all'), so the error is
 * always up to date; this decides only whether it is shown yet.
 */
export function visibleError<T extends FieldValues>(
  state: FormState<T>,
  name: string,
): string | undefined {
  // Every property is read on each render: react-hook-form re-renders only for what was read.
  const { errors, isSubmitted, touchedFields, dirtyFields } = state;
  const shown = isSubmitted || Boolean(get(touchedFields, name)) || Boolean(get(dirtyFields, name));
  if (!shown) return undefined;
  const message = (get(errors, name) as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * Splits a SPEC message whose second sentence is a link ('Register successfully!Go to login
 * page!') after its first '!', so the page can render the second part as that link while the
 * text stays word for word.
 */
export function splitAfterFirstSentence(message: string): [string, string] {
  const index = message.indexOf('!');
  if (index === -1 || index === message.length - 1) return [message, ''];
  return [message.slice(0, index + 1), message.slice(index + 1)];
}

/** The conversion's own answers (SPEC §7's `message` of POST /api/convertor). */
export const CONVERT_MESSAGES = {
  converted: 'Your audio is ready.',
  tooLong: (characters: number, limit: number) =>
    `This text has ${characters} characters; your plan converts at most ${limit} at a time.`,
  noCharactersLeft: (remaining: number) =>
    `You have ${remaining} characters left, not enough for this text. You can purchase more characters!`,
  failed: 'The conversion failed on our side. Please try again.',
  gone: 'This audio has expired. Please convert the text again.',
} as const;

/** Answers about an `Idempotency-Key` (a retried conversion is charged once). */
export const IDEMPOTENCY_MESSAGES = {
  idempotencyNeedsUser:
    'Idempotency-Key: needs a signed-in caller (an API key or a login token), whose answers it keeps.',
  idempotencyReused: 'Idempotency-Key: this key was used for another request; use a new key.',
  idempotencyRunning:
    'Idempotency-Key: the first request with this key is still being answered; retry in a moment.',
} as const;

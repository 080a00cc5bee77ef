/** The server's own answers of the auth calls (the web shows them as SPEC §8 says). */
export const AUTH_MESSAGES = {
  registered: 'Your account is created. Open the link we sent to your email address to confirm it.',
  duplicate: 'An account with this email address already exists. Log in, or reset its password.',
  wrongCredentials: 'Incorrect email address or password.',
  resetSent: 'If an account exists for this address, we sent it a link to reset the password.',
  badKey: 'This link is invalid, already used or expired. Please ask for a new one.',
  passwordReset: 'Your password is changed. You can log in with it now.',
  loggedOut: 'You are logged out.',
  /** A request that needs an account and carries no credentials at all. */
  signInNeeded: 'Please log in to continue.',
  /** Any login or credentials of an account an administrator disabled (decision 044). */
  disabled:
    'This account is disabled. Write to us through the contact page if you think this is a mistake.',
  /** Issue 13 item 7: wrong passwords slow an address down (login-failures.ts). */
  slowDown: (seconds: number) =>
    `Too many wrong passwords for this address. Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} and try again.`,
} as const;

import type { Db } from '../../db/database.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { createKeyRepository } from './keys.js';
import { validationMail } from './mails.js';

/**
 * Mails a new validation link for `email` to it: at registration, at a login before the
 * address was validated, at an email change, and when an administrator resends it.
 */
export function createValidationLinks(db: Db, mailer: Mailer, publicUrl: string) {
  const keys = createKeyRepository(db);
  return async (userId: string, email: string) => {
    const key = await keys.issue(userId, 'validate_email', email);
    await mailer.send(validationMail(email, `${publicUrl}/auth/validate-email-address/${key}`));
  };
}

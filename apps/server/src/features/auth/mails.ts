import type { Mail } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';

/** The account mails, in the words of a product people trust with their address. */
export function validationMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Confirm your email address for Parla',
    ...renderMail({
      title: 'Confirm your email address',
      intro: [
        'Hello,',
        'Please confirm that this is your email address so you can sign in to Parla and keep your converted audio safe.',
      ],
      action: { label: 'Confirm my email address', url: link },
      outro: [
        'The link works once and expires in 24 hours.',
        'If you did not create a Parla account or change its address, you can ignore this mail.',
      ],
    }),
  };
}

export function resetPasswordMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Reset your Parla password',
    ...renderMail({
      title: 'Reset your password',
      intro: [
        'Hello,',
        'Someone (hopefully you) asked to reset the password of your Parla account.',
      ],
      action: { label: 'Choose a new password', url: link },
      outro: [
        'The link works once and expires in 1 hour.',
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ],
    }),
  };
}

import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { splitAfterFirstSentence } from '../../../lib/form';

/**
 * A success message of SPEC §4 whose second sentence is the 'Go to login page!' link
 * ('Register successfully!Go to login page!', 'Password changed successfully!Go to login page!').
 */
export function GoToLoginTitle({ message }: { message: string }) {
  const [done, goToLogin] = splitAfterFirstSentence(message);
  return (
    <>
      {done}
      <Anchor component={Link} to="/auth/login" inherit>
        {goToLogin}
      </Anchor>
    </>
  );
}

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deleteCookie } from '../../../lib/cookies';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';
import CutNotice from './cut-notice';

signedInForEachTest();

function serve(plan: 'FREE' | 'BUSINESS' | null, role: 'USER' | 'ADMIN' = 'USER') {
  interceptFetch((call) => {
    if (call.url === '/api/account/profile' && plan)
      return jsonResponse(200, profileOf({ user: { role }, plan: { type: plan } }));
    return jsonResponse(401, { message: 'Unauthorized.' });
  });
}

const render = () =>
  renderAt('/convertor', '/convertor', <CutNotice kept={1000} total={1500} onClose={() => {}} />);

describe('the cut notice points long texts to the Documents page (issue 33 item 7)', () => {
  it('a FREE user is told which plan has documents, without a link to a page they cannot use', async () => {
    serve('FREE');
    render();
    const sentence = await screen.findByTestId('cut-documents');
    expect(sentence.textContent).toBe(
      'With the Basic plan, the Documents page converts up to 100,000 characters at once.',
    );
    expect(screen.queryByRole('link', { name: 'The Documents page' })).toBeNull();
  });

  it('a signed-out visitor too', async () => {
    deleteCookie('token');
    serve(null);
    render();
    const sentence = await screen.findByTestId('cut-documents');
    expect(sentence.textContent).toContain('With the Basic plan');
  });

  it('an administrator on FREE has documents: the link, with the largest limit', async () => {
    serve('FREE', 'ADMIN');
    render();
    const link = await screen.findByRole('link', { name: 'The Documents page' });
    expect(link.getAttribute('href')).toBe('/documents');
    expect(screen.getByTestId('cut-documents').textContent).toContain('1,000,000 characters');
  });
});

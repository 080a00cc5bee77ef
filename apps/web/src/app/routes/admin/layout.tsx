import type { LoaderFunctionArgs } from 'react-router';
import { AdminLayout } from '../../../features/admin/components/admin-layout';
import { loadAdminWords } from '../../../lib/i18n';
import { pageLanguage } from '../../../lib/languages';

/** /admin (issue 31): the console's words load with its code, never on a visitor's page. */
export async function loader({ request }: LoaderFunctionArgs): Promise<null> {
  await loadAdminWords(pageLanguage(new URL(request.url).pathname));
  return null;
}

export default AdminLayout;
